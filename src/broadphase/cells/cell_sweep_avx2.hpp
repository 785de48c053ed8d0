#pragma once
// overlapMatrix with eight lanes: the grid's cells of five to twelve boxes tested eight boxes to
// a register, on CPUs that have AVX2. The library is built for baseline x86-64: these functions
// carry the target attribute, are inlined only into functions that carry it too, and run only
// where cpuHasAvx2() said yes (not compiled with -mavx2, so no function shared with baseline code
// is compiled for AVX2). The same comparisons lane by lane as the four-wide kernel, so the same
// matrix.
//
// Why: the four-wide kernel tests an eight-box cell in eleven row groups and a twelve-box one in
// twenty-three; eight lanes take seven and eighteen, and the box loads become broadcasts.

#include "broadphase/cells/cell_sweep.hpp"

// Built with the solver's AVX2 kernels (the RIGID2D_AVX2 option, on by default for x86-64 with
// GCC or Clang).
#if RIGID2D_AVX2_KERNELS && (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define RIGID2D_CELL_AVX2 1
#define RIGID2D_TARGET_AVX2 __attribute__((target("avx2")))

namespace rigid2d::detail {

/// overlapMatrix<kGroups> for kGroups 2 or 3 (up to 8 or 12 boxes), the first eight boxes in
/// eight lanes; the same arguments, reads and result.
template <int kGroups>
RIGID2D_TARGET_AVX2 RIGID2D_ALWAYS_INLINE PairMatrix<kGroups>
overlapMatrixAvx2(const unsigned char* first, std::size_t stride, const std::uint8_t* group,
                  std::size_t count) {
    static_assert(kGroups == 2 || kGroups == 3);
    PairMatrix<kGroups> matrix;
    constexpr int kBoxes = PairMatrix<kGroups>::kBoxes;
    const unsigned valid = (1u << count) - 1u;
    const auto at = [&](int k) { return reinterpret_cast<const float*>(first + k * stride); };
    const auto box = [&](int k) { return _mm_loadu_ps(at(k)); };
    // Boxes 0-3 and 4-7 transposed, then joined: lane k of each column is box k.
    __m128 lx0 = box(0), ly0 = box(1), hx0 = box(2), hy0 = box(3);
    __m128 lx1 = box(4), ly1 = box(5), hx1 = box(6), hy1 = box(7);
    _MM_TRANSPOSE4_PS(lx0, ly0, hx0, hy0);
    _MM_TRANSPOSE4_PS(lx1, ly1, hx1, hy1);
    const __m256 lowX = _mm256_set_m128(lx1, lx0), lowY = _mm256_set_m128(ly1, ly0);
    const __m256 highX = _mm256_set_m128(hx1, hx0), highY = _mm256_set_m128(hy1, hy0);
    const __m256i groups =
        _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(group)));
    // Boxes 8-11 (twelve-box cells) in four lanes, as the four-wide kernel has them.
    __m128 lx2 = _mm_setzero_ps(), ly2 = lx2, hx2 = lx2, hy2 = lx2;
    __m128i groups2 = _mm_setzero_si128();
    if constexpr (kGroups == 3) {
        lx2 = box(8), ly2 = box(9), hx2 = box(10), hy2 = box(11);
        _MM_TRANSPOSE4_PS(lx2, ly2, hx2, hy2);
        std::int32_t bytes;
        std::memcpy(&bytes, group + 8, sizeof bytes);
        groups2 = _mm_cvtepu8_epi32(_mm_cvtsi32_si128(bytes));
    }
#pragma GCC unroll 16
    for (int i = 0; i + 1 < kBoxes; ++i) {
        const float* b = at(i);
        const __m128i bGroup4 = _mm_set1_epi32(group[i]);
        unsigned row = 0;
        if (i < 8) {
            const __m256 x =
                _mm256_and_ps(_mm256_cmp_ps(_mm256_broadcast_ss(b), highX, _CMP_LE_OS),
                              _mm256_cmp_ps(lowX, _mm256_broadcast_ss(b + 2), _CMP_LE_OS));
            const __m256 y =
                _mm256_and_ps(_mm256_cmp_ps(_mm256_broadcast_ss(b + 1), highY, _CMP_LE_OS),
                              _mm256_cmp_ps(lowY, _mm256_broadcast_ss(b + 3), _CMP_LE_OS));
            const __m256 owned = _mm256_castsi256_ps(
                _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_broadcastd_epi32(bGroup4), groups),
                                   _mm256_setzero_si256()));
            row = static_cast<unsigned>(
                _mm256_movemask_ps(_mm256_and_ps(_mm256_and_ps(x, y), owned)));
        }
        if constexpr (kGroups == 3) {
            const __m128 x = _mm_and_ps(_mm_cmple_ps(_mm_broadcast_ss(b), hx2),
                                        _mm_cmple_ps(lx2, _mm_broadcast_ss(b + 2)));
            const __m128 y = _mm_and_ps(_mm_cmple_ps(_mm_broadcast_ss(b + 1), hy2),
                                        _mm_cmple_ps(ly2, _mm_broadcast_ss(b + 3)));
            const __m128 owned = _mm_castsi128_ps(
                _mm_cmpeq_epi32(_mm_and_si128(bGroup4, groups2), _mm_setzero_si128()));
            row |= static_cast<unsigned>(_mm_movemask_ps(_mm_and_ps(_mm_and_ps(x, y), owned))) << 8;
        }
        matrix.setRow(i, row & valid & ~((2u << i) - 1u));
    }
    return matrix;
}

} // namespace rigid2d::detail

#endif
