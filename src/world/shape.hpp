#pragma once
// A shape as the world stores it, plus its world-frame geometry. Boxes stay axis-aligned in the
// WORLD frame whatever the body angle; circle centres turn with the body.

#include <cstdint>

#include "narrowphase/placed_shape.hpp"
#include "rigid2d/broad_phase.hpp"
#include "rigid2d/math.hpp"
#include "rigid2d/types.hpp"
#include "world/body.hpp"

namespace rigid2d::detail {

struct Shape {
    std::uint32_t generation = 0;
    bool live = false;
    ShapeType type = ShapeType::Circle;
    bool isSensor = false;
    bool enableSensorEvents = true;
    bool enableContactEvents = true;
    bool enableHitEvents = true;
    // Proxy was moved (or inserted) since the last pair search: find its new pairs.
    bool moved = false;

    std::uint32_t body = kNullIndex;
    std::uint32_t nextInBody = kNullIndex;

    Vec2 center{};       ///< body frame (circle) / offset from the body origin (box)
    float radius = 0.0f; ///< circle
    Vec2 halfExtents{};  ///< box

    float density = 0.0f, friction = 0.0f, restitution = 0.0f;
    Filter filter{};
    std::uint64_t userData = 0;

    ProxyId proxy = ProxyId::Null;
    AABB fatBox{};
};

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

} // namespace rigid2d::detail
