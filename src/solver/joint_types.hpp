#pragma once
// The data the joint solver works on: each joint's settings and warm-start impulses as the world
// keeps them, and the per-step constraint the solver builds from them (joint_solver.hpp).

#include <cstddef>
#include <cstdint>

#include "rigid2d/joints.hpp"
#include "solver/solver_types.hpp"

namespace rigid2d::detail {

/// The settings of one joint; which fields a kind reads is listed beside each.
struct JointParams {
    bool enableLimit = false;   ///< revolute, prismatic
    bool enableMotor = false;   ///< revolute, prismatic, wheel
    bool enableSpring = false;  ///< revolute, distance, prismatic, wheel
    float lower = 0.0f;         ///< rad (revolute), m (prismatic), min length (distance)
    float upper = 0.0f;         ///< rad, m, max length
    float motorSpeed = 0.0f;    ///< rad/s or m/s
    float maxMotorForce = 0.0f; ///< N m (revolute, wheel) or N (prismatic)
    float hertz = 0.0f;         ///< spring; weld: linear; mouse: the pull
    float dampingRatio = 0.0f;
    float angularHertz = 0.0f; ///< weld
    float angularDampingRatio = 0.0f;
    float length = 0.0f;   ///< distance: rest length
    float maxForce = 0.0f; ///< mouse, N
};

/// What a joint constraint reads before the gather points it at its joint's settings.
inline constexpr JointParams kDefaultJointParams{};

/// Accumulated impulses of one joint (per substep, as the soft step applies them): the warm start
/// of the next step and the reaction the game reads.
struct JointImpulses {
    Vec2 linear{};              ///< point constraint: revolute, weld, mouse
    float perpendicular = 0.0f; ///< prismatic, wheel: across the axis
    float angular = 0.0f;       ///< weld, prismatic: relative rotation locked
    float length = 0.0f;        ///< distance: rigid length
    float spring = 0.0f;
    float motor = 0.0f;
    float lower = 0.0f;
    float upper = 0.0f;
};

/// How the wide loops take a joint: a plain point joint (a revolute joint whose spring, motor and
/// limit are off and hold no impulse), another revolute joint, or not at all (the other kinds).
enum class WideJointKind : std::uint8_t { None, Point, Revolute };

[[nodiscard]] inline WideJointKind wideJointKind(JointType type, const JointParams& p,
                                                 const JointImpulses& j) noexcept {
    if (type != JointType::Revolute) return WideJointKind::None;
    const bool plain = !p.enableSpring && !p.enableMotor && !p.enableLimit && j.spring == 0.0f &&
                       j.motor == 0.0f && j.lower == 0.0f && j.upper == 0.0f;
    return plain ? WideJointKind::Point : WideJointKind::Revolute;
}

/// One joint as the solver sees it for a step. The gather (step/solve.cpp) fills the geometry at
/// the start of the step; prepareJoint the effective masses; the bodies' position deltas of the
/// step (SolverState::dp, dq, dAngle) then give the current error without another narrow phase.
///
/// What a point joint reads (WideJointKind::Point) fills the first cache line, to the linear
/// impulse; the gather writes only that line of a point joint, and the rest is filled by
/// completePointJoint when one is solved by the scalar rows after all. The gather, the packing and
/// the store then move one line per joint of a large grid or chain instead of three.
struct alignas(64) JointConstraint {
    std::uint32_t joint = 0; ///< the world's joint slot
    std::uint32_t bodyA = 0; ///< solver slot (0 = the static slot)
    std::uint32_t bodyB = 0;
    JointType type = JointType::Revolute;
    /// wideJointKind of the joint, set with the rest: the colouring reads it in joint order,
    /// where following `params` to each joint's record cost 4% of v3_joint_grid's step.
    WideJointKind wideKind = WideJointKind::Point;
    float mA = 0.0f, iA = 0.0f, mB = 0.0f, iB = 0.0f;
    Vec2 frameA{}; ///< anchor on A relative to A's centre of mass, world frame
    Vec2 frameB{};
    Vec2 deltaCenter{}; ///< centre of B minus centre of A (mouse: minus the target)
    JointImpulses impulses;
    float deltaAngle = 0.0f; ///< angle of B minus angle of A minus the reference, in [-pi, pi]
    Vec2 axis{};             ///< prismatic, wheel: unit axis fixed in A, world frame
    /// The world's settings of the joint, read in place: they are cold (a few flags and limits
    /// read once per row) and copying them every step would cost more than reading them.
    const JointParams* params = &kDefaultJointParams;
    // Set by prepareJoint.
    float axialMass = 0.0f; ///< along the axis (distance, prismatic, wheel) or of the rotation
    Softness spring{};
    Softness angularSpring{}; ///< weld
};
static_assert(offsetof(JointConstraint, impulses) + sizeof(Vec2) <= 64,
              "a point joint's rows read its first cache line only");

/// A point joint's hot line is all its rows read in a wide lane. The scalar revolute rows read the
/// rest too: for a point joint (spring, motor and limit off, their impulses zero) the default
/// settings and zeros are what its own would give.
inline void completePointJoint(JointConstraint& c) noexcept {
    const Vec2 linear = c.impulses.linear;
    c.impulses = {};
    c.impulses.linear = linear;
    c.deltaAngle = 0.0f;
    c.axis = {};
    c.params = &kDefaultJointParams;
}

/// What every joint reads in one substep.
struct JointStep {
    float h = 0.0f;
    float inverseH = 0.0f;
    Softness joint{}; ///< the push-out of rigid joints and limits
};

} // namespace rigid2d::detail
