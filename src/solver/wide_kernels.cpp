#include "solver/wide_kernels.hpp"

#include "solver/float4.hpp"
#include "solver/wide_kernel_table.hpp"

namespace rigid2d::detail {

const WideKernels<4>& wideKernels4(SimdPath path) noexcept {
    static constexpr WideKernels<4> kPortable = wideKernelsOf<PortableLanes<4>>();
#if RIGID2D_SSE2
    static constexpr WideKernels<4> kSse2 = wideKernelsOf<Float4>();
    if (path == SimdPath::Sse2) return kSse2;
#endif
    (void)path;
    return kPortable;
}

const WideKernels<8>* wideKernels8(SimdPath path) noexcept {
#if RIGID2D_AVX512_KERNELS
    if (path == SimdPath::Avx512) return &avx512Kernels();
#endif
#if RIGID2D_AVX2_KERNELS
    if (path == SimdPath::Avx2) return &avx2Kernels();
#endif
    (void)path;
    return nullptr;
}

} // namespace rigid2d::detail
