#pragma once
// Exact tests of one world-frame shape: segment casts and region overlap. They serve
// World::castRay / queryAABB after the broad phase, and continuous collision (time_of_impact.hpp).
// World-frame shapes: a circle is a centre and radius; a box is an AABB (boxes never rotate).

#include "rigid2d/math.hpp"

namespace rigid2d::detail {

/// Result of casting the segment origin + t * translation, t in [0, maxFraction], at a shape.
struct SegmentHit {
    Vec2 point{};       ///< first point of the shape's surface the segment reaches
    Vec2 normal{};      ///< unit outward surface normal there
    float fraction = 0; ///< t of the hit
};

/// Casts a segment at a solid circle. A segment starting inside (or on) the circle does not hit,
/// like Box2D, so a body can cast out of itself. Returns false when there is no hit within
/// maxFraction or the translation is zero.
[[nodiscard]] bool castSegmentAtCircle(Vec2 center, float radius, Vec2 origin, Vec2 translation,
                                       float maxFraction, SegmentHit& hit) noexcept;
/// Casts a segment at a solid axis-aligned box; same conventions as castSegmentAtCircle. The
/// normal of a corner hit is the normal of the face crossed last (the slab entered last).
[[nodiscard]] bool castSegmentAtBox(const AABB& box, Vec2 origin, Vec2 translation,
                                    float maxFraction, SegmentHit& hit) noexcept;

/// Closed overlap of a circle and a box (touching counts).
[[nodiscard]] bool circleOverlapsBox(Vec2 center, float radius, const AABB& box) noexcept;

} // namespace rigid2d::detail
