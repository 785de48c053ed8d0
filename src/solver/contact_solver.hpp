#pragma once
// The contact solver: Box2D v3's "soft step" (Erin Catto, Solver2D). Per step:
//
//   prepare constraints (effective masses, soft parameters, anchors relative to centres of mass)
//   repeat substeps times, with h = dt / substeps:
//       integrate velocities (gravity, forces, damping)
//       warm start (apply last impulses)
//       solve contacts with a soft, capped push-out bias
//       integrate positions (into per-body deltas dp, dq)
//       relax: solve again without bias so push-out does not become bounce
//   restitution for points that approached faster than the threshold
//
// The current separation of a point is its separation at the start of the step corrected by the
// bodies' position deltas, so the narrow phase runs once per step. Bodies are a dense array of the
// awake bodies (slot 0 is a static body that never moves); constraints a dense array in contact
// order. Plain Gauss-Seidel: the order is fixed by the world, so the result is deterministic.

#include <cstdint>
#include <span>

#include "narrowphase/manifold.hpp"
#include "world/body.hpp"

namespace rigid2d::detail {

struct SolverBody {
    Vec2 v{};
    float w = 0.0f;
    float invMass = 0.0f;
    float invInertia = 0.0f;
    Vec2 dp{}; ///< translation since the start of the step
    Rot dq{};  ///< rotation since the start of the step
    float dAngle = 0.0f;
    Vec2 linearAcceleration{}; ///< gravity * scale + force / mass, m/s²
    float angularAcceleration = 0.0f;
    float linearDamping = 0.0f;
    float angularDamping = 0.0f;
};

/// Soft constraint coefficients for one substep (Solver2D "soft step").
struct Softness {
    float biasRate = 0.0f;
    float massScale = 1.0f;
    float impulseScale = 0.0f;
};

[[nodiscard]] Softness makeSoftness(float hertz, float dampingRatio, float h) noexcept;

struct SolverPoint {
    Vec2 anchorA{}, anchorB{};
    float baseSeparation = 0.0f; ///< separation minus dot(anchorB - anchorA, normal)
    float normalMass = 0.0f;
    float tangentMass = 0.0f;
    float normalImpulse = 0.0f;
    float tangentImpulse = 0.0f;
    float maxNormalImpulse = 0.0f;
    float approachVelocity = 0.0f; ///< relative normal velocity at prepare (negative = closing)
};

struct ContactConstraint {
    std::uint32_t bodyA = 0; ///< slot in the solver body array (0 = the static slot)
    std::uint32_t bodyB = 0;
    std::uint32_t contact = 0;
    Vec2 normal{};
    float friction = 0.0f;
    float restitution = 0.0f;
    Softness softness{};
    int pointCount = 0;
    SolverPoint points[kMaxManifoldPoints];
};

struct SolverSettings {
    float dt = 0.0f;
    int substeps = 4;
    float contactHertz = 30.0f;
    float contactDampingRatio = 10.0f;
    float maxContactPushSpeed = 3.0f;
    float restitutionThreshold = 1.0f;
    float maxLinearSpeed = 1e9f; ///< maxTranslation / dt
};

/// Loads a constraint's points from a manifold (anchors, separation, warm-start impulses).
void loadConstraintPoints(ContactConstraint& constraint, const Manifold& manifold);

/// Runs the whole soft step over `bodies` and `constraints`; impulses stay in the constraints.
void solveSoftStep(std::span<SolverBody> bodies, std::span<ContactConstraint> constraints,
                   const SolverSettings& settings);

} // namespace rigid2d::detail
