#pragma once
// The SIMD paths of the wide solver this build and CPU can run, and a guard that forces one for a
// scope, so that a test runs every path on one machine (on an AVX-512 machine: all four).

#include <optional>
#include <string>
#include <vector>

#include "solver/contact_solver.hpp"
#include "solver/simd_path.hpp"
#include "solver/wide_kernel_table.hpp"

namespace rigid2d::testing {

[[nodiscard]] inline std::vector<detail::SimdPath> availableSimdPaths() {
    std::vector<detail::SimdPath> paths;
    for (const detail::SimdPath path : {detail::SimdPath::Portable, detail::SimdPath::Sse2,
                                        detail::SimdPath::Avx2, detail::SimdPath::Avx512})
        if (detail::simdPathAvailable(path)) paths.push_back(path);
    return paths;
}

/// One way to run the wide solver: a SIMD path, or the 8-wide kernels on portable lanes (the
/// 8-wide layout on any machine; the path then only names the 4-wide fallback, unused).
struct WideVariant {
    std::string name;
    detail::SimdPath path = detail::SimdPath::Portable;
    const detail::WideKernels<8>* kernels8 = nullptr;

    [[nodiscard]] int width() const noexcept {
        return kernels8 != nullptr || detail::wideKernels8(path) != nullptr ? 8 : 4;
    }
};

[[nodiscard]] inline std::vector<WideVariant> wideVariants() {
    static constexpr detail::WideKernels<8> kPortable8 =
        detail::wideKernelsOf<detail::PortableLanes<8>>();
    std::vector<WideVariant> variants;
    for (const detail::SimdPath path : availableSimdPaths())
        variants.push_back({std::string(detail::simdPathName(path)), path, nullptr});
    variants.push_back({"portable x8", detail::SimdPath::Portable, &kPortable8});
    return variants;
}

class ForcedSimdPath {
public:
    explicit ForcedSimdPath(detail::SimdPath path) { detail::overrideSimdPath(path); }
    ~ForcedSimdPath() { detail::overrideSimdPath(std::nullopt); }
    ForcedSimdPath(const ForcedSimdPath&) = delete;
    ForcedSimdPath& operator=(const ForcedSimdPath&) = delete;
};

} // namespace rigid2d::testing
