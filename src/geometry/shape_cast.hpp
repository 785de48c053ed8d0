#pragma once
// Sweeping one shape through another without turning, and testing two shapes for overlap: what a
// character controller asks of the world (World::castShape / overlapShape, wired in later), and
// what continuous collision asks of a pair.

#include "geometry/distance.hpp"
#include "geometry/shape_queries.hpp"

namespace rigid2d::detail {

/// Closed overlap of the rounded shapes (touching counts).
[[nodiscard]] bool shapesOverlap(const DistanceProxy& a, const Transform& xfA,
                                 const DistanceProxy& b, const Transform& xfB) noexcept;

/// Surfaces closer than this count as touching when a cast stops, m: the cast ends within it of
/// the contact, on the near side.
inline constexpr float kShapeCastTolerance = 1e-4f;

/// Steps of the cast before it gives up (a pass grazing A at a distance near the tolerance).
inline constexpr int kMaxShapeCastIterations = 30;

/// B moves by t * translation (t in [0, maxFraction]) without turning; A stays. On a hit: the
/// first t at which the surfaces touch (to within kShapeCastTolerance, never past the touch),
/// the touching point on A's surface, and A's outward normal there (towards B). Shapes that
/// overlap at t = 0 do not hit, like a segment cast that starts inside (shapesOverlap tells them
/// apart), and neither does a zero translation.
[[nodiscard]] bool castShape(const DistanceProxy& a, const Transform& xfA, const DistanceProxy& b,
                             const Transform& xfB, Vec2 translation, float maxFraction,
                             SegmentHit& hit) noexcept;

} // namespace rigid2d::detail
