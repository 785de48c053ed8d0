#include "core/cpu_features.hpp"

namespace rigid2d::detail {

bool cpuHasAvx2() noexcept {
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
    // libgcc's CPU model checks XGETBV for the YMM state before it reports AVX2.
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
#else
    return false;
#endif
}

bool cpuHasAvx512() noexcept {
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
    // As for AVX2, libgcc checks XGETBV (the opmask, ZMM and upper-ZMM state) before it reports
    // any AVX-512 flag.
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") != 0 && __builtin_cpu_supports("avx512vl") != 0 &&
           __builtin_cpu_supports("avx512dq") != 0;
#else
    return false;
#endif
}

} // namespace rigid2d::detail
