#pragma once
/// Events the world gathers during a step; read them after `World::step` returns.

#include <span>

#include "rigid2d/ids.hpp"
#include "rigid2d/math.hpp"

namespace rigid2d {

/// Two shapes started touching (their manifold gained a point).
struct ContactBeginEvent {
    ShapeId shapeA;
    ShapeId shapeB;
};
/// Two shapes stopped touching, or one of them was destroyed.
struct ContactEndEvent {
    ShapeId shapeA;
    ShapeId shapeB;
};
/// Two shapes met with an approach speed of at least `WorldDef::hitEventThreshold`.
struct ContactHitEvent {
    ShapeId shapeA;
    ShapeId shapeB;
    Vec2 point{};          ///< m, world frame: the contact point as the step found it
    Vec2 normal{};         ///< from A to B
    float approachSpeed{}; ///< m/s, > 0
};
/// `visitorShape` started overlapping the sensor `sensorShape`.
struct SensorBeginEvent {
    ShapeId sensorShape;
    ShapeId visitorShape;
};
struct SensorEndEvent {
    ShapeId sensorShape;
    ShapeId visitorShape;
};

/// Views into the world's event buffers, valid until the next `step` or world change.
struct ContactEvents {
    std::span<const ContactBeginEvent> begin;
    std::span<const ContactEndEvent> end;
    std::span<const ContactHitEvent> hit;
};
struct SensorEvents {
    std::span<const SensorBeginEvent> begin;
    std::span<const SensorEndEvent> end;
};

} // namespace rigid2d
