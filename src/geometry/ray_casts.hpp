#pragma once
// Exact segment ("ray") casts at every kind of shape: origin + t * translation for t in
// [0, maxFraction], first point of the surface reached, its outward normal and t. The conventions
// of castSegmentAtCircle (shape_queries.hpp) hold throughout: a cast that starts inside (or on) a
// solid shape does not hit it, so a body can cast out of itself, and a zero translation never hits.

#include "geometry/rot.hpp"
#include "geometry/shape_geometry.hpp"
#include "geometry/shape_queries.hpp"

namespace rigid2d::detail {

/// At a convex polygon rounded by its radius, in the polygon's frame. Two vertices make a capsule,
/// or with radius 0 a segment (castSegmentAtSegment).
[[nodiscard]] bool castSegmentAtPolygon(const Polygon& polygon, Vec2 origin, Vec2 translation,
                                        float maxFraction, SegmentHit& hit) noexcept;

/// At a segment p1-p2, from either side; the normal faces the cast's origin. A cast along the
/// segment's line does not hit it.
[[nodiscard]] bool castSegmentAtSegment(Vec2 p1, Vec2 p2, Vec2 origin, Vec2 translation,
                                        float maxFraction, SegmentHit& hit) noexcept;

/// At a shape of any kind placed by `xf`; origin, translation and the hit in the world frame. A
/// chain link is hit only from its front (a cast starting behind its line passes through).
[[nodiscard]] bool castSegmentAtShape(const ShapeGeometry& shape, const Transform& xf, Vec2 origin,
                                      Vec2 translation, float maxFraction,
                                      SegmentHit& hit) noexcept;

} // namespace rigid2d::detail
