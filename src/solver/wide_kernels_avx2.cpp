// The AVX2 instantiation of the wide kernels, a translation unit compiled with -mavx2 (and
// -ffp-contract=off, never -mfma: a fused multiply-add rounds once where the other paths round
// twice). It defines only functions of its lane type and the blocks of width 8, and calls nothing
// outside them, so no function compiled here can stand in for a baseline one at link time;
// tests/project/check_isa_object.cmake checks its symbols.
#include <type_traits>

#include "solver/float8.hpp"
#include "solver/wide_kernel_table.hpp"

static_assert(std::is_same_v<rigid2d::detail::Float8,
                             rigid2d::detail::Float8Lanes<rigid2d::detail::Avx2Lanes>>,
              "the AVX2 kernels are compiled without AVX-512VL and DQ");

namespace rigid2d::detail {

const WideKernels<8>& avx2Kernels() noexcept {
    static constexpr WideKernels<8> kAvx2 = wideKernelsOf<Float8>();
    return kAvx2;
}

} // namespace rigid2d::detail
