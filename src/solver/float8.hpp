#pragma once
// Eight floats in a 256-bit register, a lane type as lanes.hpp describes. Only the translation
// units of the 8-wide kernels include it (wide_kernels_avx2.cpp, compiled with -mavx2, and
// wide_kernels_avx512.cpp, with AVX-512VL and DQ besides; never -mfma, always
// -ffp-contract=off): the rest of the library stays baseline x86-64, and the solver takes a path
// only where the CPU has it (simd_path.hpp). The comparisons are the SSE2 ones' predicates
// (greater signals on NaN as cmpltps does, notEqual is unordered), max/min take their operands in
// Float4's order.
//
// The same code compiled for AVX-512VL runs on the same 256-bit lanes with the same bits, but has
// 32 registers rather than 16, so the solve's kernels keep their values in registers instead of
// spilling them to the stack. Each instruction set gets a type of its own (Float8Lanes of its tag)
// so that no function of one translation unit has the name of a function of the other, and the
// linker can never run one in place of the other.

#if !defined(__AVX2__)
#error "float8.hpp is for the translation units compiled with -mavx2 or more"
#endif

#include <immintrin.h>

#include "solver/lanes.hpp"

namespace rigid2d::detail {

struct Avx2Lanes;   ///< Float8Lanes' tag in the AVX2 translation unit
struct Avx512Lanes; ///< and in the AVX-512VL one

template <class Isa>
struct Float8Lanes {
    static constexpr int width = 8;
    __m256 v;

    [[nodiscard]] static Float8Lanes add(Float8Lanes a, Float8Lanes b) noexcept {
        return {_mm256_add_ps(a.v, b.v)};
    }
    [[nodiscard]] static Float8Lanes sub(Float8Lanes a, Float8Lanes b) noexcept {
        return {_mm256_sub_ps(a.v, b.v)};
    }
    [[nodiscard]] static Float8Lanes mul(Float8Lanes a, Float8Lanes b) noexcept {
        return {_mm256_mul_ps(a.v, b.v)};
    }
    [[nodiscard]] static Float8Lanes div(Float8Lanes a, Float8Lanes b) noexcept {
        return {_mm256_div_ps(a.v, b.v)};
    }
    [[nodiscard]] static Float8Lanes neg(Float8Lanes a) noexcept {
        return {_mm256_xor_ps(a.v, _mm256_set1_ps(-0.0f))};
    }
    [[nodiscard]] static Float8Lanes load(const float* p) noexcept { return {_mm256_load_ps(p)}; }
    static void store(float* p, Float8Lanes a) noexcept { _mm256_store_ps(p, a.v); }
    [[nodiscard]] static Float8Lanes splat(float x) noexcept { return {_mm256_set1_ps(x)}; }
    [[nodiscard]] static Float8Lanes max(Float8Lanes a, Float8Lanes b) noexcept {
        return {_mm256_max_ps(b.v, a.v)};
    }
    [[nodiscard]] static Float8Lanes min(Float8Lanes a, Float8Lanes b) noexcept {
        return {_mm256_min_ps(b.v, a.v)};
    }
    [[nodiscard]] static Float8Lanes greater(Float8Lanes a, Float8Lanes b) noexcept {
        return {_mm256_cmp_ps(a.v, b.v, _CMP_GT_OS)};
    }
    [[nodiscard]] static Float8Lanes notEqual(Float8Lanes a, Float8Lanes b) noexcept {
        return {_mm256_cmp_ps(a.v, b.v, _CMP_NEQ_UQ)};
    }
    [[nodiscard]] static unsigned laneBits(Float8Lanes mask) noexcept {
        return static_cast<unsigned>(_mm256_movemask_ps(mask.v));
    }
    /// `a`, as a value the optimiser cannot see through: a division of lanes a select made safe
    /// then stays after the select (folded into it, the division of every lane would raise
    /// divide-by-zero where floating-point traps are on).
    [[nodiscard]] static Float8Lanes opaque(Float8Lanes a) noexcept {
        asm("" : "+x"(a.v));
        return a;
    }
    [[nodiscard]] static Float8Lanes select(Float8Lanes mask, Float8Lanes a,
                                            Float8Lanes b) noexcept {
        return {_mm256_blendv_ps(b.v, a.v, mask.v)};
    }
    [[nodiscard]] static Float8Lanes maskOf(unsigned bits) noexcept {
        const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
        const __m256i set = _mm256_and_si256(_mm256_set1_epi32(static_cast<int>(bits)), bit);
        return {_mm256_castsi256_ps(_mm256_cmpeq_epi32(set, bit))};
    }
    // Lanes 0-3 in the low half, 4-7 in the high half: each half is a 4 x 4 transpose, the
    // bodies loaded two to a register (one 128-bit row in each half).
    static void gatherRows(const float* const* rows, Float8Lanes (&out)[4]) noexcept {
        __m256 r[4];
        for (int i = 0; i < 4; ++i)
            r[i] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_load_ps(rows[i])),
                                        _mm_load_ps(rows[i + 4]), 1);
        transposeHalves(r);
        for (int j = 0; j < 4; ++j) out[j].v = r[j];
    }
    static void scatterRows(float* const* rows, unsigned lanes,
                            const Float8Lanes (&in)[4]) noexcept {
        __m256 r[4] = {in[0].v, in[1].v, in[2].v, in[3].v};
        transposeHalves(r);
        if (lanes == 0xFFu) [[likely]] { // eight bodies that move: no test per lane
            for (int i = 0; i < 4; ++i) {
                _mm_store_ps(rows[i], _mm256_castps256_ps128(r[i]));
                _mm_store_ps(rows[i + 4], _mm256_extractf128_ps(r[i], 1));
            }
            return;
        }
        for (int i = 0; i < 4; ++i) {
            if (((lanes >> i) & 1u) != 0) _mm_store_ps(rows[i], _mm256_castps256_ps128(r[i]));
            if (((lanes >> (i + 4)) & 1u) != 0)
                _mm_store_ps(rows[i + 4], _mm256_extractf128_ps(r[i], 1));
        }
    }

private:
    // _MM_TRANSPOSE4_PS in each 128-bit half.
    static void transposeHalves(__m256 (&r)[4]) noexcept {
        const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
        const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
        r[0] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
        r[1] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
        r[2] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
        r[3] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
    }
};

#if defined(__AVX512VL__) && defined(__AVX512DQ__)
using Float8 = Float8Lanes<Avx512Lanes>;
#else
using Float8 = Float8Lanes<Avx2Lanes>;
#endif

} // namespace rigid2d::detail
