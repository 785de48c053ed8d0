#pragma once
// A lane type: `width` floats processed together, what the wide solver's kernels are written over
// (wide_contact_kernels.hpp, wide_joint_kernels.hpp). Three exist: PortableLanes<N> below (plain
// arrays, any CPU), Float4 (SSE2, float4.hpp) and Float8 (AVX2 or AVX-512VL, float8.hpp). Every
// operation is one IEEE single-precision operation per lane, in the order written, and nothing ever
// combines lanes: so a lane computes the same bits whatever type or width carries it, and a wide
// solve can reproduce a scalar one bit for bit. max/min mirror std::max/std::min argument for
// argument (NaN and signed-zero cases included). A lane type has, as static members:
//
//   add, sub, mul, div, neg   what the operators + - * / and unary - below call
//   load(p), store(p, a)      aligned to the type's size; splat(x)
//   max(a, b), min(a, b)      std::max / std::min per lane
//   greater(a, b), notEqual(a, b)   lane masks (all ones or all zeros)
//   select(mask, a, b)        mask ? a : b per lane;  laneBits(mask): bit i = lane i's mask
//   maskOf(bits)              the mask whose lane i is set where bit i is
//   gatherRows(rows, out)     out[j] lane i = rows[i][j] for j < 4 (rows 16-byte aligned)
//   scatterRows(rows, lanes, in)   rows[i][j] = in[j] lane i, for the lanes whose bit is set

#include <concepts>
#include <cstdint>
#include <cstring>

#include "core/always_inline.hpp"

namespace rigid2d::detail {

/// N floats as a plain array: the reference semantics, and the path of a CPU without SSE2. Its
/// operations are force-inlined: otherwise the translation unit's inlining budget picks which
/// calls stay out of line, so an edit to any kernel there moves the others' cost by several %.
template <int N>
struct PortableLanes {
    static constexpr int width = N;
    float v[N];

    template <class Op>
    [[nodiscard]] static RIGID2D_ALWAYS_INLINE PortableLanes map(PortableLanes a, PortableLanes b,
                                                                 Op op) noexcept {
        PortableLanes r;
        for (int i = 0; i < N; ++i) r.v[i] = op(a.v[i], b.v[i]);
        return r;
    }
    [[nodiscard]] static RIGID2D_ALWAYS_INLINE float fromBits(std::uint32_t bits) noexcept {
        float f;
        std::memcpy(&f, &bits, sizeof f);
        return f;
    }
    [[nodiscard]] static RIGID2D_ALWAYS_INLINE std::uint32_t toBits(float f) noexcept {
        std::uint32_t bits;
        std::memcpy(&bits, &f, sizeof bits);
        return bits;
    }

    [[nodiscard]] static RIGID2D_ALWAYS_INLINE PortableLanes add(PortableLanes a,
                                                                 PortableLanes b) noexcept {
        return map(a, b, [](float x, float y) { return x + y; });
    }
    [[nodiscard]] static RIGID2D_ALWAYS_INLINE PortableLanes sub(PortableLanes a,
                                                                 PortableLanes b) noexcept {
        return map(a, b, [](float x, float y) { return x - y; });
    }
    [[nodiscard]] static RIGID2D_ALWAYS_INLINE PortableLanes mul(PortableLanes a,
                                                                 PortableLanes b) noexcept {
        return map(a, b, [](float x, float y) { return x * y; });
    }
    [[nodiscard]] static RIGID2D_ALWAYS_INLINE PortableLanes div(PortableLanes a,
                                                                 PortableLanes b) noexcept {
        return map(a, b, [](float x, float y) { return x / y; });
    }
    [[nodiscard]] static RIGID2D_ALWAYS_INLINE PortableLanes neg(PortableLanes a) noexcept {
        PortableLanes r;
        for (int i = 0; i < N; ++i) r.v[i] = -a.v[i];
        return r;
    }
    [[nodiscard]] static RIGID2D_ALWAYS_INLINE PortableLanes load(const float* p) noexcept {
        PortableLanes r;
        for (int i = 0; i < N; ++i) r.v[i] = p[i];
        return r;
    }
    static RIGID2D_ALWAYS_INLINE void store(float* p, PortableLanes a) noexcept {
        for (int i = 0; i < N; ++i) p[i] = a.v[i];
    }
    [[nodiscard]] static RIGID2D_ALWAYS_INLINE PortableLanes splat(float x) noexcept {
        PortableLanes r;
        for (int i = 0; i < N; ++i) r.v[i] = x;
        return r;
    }
    [[nodiscard]] static RIGID2D_ALWAYS_INLINE PortableLanes max(PortableLanes a,
                                                                 PortableLanes b) noexcept {
        return map(a, b, [](float x, float y) { return x < y ? y : x; });
    }
    [[nodiscard]] static RIGID2D_ALWAYS_INLINE PortableLanes min(PortableLanes a,
                                                                 PortableLanes b) noexcept {
        return map(a, b, [](float x, float y) { return y < x ? y : x; });
    }
    [[nodiscard]] static RIGID2D_ALWAYS_INLINE PortableLanes greater(PortableLanes a,
                                                                     PortableLanes b) noexcept {
        return map(a, b, [](float x, float y) { return fromBits(x > y ? ~0u : 0u); });
    }
    [[nodiscard]] static RIGID2D_ALWAYS_INLINE PortableLanes notEqual(PortableLanes a,
                                                                      PortableLanes b) noexcept {
        return map(a, b, [](float x, float y) { return fromBits(x != y ? ~0u : 0u); });
    }
    [[nodiscard]] static RIGID2D_ALWAYS_INLINE unsigned laneBits(PortableLanes mask) noexcept {
        unsigned bits = 0;
        for (int i = 0; i < N; ++i) bits |= (toBits(mask.v[i]) >> 31) << i;
        return bits;
    }
    /// Float4::opaque's counterpart: the bitwise select below is not folded into a division.
    [[nodiscard]] static RIGID2D_ALWAYS_INLINE PortableLanes opaque(PortableLanes a) noexcept {
        return a;
    }
    [[nodiscard]] static RIGID2D_ALWAYS_INLINE PortableLanes select(PortableLanes mask,
                                                                    PortableLanes a,
                                                                    PortableLanes b) noexcept {
        PortableLanes r;
        for (int i = 0; i < N; ++i) {
            const std::uint32_t m = toBits(mask.v[i]);
            r.v[i] = fromBits((m & toBits(a.v[i])) | (~m & toBits(b.v[i])));
        }
        return r;
    }
    [[nodiscard]] static RIGID2D_ALWAYS_INLINE PortableLanes maskOf(unsigned bits) noexcept {
        PortableLanes r;
        for (int i = 0; i < N; ++i) r.v[i] = fromBits(((bits >> i) & 1u) != 0 ? ~0u : 0u);
        return r;
    }
    static RIGID2D_ALWAYS_INLINE void gatherRows(const float* const* rows,
                                                 PortableLanes (&out)[4]) noexcept {
        for (int j = 0; j < 4; ++j)
            for (int i = 0; i < N; ++i) out[j].v[i] = rows[i][j];
    }
    static RIGID2D_ALWAYS_INLINE void scatterRows(float* const* rows, unsigned lanes,
                                                  const PortableLanes (&in)[4]) noexcept {
        for (int i = 0; i < N; ++i) {
            if (((lanes >> i) & 1u) == 0) continue;
            for (int j = 0; j < 4; ++j) rows[i][j] = in[j].v[i];
        }
    }
};

/// Any lane type: a struct with `width` and the static members the operators below forward to.
template <class F>
concept LaneType = requires(F a) {
    { F::width } -> std::convertible_to<int>;
    { F::add(a, a) } -> std::same_as<F>;
};

template <LaneType F>
[[nodiscard]] RIGID2D_ALWAYS_INLINE F operator+(F a, F b) noexcept {
    return F::add(a, b);
}
template <LaneType F>
[[nodiscard]] RIGID2D_ALWAYS_INLINE F operator-(F a, F b) noexcept {
    return F::sub(a, b);
}
template <LaneType F>
[[nodiscard]] RIGID2D_ALWAYS_INLINE F operator*(F a, F b) noexcept {
    return F::mul(a, b);
}
template <LaneType F>
[[nodiscard]] RIGID2D_ALWAYS_INLINE F operator/(F a, F b) noexcept {
    return F::div(a, b);
}
/// Flips the sign bit, exactly like scalar negation.
template <LaneType F>
[[nodiscard]] RIGID2D_ALWAYS_INLINE F operator-(F a) noexcept {
    return F::neg(a);
}

} // namespace rigid2d::detail
