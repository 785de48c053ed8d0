// The AVX-512VL instantiation of the wide kernels: the AVX2 ones' code and lanes (eight, in 256-bit
// registers), compiled with AVX-512F, VL and DQ, which give it 32 vector registers instead of 16.
// The solve's kernels hold more values than 16 registers take; here they spill about half as
// much. The same rules as the AVX2 unit hold (-ffp-contract=off, and only functions of its own
// lane type; tests/project/check_isa_object.cmake checks its symbols and that it has no fused
// multiply-add).
#include <type_traits>

#include "solver/float8.hpp"
#include "solver/wide_kernel_table.hpp"

static_assert(std::is_same_v<rigid2d::detail::Float8,
                             rigid2d::detail::Float8Lanes<rigid2d::detail::Avx512Lanes>>,
              "the AVX-512 kernels are compiled with AVX-512VL and DQ");

namespace rigid2d::detail {

const WideKernels<8>& avx512Kernels() noexcept {
    static constexpr WideKernels<8> kAvx512 = wideKernelsOf<Float8>();
    return kAvx512;
}

} // namespace rigid2d::detail
