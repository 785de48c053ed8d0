#pragma once
/// Math types of the public API: GLM vectors and an axis-aligned box with closed-interval overlap.

#include <bit>
#include <cmath>
#include <cstdint>

#include <glm/vec2.hpp>

namespace rigid2d {

/// A 2D vector in metres (positions), metres per second (velocities) or newtons (forces).
using Vec2 = glm::vec2;

/// An axis-aligned box. Valid when every coordinate is finite and lower <= upper on both axes.
/// Zero-width boxes are valid; overlap tests use closed intervals, so touching boxes overlap.
struct AABB {
    Vec2 lower{0.0f, 0.0f};
    Vec2 upper{0.0f, 0.0f};
};

/// A test of the exponent bits, not a comparison: a signalling NaN is refused without raising
/// the invalid flag (which a program running with float traps would stop on).
[[nodiscard]] inline bool isFinite(float x) noexcept {
    return (std::bit_cast<std::uint32_t>(x) & 0x7f800000u) != 0x7f800000u;
}
[[nodiscard]] inline bool isFinite(Vec2 v) noexcept { return isFinite(v.x) && isFinite(v.y); }

/// True when both corners are finite and lower <= upper on both axes.
[[nodiscard]] inline bool isValid(const AABB& box) noexcept {
    return isFinite(box.lower) && isFinite(box.upper) && box.lower.x <= box.upper.x &&
           box.lower.y <= box.upper.y;
}

/// Closed-interval overlap: boxes that share only an edge or a corner overlap.
[[nodiscard]] inline bool overlaps(const AABB& a, const AABB& b) noexcept {
    return a.lower.x <= b.upper.x && b.lower.x <= a.upper.x && a.lower.y <= b.upper.y &&
           b.lower.y <= a.upper.y;
}

/// True when `inner` lies entirely inside `outer` (closed).
[[nodiscard]] inline bool contains(const AABB& outer, const AABB& inner) noexcept {
    return outer.lower.x <= inner.lower.x && outer.lower.y <= inner.lower.y &&
           inner.upper.x <= outer.upper.x && inner.upper.y <= outer.upper.y;
}

[[nodiscard]] inline AABB combine(const AABB& a, const AABB& b) noexcept {
    return {{std::fmin(a.lower.x, b.lower.x), std::fmin(a.lower.y, b.lower.y)},
            {std::fmax(a.upper.x, b.upper.x), std::fmax(a.upper.y, b.upper.y)}};
}

/// Grows the box by `margin` on every side.
[[nodiscard]] inline AABB fatten(const AABB& box, float margin) noexcept {
    return {{box.lower.x - margin, box.lower.y - margin},
            {box.upper.x + margin, box.upper.y + margin}};
}

[[nodiscard]] inline float perimeter(const AABB& box) noexcept {
    return 2.0f * ((box.upper.x - box.lower.x) + (box.upper.y - box.lower.y));
}

[[nodiscard]] inline Vec2 center(const AABB& box) noexcept {
    return 0.5f * (box.lower + box.upper);
}
[[nodiscard]] inline Vec2 extents(const AABB& box) noexcept {
    return 0.5f * (box.upper - box.lower);
}

[[nodiscard]] inline bool operator==(const AABB& a, const AABB& b) noexcept {
    return a.lower == b.lower && a.upper == b.upper;
}

} // namespace rigid2d
