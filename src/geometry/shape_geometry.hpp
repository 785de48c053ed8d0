#pragma once
// A shape of any kind in its body's frame, as the narrow phase and the shape queries take it.
// Boxes, polygons, capsules and segments are all held as polygons (a capsule is a two-vertex
// polygon rounded by its radius, a segment one of radius 0), so one routine per operation serves
// every kind with corners; `type` keeps the kind for the dispatch tables.

#include "geometry/rot.hpp"
#include "rigid2d/math.hpp"
#include "rigid2d/types.hpp"

namespace rigid2d::detail {

struct ShapeGeometry {
    ShapeType type = ShapeType::Circle;
    Circle circle{};   ///< the shape when type is Circle
    Polygon polygon{}; ///< the shape for every other type
    /// ChainSegment only: the chain's points before vertex 0 and after vertex 1 (ghost vertices).
    Vec2 ghost1{}, ghost2{};
};

/// A capsule as a rounded polygon of two vertices (center1, center2) and two opposite normals
/// (normal 0 is the edge direction turned clockwise). center1 != center2.
[[nodiscard]] Polygon makeCapsulePolygon(const Capsule& capsule) noexcept;
/// A box polygon, unchecked (makeBox checks its arguments first): corners counter-clockwise from
/// (-x, -y), turned by `q` about the centre.
[[nodiscard]] Polygon makeBoxPolygon(Vec2 halfExtents, Vec2 center, Rot q) noexcept;
/// A segment as a capsule of radius 0.
[[nodiscard]] Polygon makeSegmentPolygon(const Segment& segment) noexcept;

/// The geometry of a shape that the world has already validated (makeBox checks again and may
/// throw for a box no validated shape can be).
[[nodiscard]] ShapeGeometry makeGeometry(const Circle& circle) noexcept;
[[nodiscard]] ShapeGeometry makeGeometry(const Box& box);
[[nodiscard]] ShapeGeometry makeGeometry(const Polygon& polygon) noexcept;
[[nodiscard]] ShapeGeometry makeGeometry(const Capsule& capsule) noexcept;
[[nodiscard]] ShapeGeometry makeGeometry(const Segment& segment) noexcept;
[[nodiscard]] ShapeGeometry makeGeometry(const ChainSegment& link) noexcept;

/// The tight world-frame box of the shape placed by `xf` (rounding included).
[[nodiscard]] AABB boundsOf(const ShapeGeometry& shape, const Transform& xf) noexcept;
[[nodiscard]] AABB boundsOf(const Polygon& polygon, const Transform& xf) noexcept;
/// The same from every vertex in turn, what boundsOf's shortcut for a polygon centred on its
/// frame's origin must equal bit for bit.
[[nodiscard]] AABB boundsOfVertices(const Polygon& polygon, const Transform& xf) noexcept;

} // namespace rigid2d::detail
