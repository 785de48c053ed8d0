#pragma once
// Four floats in an SSE2 register (every x86-64 CPU), a lane type as lanes.hpp describes. Where
// SSE2 is missing, or RIGID2D_NO_SIMD asks for it, RIGID2D_SSE2 is left undefined and the solver
// has only its portable path.

#include "solver/lanes.hpp"

#if !defined(RIGID2D_NO_SIMD) &&                                                                   \
    (defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2))
#define RIGID2D_SSE2 1
#include <emmintrin.h>
#endif

namespace rigid2d::detail {

#if RIGID2D_SSE2

struct Float4 {
    static constexpr int width = 4;
    __m128 v;

    [[nodiscard]] static Float4 add(Float4 a, Float4 b) noexcept { return {_mm_add_ps(a.v, b.v)}; }
    [[nodiscard]] static Float4 sub(Float4 a, Float4 b) noexcept { return {_mm_sub_ps(a.v, b.v)}; }
    [[nodiscard]] static Float4 mul(Float4 a, Float4 b) noexcept { return {_mm_mul_ps(a.v, b.v)}; }
    [[nodiscard]] static Float4 div(Float4 a, Float4 b) noexcept { return {_mm_div_ps(a.v, b.v)}; }
    [[nodiscard]] static Float4 neg(Float4 a) noexcept {
        return {_mm_xor_ps(a.v, _mm_set1_ps(-0.0f))};
    }
    [[nodiscard]] static Float4 load(const float* p) noexcept { return {_mm_load_ps(p)}; }
    static void store(float* p, Float4 a) noexcept { _mm_store_ps(p, a.v); }
    [[nodiscard]] static Float4 splat(float x) noexcept { return {_mm_set1_ps(x)}; }
    /// std::max(a, b): (a < b) ? b : a.
    [[nodiscard]] static Float4 max(Float4 a, Float4 b) noexcept { return {_mm_max_ps(b.v, a.v)}; }
    /// std::min(a, b): (b < a) ? b : a.
    [[nodiscard]] static Float4 min(Float4 a, Float4 b) noexcept { return {_mm_min_ps(b.v, a.v)}; }
    [[nodiscard]] static Float4 greater(Float4 a, Float4 b) noexcept {
        return {_mm_cmpgt_ps(a.v, b.v)};
    }
    /// True where either is NaN.
    [[nodiscard]] static Float4 notEqual(Float4 a, Float4 b) noexcept {
        return {_mm_cmpneq_ps(a.v, b.v)};
    }
    [[nodiscard]] static unsigned laneBits(Float4 mask) noexcept {
        return static_cast<unsigned>(_mm_movemask_ps(mask.v));
    }
    /// `a`, as a value the optimiser cannot see through: a division of lanes a select made safe
    /// then stays after the select (folded into it, the division of every lane would raise
    /// divide-by-zero where floating-point traps are on).
    [[nodiscard]] static Float4 opaque(Float4 a) noexcept {
        asm("" : "+x"(a.v));
        return a;
    }
    [[nodiscard]] static Float4 select(Float4 mask, Float4 a, Float4 b) noexcept {
        return {_mm_or_ps(_mm_and_ps(mask.v, a.v), _mm_andnot_ps(mask.v, b.v))};
    }
    [[nodiscard]] static Float4 maskOf(unsigned bits) noexcept {
        const __m128i bit = _mm_setr_epi32(1, 2, 4, 8);
        const __m128i set = _mm_and_si128(_mm_set1_epi32(static_cast<int>(bits)), bit);
        return {_mm_castsi128_ps(_mm_cmpeq_epi32(set, bit))};
    }
    static void gatherRows(const float* const* rows, Float4 (&out)[4]) noexcept {
        for (int i = 0; i < 4; ++i) out[i].v = _mm_load_ps(rows[i]);
        _MM_TRANSPOSE4_PS(out[0].v, out[1].v, out[2].v, out[3].v);
    }
    static void scatterRows(float* const* rows, unsigned lanes, const Float4 (&in)[4]) noexcept {
        __m128 r0 = in[0].v, r1 = in[1].v, r2 = in[2].v, r3 = in[3].v;
        _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
        if (lanes == 0xFu) [[likely]] { // four bodies that move: no test per lane
            _mm_store_ps(rows[0], r0);
            _mm_store_ps(rows[1], r1);
            _mm_store_ps(rows[2], r2);
            _mm_store_ps(rows[3], r3);
            return;
        }
        if ((lanes & 1u) != 0) _mm_store_ps(rows[0], r0);
        if ((lanes & 2u) != 0) _mm_store_ps(rows[1], r1);
        if ((lanes & 4u) != 0) _mm_store_ps(rows[2], r2);
        if ((lanes & 8u) != 0) _mm_store_ps(rows[3], r3);
    }
};

#endif

} // namespace rigid2d::detail
