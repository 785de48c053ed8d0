#pragma once
// Contacts of a chain's link: a segment that collides on its right-hand side only (where its
// normal points) and that knows its neighbours through its ghost vertices, so that a body sliding
// along the chain does not catch on the joins.
//
// One-sided: a shape whose centre is behind the link's line gets no contact from it (it passes
// through from behind). Smooth: a contact normal that leans towards a join is judged by the join:
//
//   join convex (a crest, seen from the front): normals between the two links' normals belong
//       to the corner and are kept (a ball rolls over the crest);
//   anything else (leaning past the neighbour's normal, or towards a valley, where the neighbour
//       faces the body too): the link pushes along its own normal only, the contact rebuilt on its
//       face and limited to its own stretch, so a body beyond its end gets nothing from it.
//   Circles: beyond an end, a centre over the neighbour's face is the neighbour's contact alone.
//
// A box sliding over a flat join therefore never sees the next link's end as a wall: the normal
// that would push it back is not admitted, and the link pushes it up instead.

#include "geometry/rot.hpp"
#include "geometry/shape_geometry.hpp"
#include "narrowphase/manifold.hpp"

namespace rigid2d::detail {

/// A chain link (A, type ChainSegment) against a circle (B); normal from A to B.
[[nodiscard]] Manifold collideChainSegmentCircle(const ShapeGeometry& link, const Transform& xfA,
                                                 const Circle& circle, const Transform& xfB,
                                                 float speculativeDistance) noexcept;

/// A chain link (A) against a polygon (B: a box, polygon or capsule, rounded or not).
[[nodiscard]] Manifold collideChainSegmentPolygon(const ShapeGeometry& link, const Transform& xfA,
                                                  const Polygon& polygon, const Transform& xfB,
                                                  float speculativeDistance) noexcept;

} // namespace rigid2d::detail
