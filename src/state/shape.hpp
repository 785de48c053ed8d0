#pragma once
// A shape as the world stores it, and its geometry in the world. Three families:
//   circles       centre in the body frame, turning with the body;
//   Box           an axis-aligned box in the WORLD frame at body position + centre, whatever the
//                 body angle (only on bodies that do not turn): the narrow phase's fast path;
//   polygonal     polygons, turning boxes, capsules and segments, held as a body-frame polygon
//                 (a capsule or segment has two vertices), turning with the body.

#include <cstddef>
#include <cstdint>

#include "geometry/shape_geometry.hpp"
#include "narrowphase/placed_shape.hpp"
#include "rigid2d/broad_phase.hpp"
#include "rigid2d/math.hpp"
#include "rigid2d/types.hpp"
#include "state/body.hpp"

namespace rigid2d::detail {

struct alignas(64) Shape {
    // The first 64 bytes hold what the narrow phase and the refit read of a shape for every
    // contact or moved shape (kind, proxy, geometry of circles and boxes, bounds, list link), and
    // the slots start on cache lines: one line per shape where these fields, spread over the
    // record, took two or three (worth the 40 bytes of padding a shape: the narrow phase waits on
    // memory more than it computes).
    bool live = false;
    ShapeType type = ShapeType::Circle;
    bool isSensor = false;
    // Proxy was moved (or inserted) since the last pair search: find its new pairs.
    bool moved = false;
    ProxyId proxy = ProxyId::Null;

    Vec2 center{};       ///< body frame (circle) / offset from the body origin (box)
    float radius = 0.0f; ///< circle
    Vec2 halfExtents{};  ///< box

    AABB fatBox{};
    /// The shape's bounds where its body is now (shapeBounds): set wherever a body is placed and
    /// by every step's refit, so the narrow phase can skip pairs too far apart to touch.
    AABB tightBox{};
    std::uint32_t nextInBody = kNullIndex;

    /// Polygonal kinds only, body frame. Next to the first line: with the fields below, the
    /// polygon's count and radius end the fourth line, so a polygonal shape's narrow phase and
    /// refit read four lines (kShapeReadBytes), not all five.
    Polygon polygon{};

    std::uint32_t body = kNullIndex; ///< a contact holds it too (Contact::edges)
    std::uint32_t generation = 0;
    bool enableSensorEvents = true;
    bool enableContactEvents = true;
    bool enableHitEvents = true;
    float density = 0.0f, friction = 0.0f, restitution = 0.0f;
    Filter filter{};
    std::uint64_t userData = 0;

    ProxyId staticProxy = ProxyId::Null; ///< in WorldState::staticShapes (static, not a sensor)

    /// A chain's link only: the chain's slot and the link's ghost vertices (body frame).
    std::uint32_t chain = kNullIndex;
    Vec2 ghost1{}, ghost2{};
};

/// The bytes of a shape that the narrow phase, the refit and the filter test read, for any kind
/// but a chain link (whose ghosts lie past them): what to fetch ahead.
inline constexpr std::size_t kShapeReadBytes = 4 * 64;
static_assert(offsetof(Shape, polygon) == 64 &&
              offsetof(Shape, filter) + sizeof(Filter) <= kShapeReadBytes);

/// Polygons, capsules, segments and chain links: held as `Shape::polygon` and collided through
/// the ShapeGeometry table; circles and axis-aligned boxes keep their own placed-shape path.
[[nodiscard]] constexpr bool isPolygonal(ShapeType type) noexcept {
    return type == ShapeType::Polygon || type == ShapeType::Capsule || type == ShapeType::Segment ||
           type == ShapeType::ChainSegment;
}

/// Kinds whose contacts are plain polygon manifolds of the stored polygon: polygons (turning
/// boxes too), capsules and segments. Chain links need their ghosts, axis-aligned boxes a polygon
/// built for them.
[[nodiscard]] constexpr bool collidesAsPolygon(ShapeType type) noexcept {
    return type == ShapeType::Polygon || type == ShapeType::Capsule || type == ShapeType::Segment;
}

/// Segments and chain links: no area, so no mass, and only on bodies that are not dynamic.
[[nodiscard]] constexpr bool hasNoArea(ShapeType type) noexcept {
    return type == ShapeType::Segment || type == ShapeType::ChainSegment;
}

/// An axis-aligned box (ShapeType::Box) as a polygon in the frame transformOf places it.
[[nodiscard]] inline Polygon boxPolygonOf(const Shape& box) noexcept {
    return makeBoxPolygon(box.halfExtents, box.center, Rot{});
}

/// The shape as the ShapeGeometry routines take it (body frame; an axis-aligned box in the world
/// axes around its centre offset).
[[nodiscard]] inline ShapeGeometry geometryOf(const Shape& shape) noexcept {
    ShapeGeometry g;
    g.type = shape.type;
    if (shape.type == ShapeType::Circle) {
        g.circle = Circle{shape.center, shape.radius};
    } else if (shape.type == ShapeType::Box) {
        g.polygon = boxPolygonOf(shape);
    } else {
        g.polygon = shape.polygon;
        g.ghost1 = shape.ghost1;
        g.ghost2 = shape.ghost2;
    }
    return g;
}

/// Where geometryOf's frame sits: the body's transform, without its rotation for an axis-aligned
/// box.
[[nodiscard]] inline Transform transformOf(const Shape& shape, const Body& body) noexcept {
    return {body.position, shape.type == ShapeType::Box ? Rot{} : body.rot};
}

[[nodiscard]] inline PlacedShape placeShape(const Shape& shape, const Body& body) noexcept {
    PlacedShape placed;
    placed.type = shape.type;
    if (shape.type == ShapeType::Circle) {
        placed.center = body.position + rotate(body.rot, shape.center);
        placed.radius = shape.radius;
    } else {
        placed.center = body.position + shape.center;
        placed.halfExtents = shape.halfExtents;
    }
    return placed;
}

// The smallest distance from the shape's centre to its surface: how far the body may move in one
// step before the continuous pass has to look (a segment has none).
[[nodiscard]] inline float shapeInnerExtent(const Shape& shape) noexcept {
    switch (shape.type) {
    case ShapeType::Circle: return shape.radius;
    case ShapeType::Box: return std::min(shape.halfExtents.x, shape.halfExtents.y);
    case ShapeType::Segment:
    case ShapeType::ChainSegment: return 0.0f;
    case ShapeType::Capsule: return shape.polygon.radius;
    case ShapeType::Polygon: break;
    }
    const Polygon& p = shape.polygon;
    float inner = kMaxShapeSize;
    for (int i = 0; i < p.count; ++i)
        inner = std::min(inner, dot(p.normals[i], p.vertices[i] - p.centroid));
    return std::max(inner, 0.0f) + p.radius;
}

/// The tight world-frame box of the shape on its body.
[[nodiscard]] inline AABB shapeBounds(const Shape& shape, const Body& body) noexcept {
    if (!isPolygonal(shape.type)) return boundsOf(placeShape(shape, body));
    return boundsOf(shape.polygon, transformOf(shape, body)); // no copy of the polygon
}

} // namespace rigid2d::detail
