#pragma once
/// Joints: constraints between two bodies (or, for the mouse joint, between a body and a moving
/// target), solved inside the soft step beside the contacts. Anchors and axes are given in the
/// world frame where the bodies are when the joint is made, as Box2D 2.4's `Initialize` takes
/// them; the world keeps them in each body's frame from then on.

#include <cstdint>
#include <optional>

#include "rigid2d/ids.hpp"
#include "rigid2d/math.hpp"

namespace rigid2d {

enum class JointType : std::uint8_t { Revolute, Distance, Prismatic, Weld, Wheel, Mouse };

/// Limits on joint settings, so that everything the solver derives from them stays a finite float.
inline constexpr float kMaxJointReach = 1e8f; ///< m: an anchor's or target's distance from its body
inline constexpr float kMaxJointSpeed = 1e9f; ///< m/s or rad/s: a motor's speed
inline constexpr float kMaxJointForce = 1e30f; ///< N or N m: a motor's or mouse joint's force
inline constexpr float kMaxJointRange = 1e8f;  ///< m or rad: a limit or length
/// m: shortest length a distance joint holds (shorter ones are raised to it): at zero length the
/// direction it pushes along is undefined (a revolute joint is what holds two anchors together).
inline constexpr float kMinJointLength = 0.005f;

/// What every two-body joint has. The bodies must be live, different and not both static.
struct JointDef {
    BodyId bodyA;
    BodyId bodyB;
    /// false: the two bodies do not collide with each other while the joint exists (a ragdoll's
    /// limbs overlap at their hinges).
    bool collideConnected = false;
    std::uint64_t userData = 0;
};

/// A hinge: the anchor of both bodies stays one point; they turn freely about it, or within
/// limits, driven by a motor or pulled back by a spring.
struct RevoluteJointDef : JointDef {
    Vec2 anchor{}; ///< m, world frame
    /// rad, relative to the bodies' angle difference at creation; lower <= upper.
    bool enableLimit = false;
    float lowerAngle = 0.0f;
    float upperAngle = 0.0f;
    bool enableMotor = false;
    float motorSpeed = 0.0f;     ///< rad/s of B relative to A
    float maxMotorTorque = 0.0f; ///< N m, >= 0
    /// A torsion spring toward the angle difference at creation.
    bool enableSpring = false;
    float hertz = 0.0f;        ///< >= 0
    float dampingRatio = 0.0f; ///< >= 0
};

/// A rod, a spring or a rope between two anchors. Without the spring it is rigid at `length`;
/// with it the spring (none at hertz 0) pulls toward `length` and `minLength`, `maxLength` are
/// hard limits. A rope: minLength 0, maxLength its length, spring enabled at hertz 0.
struct DistanceJointDef : JointDef {
    Vec2 anchorA{};                 ///< m, world frame, on body A
    Vec2 anchorB{};                 ///< m, world frame, on body B
    std::optional<float> length;    ///< m, >= 0; default: the anchors' distance
    std::optional<float> minLength; ///< m, default: length
    std::optional<float> maxLength; ///< m, default: length; minLength <= maxLength
    bool enableSpring = false;
    float hertz = 0.0f;
    float dampingRatio = 0.0f;
};

/// A slider: B moves along `axis` (fixed in A) without turning relative to A.
struct PrismaticJointDef : JointDef {
    Vec2 anchor{};         ///< m, world frame
    Vec2 axis{1.0f, 0.0f}; ///< world frame, non-zero (normalised by the world)
    /// m along the axis from the position at creation; lower <= upper.
    bool enableLimit = false;
    float lowerTranslation = 0.0f;
    float upperTranslation = 0.0f;
    bool enableMotor = false;
    float motorSpeed = 0.0f;    ///< m/s
    float maxMotorForce = 0.0f; ///< N, >= 0
    /// A spring toward the position at creation.
    bool enableSpring = false;
    float hertz = 0.0f;
    float dampingRatio = 0.0f;
};

/// Glues B to A at `anchor`: rigid at hertz 0, or a soft weld (linear and angular springs).
struct WeldJointDef : JointDef {
    Vec2 anchor{}; ///< m, world frame
    float linearHertz = 0.0f;
    float angularHertz = 0.0f;
    float linearDampingRatio = 0.0f;
    float angularDampingRatio = 0.0f;
};

/// A car's wheel: B (the wheel) turns freely about the anchor, which slides along `axis` (fixed in
/// A, the chassis) on a suspension spring; a motor drives the wheel.
struct WheelJointDef : JointDef {
    Vec2 anchor{};         ///< m, world frame, the wheel's centre usually
    Vec2 axis{0.0f, 1.0f}; ///< world frame, non-zero: the suspension's direction
    bool enableSpring = true;
    float hertz = 1.0f;
    float dampingRatio = 0.7f;
    bool enableMotor = false;
    float motorSpeed = 0.0f;     ///< rad/s
    float maxMotorTorque = 0.0f; ///< N m
};

/// Pulls a point of one body toward a target that the game moves (dragging with the mouse), as a
/// soft spring whose force is capped.
struct MouseJointDef {
    BodyId body;           ///< a dynamic body
    Vec2 target{};         ///< m, world frame: the point of the body grabbed is here at creation
    float maxForce = 0.0f; ///< N, >= 0; a few times the body's weight drags it well
    float hertz = 5.0f;
    float dampingRatio = 0.7f;
    std::uint64_t userData = 0;
};

} // namespace rigid2d
