#pragma once
// The SIMD paths of the wide solver this build and CPU can run, and a guard that forces one for a
// scope, so that a test runs every path on one machine (on an AVX2 machine: all three).

#include <optional>
#include <vector>

#include "solver/simd_path.hpp"

namespace rigid2d::testing {

[[nodiscard]] inline std::vector<detail::SimdPath> availableSimdPaths() {
    std::vector<detail::SimdPath> paths;
    for (const detail::SimdPath path :
         {detail::SimdPath::Portable, detail::SimdPath::Sse2, detail::SimdPath::Avx2})
        if (detail::simdPathAvailable(path)) paths.push_back(path);
    return paths;
}

class ForcedSimdPath {
public:
    explicit ForcedSimdPath(detail::SimdPath path) { detail::overrideSimdPath(path); }
    ~ForcedSimdPath() { detail::overrideSimdPath(std::nullopt); }
    ForcedSimdPath(const ForcedSimdPath&) = delete;
    ForcedSimdPath& operator=(const ForcedSimdPath&) = delete;
};

} // namespace rigid2d::testing
