#pragma once
// A shape placed in the world frame, as the narrow phase takes it: the world places its shapes
// (state/shape.hpp) and hands these over, so the narrow phase needs nothing of the world.

#include "rigid2d/math.hpp"
#include "rigid2d/types.hpp"

namespace rigid2d::detail {

/// A shape placed in the world: a circle centre and radius, or an axis-aligned box.
struct PlacedShape {
    ShapeType type = ShapeType::Circle;
    Vec2 center{};
    float radius = 0.0f;
    Vec2 halfExtents{};
};

[[nodiscard]] inline AABB boundsOf(const PlacedShape& shape) noexcept {
    const Vec2 extent =
        shape.type == ShapeType::Circle ? Vec2{shape.radius, shape.radius} : shape.halfExtents;
    return {shape.center - extent, shape.center + extent};
}

} // namespace rigid2d::detail
