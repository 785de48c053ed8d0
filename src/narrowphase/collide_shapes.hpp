#pragma once
// The manifold of any two shapes, each in its body's frame placed by a transform: one entry per
// pair of kinds in one [ShapeType][ShapeType] table (collide_shapes.cpp). Every kind with corners
// is a polygon (geometry/shape_geometry.hpp), so the table needs only these routines:
//
//   circle  - circle   collideCircles
//   polygon - circle   collidePolygonCircle    (box, polygon, capsule or segment on either side)
//   circle  - polygon  collideCirclePolygon
//   polygon - polygon  collidePolygons         (separating axis, reference face clipping)
//
//   chain link - circle   collideChainSegmentCircle   (collide_chain.hpp: one-sided, smooth)
//   chain link - polygon  collideChainSegmentPolygon  (and both the other way round)
//
// except segment or chain link against segment or chain link, which has no contact: they have
// no area and only ever hold static ground, so two of them never need to be pushed apart.

#include "geometry/rot.hpp"
#include "geometry/shape_geometry.hpp"
#include "narrowphase/manifold.hpp"

namespace rigid2d::detail {

/// Normal from A to B in the world frame, at most two points midway between the surfaces with
/// their separation (negative = overlap) and a feature id that stays while the same features
/// touch; points separated by more than `speculativeDistance` are dropped.
using ShapeCollideFunction = Manifold (*)(const ShapeGeometry& a, const Transform& xfA,
                                          const ShapeGeometry& b, const Transform& xfB,
                                          float speculativeDistance);

/// Two circles: one point on the line of centres (id 0). Concentric circles push along +y of
/// the world frame, a fixed choice so the result is the same on every run.
[[nodiscard]] Manifold collideCircles(const Circle& a, const Transform& xfA, const Circle& b,
                                      const Transform& xfB, float speculativeDistance) noexcept;

/// The manifold of A and B, from the table entry of their kinds.
[[nodiscard]] Manifold collideShapes(const ShapeGeometry& a, const Transform& xfA,
                                     const ShapeGeometry& b, const Transform& xfB,
                                     float speculativeDistance) noexcept;

} // namespace rigid2d::detail
