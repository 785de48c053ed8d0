#pragma once
// Four floats processed together: SSE2 where available (every x86-64 CPU), else plain arrays with
// the same semantics, so the wide contact solver builds everywhere. Every operation is one IEEE
// single-precision operation per lane, in the order written; max/min mirror std::max/std::min
// argument for argument (NaN and signed-zero cases included), so a wide solve can reproduce a
// scalar one bit for bit.

#include <cstdint>
#include <cstring>

// RIGID2D_NO_SIMD forces the portable path (to test it on x86).
#if !defined(RIGID2D_NO_SIMD) &&                                                                   \
    (defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2))
#define RIGID2D_SSE2 1
#include <emmintrin.h>
#endif

// For the wide loops' small helpers: left out of line they pass Float4 structs through memory.
#if defined(__GNUC__) || defined(__clang__)
#define RIGID2D_ALWAYS_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define RIGID2D_ALWAYS_INLINE __forceinline
#else
#define RIGID2D_ALWAYS_INLINE inline
#endif

namespace rigid2d::detail {

#if RIGID2D_SSE2

struct Float4 {
    __m128 v;
};

[[nodiscard]] inline Float4 load4(const float* p) noexcept { return {_mm_load_ps(p)}; }
inline void store4(float* p, Float4 a) noexcept { _mm_store_ps(p, a.v); }
[[nodiscard]] inline Float4 loadUnaligned4(const float* p) noexcept { return {_mm_loadu_ps(p)}; }
inline void storeUnaligned4(float* p, Float4 a) noexcept { _mm_storeu_ps(p, a.v); }
[[nodiscard]] inline Float4 splat4(float x) noexcept { return {_mm_set1_ps(x)}; }
[[nodiscard]] inline Float4 operator+(Float4 a, Float4 b) noexcept {
    return {_mm_add_ps(a.v, b.v)};
}
[[nodiscard]] inline Float4 operator-(Float4 a, Float4 b) noexcept {
    return {_mm_sub_ps(a.v, b.v)};
}
[[nodiscard]] inline Float4 operator*(Float4 a, Float4 b) noexcept {
    return {_mm_mul_ps(a.v, b.v)};
}
/// a / b, one IEEE division per lane.
[[nodiscard]] inline Float4 operator/(Float4 a, Float4 b) noexcept {
    return {_mm_div_ps(a.v, b.v)};
}
/// -a: flips the sign bit, exactly like scalar negation.
[[nodiscard]] inline Float4 operator-(Float4 a) noexcept {
    return {_mm_xor_ps(a.v, _mm_set1_ps(-0.0f))};
}
/// std::max(a, b): (a < b) ? b : a.
[[nodiscard]] inline Float4 max4(Float4 a, Float4 b) noexcept { return {_mm_max_ps(b.v, a.v)}; }
/// std::min(a, b): (b < a) ? b : a.
[[nodiscard]] inline Float4 min4(Float4 a, Float4 b) noexcept { return {_mm_min_ps(b.v, a.v)}; }
/// Lane mask of a > b.
[[nodiscard]] inline Float4 greater4(Float4 a, Float4 b) noexcept {
    return {_mm_cmpgt_ps(a.v, b.v)};
}
/// Lane mask of a != b (true where either is NaN).
[[nodiscard]] inline Float4 notEqual4(Float4 a, Float4 b) noexcept {
    return {_mm_cmpneq_ps(a.v, b.v)};
}
/// Bit i set where lane i of the mask is set (its sign bit).
[[nodiscard]] inline unsigned laneBits4(Float4 mask) noexcept {
    return static_cast<unsigned>(_mm_movemask_ps(mask.v));
}
/// mask ? a : b per lane; mask lanes are all ones or all zeros.
[[nodiscard]] inline Float4 select4(Float4 mask, Float4 a, Float4 b) noexcept {
    return {_mm_or_ps(_mm_and_ps(mask.v, a.v), _mm_andnot_ps(mask.v, b.v))};
}
/// Rows r0..r3 become columns: afterwards r0 holds element 0 of each input row, and so on.
inline void transpose4(Float4& r0, Float4& r1, Float4& r2, Float4& r3) noexcept {
    _MM_TRANSPOSE4_PS(r0.v, r1.v, r2.v, r3.v);
}

#else

struct Float4 {
    float v[4];
};

namespace float4_detail {
template <class F>
[[nodiscard]] inline Float4 map(Float4 a, Float4 b, F f) noexcept {
    return {{f(a.v[0], b.v[0]), f(a.v[1], b.v[1]), f(a.v[2], b.v[2]), f(a.v[3], b.v[3])}};
}
} // namespace float4_detail

[[nodiscard]] inline Float4 load4(const float* p) noexcept { return {{p[0], p[1], p[2], p[3]}}; }
inline void store4(float* p, Float4 a) noexcept {
    for (int i = 0; i < 4; ++i) p[i] = a.v[i];
}
[[nodiscard]] inline Float4 loadUnaligned4(const float* p) noexcept { return load4(p); }
inline void storeUnaligned4(float* p, Float4 a) noexcept { store4(p, a); }
[[nodiscard]] inline Float4 splat4(float x) noexcept { return {{x, x, x, x}}; }
[[nodiscard]] inline Float4 operator+(Float4 a, Float4 b) noexcept {
    return float4_detail::map(a, b, [](float x, float y) { return x + y; });
}
[[nodiscard]] inline Float4 operator-(Float4 a, Float4 b) noexcept {
    return float4_detail::map(a, b, [](float x, float y) { return x - y; });
}
[[nodiscard]] inline Float4 operator*(Float4 a, Float4 b) noexcept {
    return float4_detail::map(a, b, [](float x, float y) { return x * y; });
}
[[nodiscard]] inline Float4 operator/(Float4 a, Float4 b) noexcept {
    return float4_detail::map(a, b, [](float x, float y) { return x / y; });
}
[[nodiscard]] inline Float4 operator-(Float4 a) noexcept {
    return {{-a.v[0], -a.v[1], -a.v[2], -a.v[3]}};
}
[[nodiscard]] inline Float4 max4(Float4 a, Float4 b) noexcept {
    return float4_detail::map(a, b, [](float x, float y) { return x < y ? y : x; });
}
[[nodiscard]] inline Float4 min4(Float4 a, Float4 b) noexcept {
    return float4_detail::map(a, b, [](float x, float y) { return y < x ? y : x; });
}
namespace float4_detail {
template <class F>
[[nodiscard]] inline Float4 mask(Float4 a, Float4 b, F f) noexcept {
    Float4 r;
    for (int i = 0; i < 4; ++i) {
        const std::uint32_t bits = f(a.v[i], b.v[i]) ? ~0u : 0u;
        std::memcpy(&r.v[i], &bits, sizeof bits);
    }
    return r;
}
} // namespace float4_detail
[[nodiscard]] inline Float4 greater4(Float4 a, Float4 b) noexcept {
    return float4_detail::mask(a, b, [](float x, float y) { return x > y; });
}
[[nodiscard]] inline Float4 notEqual4(Float4 a, Float4 b) noexcept {
    return float4_detail::mask(a, b, [](float x, float y) { return x != y; });
}
[[nodiscard]] inline unsigned laneBits4(Float4 mask) noexcept {
    unsigned bits = 0;
    for (int i = 0; i < 4; ++i) {
        std::uint32_t m;
        std::memcpy(&m, &mask.v[i], sizeof m);
        bits |= (m >> 31) << i;
    }
    return bits;
}
[[nodiscard]] inline Float4 select4(Float4 mask, Float4 a, Float4 b) noexcept {
    Float4 r;
    for (int i = 0; i < 4; ++i) {
        std::uint32_t m, x, y;
        std::memcpy(&m, &mask.v[i], sizeof m);
        std::memcpy(&x, &a.v[i], sizeof x);
        std::memcpy(&y, &b.v[i], sizeof y);
        const std::uint32_t bits = (m & x) | (~m & y);
        std::memcpy(&r.v[i], &bits, sizeof bits);
    }
    return r;
}
inline void transpose4(Float4& r0, Float4& r1, Float4& r2, Float4& r3) noexcept {
    Float4* rows[4] = {&r0, &r1, &r2, &r3};
    float m[4][4];
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) m[j][i] = rows[i]->v[j];
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) rows[i]->v[j] = m[i][j];
}

#endif

} // namespace rigid2d::detail
