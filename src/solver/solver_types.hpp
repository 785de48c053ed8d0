#pragma once
// The data the contact solver works on: per-body state and motion, per-contact constraints, the
// settings of one step. Split from contact_solver.hpp so the wide loops can use them too.

#include <cstddef>
#include <cstdint>

#include "geometry/rot.hpp"
#include "narrowphase/manifold.hpp"

namespace rigid2d::detail {

/// What the contact loops touch per body, 32 bytes: two bodies share a cache line. The wide
/// solver reads it as two rows of four floats, hence the alignment.
struct alignas(16) SolverState {
    Vec2 v{};
    float w = 0.0f;
    float dAngle = 0.0f; ///< rotation since the start of the step, rad
    Vec2 dp{};           ///< translation since the start of the step
    Rot dq{};            ///< rotation since the start of the step
};

/// What only the velocity integration needs per body.
struct SolverMotion {
    float invMass = 0.0f;
    float invInertia = 0.0f;
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

/// The part of a contact the solver reads and writes: the pair's friction and restitution, read
/// as its constraint is packed or loaded, and its manifold, which holds the points and takes the
/// solved impulses back (the next step's warm start). A contact starts with it, so that the
/// gather can point at it without reading the contact.
struct ContactSurface {
    float friction = 0.0f;
    float restitution = 0.0f;
    Manifold manifold;
};

/// A solved contact as the gather lists it, 24 bytes, dense and in contact order: its bodies, the
/// contact and its surface. The wide blocks are packed from the surface and store their impulses
/// in its manifold; a constraint solved one at a time is loaded into a ScalarContact.
struct ContactConstraint {
    std::uint32_t bodyA = 0; ///< slot in the solver body array (0 = the static slot)
    std::uint32_t bodyB = 0;
    std::uint32_t contact = 0;
    ContactSurface* surface = nullptr;
};

/// A contact constraint solved one at a time (the overflow list, the sequential solve): its
/// friction, restitution and points loaded from its surface by loadConstraint, its masses by
/// prepareConstraint.
struct ScalarContact {
    std::uint32_t bodyA = 0; ///< slot in the solver body array (0 = the static slot)
    std::uint32_t bodyB = 0;
    ContactSurface* surface = nullptr;
    float friction = 0.0f;
    float restitution = 0.0f;
    float invMassA = 0.0f, invInertiaA = 0.0f; ///< copied at prepare: no second body lookup
    float invMassB = 0.0f, invInertiaB = 0.0f;
    Vec2 normal{};
    Softness softness{};
    int pointCount = 0;
    SolverPoint points[kMaxManifoldPoints];
};

static_assert(sizeof(ContactConstraint) == 24);

/// A manifold point's separation minus dot(anchorB - anchorA, normal): what the solve corrects by
/// the bodies' motion (SolverPoint::baseSeparation).
[[nodiscard]] inline float baseSeparation(const ManifoldPoint& point, Vec2 normal) noexcept {
    return point.separation - dot(point.anchorB - point.anchorA, normal);
}

struct SolverSettings {
    float dt = 0.0f;
    int substeps = 4;
    float contactHertz = 30.0f;
    float contactDampingRatio = 10.0f;
    float maxContactPushSpeed = 3.0f;
    float restitutionThreshold = 1.0f;
    float hitThreshold = 1.0f;    ///< least approach speed of a hit, m/s
    float maxLinearSpeed = 1e9f;  ///< maxTranslation / dt
    float maxAngularSpeed = 1e9f; ///< maxRotation / dt
    float maxMassRatio = 0.0f;    ///< see PrepareContext
    float jointHertz = 60.0f;     ///< push-out of rigid joints and joint limits
    float jointDampingRatio = 2.0f;
};

} // namespace rigid2d::detail
