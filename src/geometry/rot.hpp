#pragma once
// Rotations and rigid transforms, and the 2D cross and dot products every stage uses. The one
// place these live: narrow phase, solver and world all include this file.

#include <cmath>

#include "rigid2d/math.hpp"

namespace rigid2d::detail {

[[nodiscard]] inline float cross(Vec2 a, Vec2 b) noexcept { return a.x * b.y - a.y * b.x; }
/// w x r for an angular velocity w (out of the plane): the velocity of the point r.
[[nodiscard]] inline Vec2 cross(float w, Vec2 r) noexcept { return {-w * r.y, w * r.x}; }
/// v x s: the vector v turned clockwise and scaled by s.
[[nodiscard]] inline Vec2 cross(Vec2 v, float s) noexcept { return {s * v.y, -s * v.x}; }
[[nodiscard]] inline float dot(Vec2 a, Vec2 b) noexcept { return a.x * b.x + a.y * b.y; }

/// A rotation as cosine/sine, kept next to the angle so shapes need no trigonometry per use.
struct Rot {
    float c = 1.0f;
    float s = 0.0f;
};

[[nodiscard]] inline Rot makeRot(float angle) noexcept {
    return {std::cos(angle), std::sin(angle)};
}
[[nodiscard]] inline Vec2 rotate(Rot q, Vec2 v) noexcept {
    return {q.c * v.x - q.s * v.y, q.s * v.x + q.c * v.y};
}
/// The inverse rotation of v (from the world frame into q's frame).
[[nodiscard]] inline Vec2 invRotate(Rot q, Vec2 v) noexcept {
    return {q.c * v.x + q.s * v.y, -q.s * v.x + q.c * v.y};
}

/// A rigid placement: a point p of a body's frame is at q * p + this->p in the world.
struct Transform {
    Vec2 p{0.0f, 0.0f};
    Rot q{};
};

[[nodiscard]] inline Vec2 transformPoint(const Transform& t, Vec2 v) noexcept {
    return rotate(t.q, v) + t.p;
}
[[nodiscard]] inline Vec2 invTransformPoint(const Transform& t, Vec2 v) noexcept {
    return invRotate(t.q, v - t.p);
}

} // namespace rigid2d::detail
