#include "solver/contact_solver.hpp"

#include <algorithm>
#include <cmath>

namespace rigid2d::detail {

namespace {

// Tangent of a contact: the normal turned clockwise.
[[nodiscard]] inline Vec2 tangentOf(Vec2 n) noexcept { return {n.y, -n.x}; }

/// The velocities of a constraint's two bodies, held in registers while its points are solved.
struct PairVelocity {
    Vec2 vA, vB;
    float wA, wB;

    [[nodiscard]] static PairVelocity load(const SolverState& a, const SolverState& b) noexcept {
        return {a.v, b.v, a.w, b.w};
    }
    void store(SolverState& a, SolverState& b) const noexcept {
        a.v = vA;
        a.w = wA;
        b.v = vB;
        b.w = wB;
    }
    /// Velocity of B relative to A at the point's anchors.
    [[nodiscard]] Vec2 relative(const SolverPoint& p) const noexcept {
        return vB + cross(wB, p.anchorB) - vA - cross(wA, p.anchorA);
    }
    /// Impulse P at the point: -P on body A, +P on body B.
    void apply(const ContactConstraint& c, const SolverPoint& p, Vec2 P) noexcept {
        vA -= c.invMassA * P;
        wA -= c.invInertiaA * cross(p.anchorA, P);
        vB += c.invMassB * P;
        wB += c.invInertiaB * cross(p.anchorB, P);
    }
};

void integrateVelocities(std::span<SolverState> bodies, std::span<const SolverMotion> motions,
                         float h, float maxSpeed, float maxAngularSpeed) {
    const float maxSpeedSq = maxSpeed * maxSpeed;
    for (std::size_t i = 1; i < bodies.size(); ++i) {
        SolverState& b = bodies[i];
        const SolverMotion& m = motions[i];
        Vec2 v = b.v + h * m.linearAcceleration;
        float w = b.w + h * m.angularAcceleration;
        // Implicit damping: stable for any h * c, exactly v for c = 0.
        if (m.linearDamping != 0.0f) v *= 1.0f / (1.0f + h * m.linearDamping);
        if (m.angularDamping != 0.0f) w *= 1.0f / (1.0f + h * m.angularDamping);
        const float speedSq = dot(v, v);
        if (speedSq > maxSpeedSq) v *= maxSpeed / std::sqrt(speedSq);
        b.v = v;
        b.w = std::min(std::max(w, -maxAngularSpeed), maxAngularSpeed);
    }
}

void integratePositions(std::span<SolverState> bodies, float h) {
    for (std::size_t i = 1; i < bodies.size(); ++i) {
        SolverState& b = bodies[i];
        b.dp += h * b.v;
        if (b.w != 0.0f) {
            // First-order rotation update, renormalised (no trigonometry per substep).
            const float dw = h * b.w;
            b.dAngle += dw;
            Rot q{b.dq.c - dw * b.dq.s, b.dq.s + dw * b.dq.c};
            const float invLength = 1.0f / std::sqrt(q.c * q.c + q.s * q.s);
            b.dq = {q.c * invLength, q.s * invLength};
        }
    }
}

void warmStart(std::span<SolverState> bodies, const ContactConstraint& c) {
    SolverState& a = bodies[c.bodyA];
    SolverState& b = bodies[c.bodyB];
    PairVelocity v = PairVelocity::load(a, b);
    const Vec2 n = c.normal;
    const Vec2 t = tangentOf(n);
    for (int i = 0; i < c.pointCount; ++i) {
        const SolverPoint& p = c.points[i];
        v.apply(c, p, p.normalImpulse * n + p.tangentImpulse * t);
    }
    v.store(a, b);
}

void solveContact(std::span<SolverState> bodies, ContactConstraint& c, float inverseH,
                  float maxPushSpeed, bool useBias) {
    SolverState& a = bodies[c.bodyA];
    SolverState& b = bodies[c.bodyB];
    PairVelocity v = PairVelocity::load(a, b);
    const Vec2 n = c.normal;
    const Vec2 dp = b.dp - a.dp;
    for (int i = 0; i < c.pointCount; ++i) {
        SolverPoint& p = c.points[i];
        // Current separation from the position deltas of this step.
        const Vec2 prA = rotate(a.dq, p.anchorA);
        const Vec2 prB = rotate(b.dq, p.anchorB);
        const float s = dot(dp + prB - prA, n) + p.baseSeparation;
        float bias = 0.0f, massScale = 1.0f, impulseScale = 0.0f;
        if (s > 0.0f) {
            bias = s * inverseH; // speculative: close the gap this substep, no more
        } else if (useBias) {
            bias = std::max(c.softness.biasRate * s, -maxPushSpeed);
            massScale = c.softness.massScale;
            impulseScale = c.softness.impulseScale;
        }
        const Vec2 dv = v.relative(p);
        const float vn = dot(dv, n);
        float impulse = -p.normalMass * massScale * (vn + bias) - impulseScale * p.normalImpulse;
        const float newImpulse = std::max(p.normalImpulse + impulse, 0.0f);
        impulse = newImpulse - p.normalImpulse;
        p.normalImpulse = newImpulse;
        p.maxNormalImpulse = std::max(p.maxNormalImpulse, impulse);
        v.apply(c, p, impulse * n);
    }
    const Vec2 t = tangentOf(n);
    for (int i = 0; i < c.pointCount; ++i) {
        SolverPoint& p = c.points[i];
        const Vec2 dv = v.relative(p);
        const float vt = dot(dv, t);
        float impulse = -p.tangentMass * vt;
        const float maxFriction = c.friction * p.normalImpulse;
        const float newImpulse = std::clamp(p.tangentImpulse + impulse, -maxFriction, maxFriction);
        impulse = newImpulse - p.tangentImpulse;
        p.tangentImpulse = newImpulse;
        v.apply(c, p, impulse * t);
    }
    v.store(a, b);
}

void applyRestitution(std::span<SolverState> bodies, ContactConstraint& c, float threshold) {
    if (c.restitution == 0.0f) return;
    SolverState& a = bodies[c.bodyA];
    SolverState& b = bodies[c.bodyB];
    PairVelocity v = PairVelocity::load(a, b);
    const Vec2 n = c.normal;
    for (int i = 0; i < c.pointCount; ++i) {
        SolverPoint& p = c.points[i];
        // Only points that were closing fast and actually pushed bounce.
        if (p.approachVelocity > -threshold || p.maxNormalImpulse == 0.0f) continue;
        const Vec2 dv = v.relative(p);
        const float vn = dot(dv, n);
        float impulse = -p.normalMass * (vn + c.restitution * p.approachVelocity);
        const float newImpulse = std::max(p.normalImpulse + impulse, 0.0f);
        impulse = newImpulse - p.normalImpulse;
        p.normalImpulse = newImpulse;
        p.maxNormalImpulse = std::max(p.maxNormalImpulse, impulse);
        v.apply(c, p, impulse * n);
    }
    v.store(a, b);
}

} // namespace

Softness makeSoftness(float hertz, float dampingRatio, float h) noexcept {
    if (hertz == 0.0f) return {0.0f, 1.0f, 0.0f};
    const float omega = 2.0f * 3.14159265358979f * hertz;
    const float a1 = 2.0f * dampingRatio + h * omega;
    // Where the formulas below would divide zero by zero (the frequency and damping ratio are
    // bounded by kMaxHertz, so nothing overflows): a spring with neither stiffness nor damping to
    // speak of pushes nothing.
    if (!(a1 > 1e-30f)) return {0.0f, 0.0f, 1.0f};
    const float a2 = h * omega * a1;
    const float a3 = 1.0f / (1.0f + a2);
    return {omega / a1, a2 * a3, a3};
}

void loadConstraintPoints(ContactConstraint& constraint, const Manifold& manifold) {
    constraint.normal = manifold.normal;
    constraint.pointCount = manifold.pointCount;
    for (int i = 0; i < manifold.pointCount; ++i) {
        const ManifoldPoint& mp = manifold.points[i];
        SolverPoint& p = constraint.points[i];
        p.anchorA = mp.anchorA;
        p.anchorB = mp.anchorB;
        p.baseSeparation = mp.separation - dot(mp.anchorB - mp.anchorA, manifold.normal);
        p.normalImpulse = mp.normalImpulse;
        p.tangentImpulse = mp.tangentImpulse;
    }
}

namespace {

struct SubstepSettings {
    int substeps = 1;
    float h = 0.0f;
    float inverseH = 0.0f;
    Softness contact{};
    Softness stiff{}; ///< against an immovable body
    JointStep joint{};
};

[[nodiscard]] SubstepSettings substepSettings(const SolverSettings& settings) {
    SubstepSettings s;
    s.substeps = std::max(settings.substeps, 1);
    s.h = settings.dt / static_cast<float>(s.substeps);
    s.inverseH = 1.0f / s.h;
    s.contact = makeSoftness(settings.contactHertz, settings.contactDampingRatio, s.h);
    s.stiff = makeSoftness(2.0f * settings.contactHertz, settings.contactDampingRatio, s.h);
    s.joint = {s.h, s.inverseH, makeSoftness(settings.jointHertz, settings.jointDampingRatio, s.h)};
    return s;
}

// Colours the revolute joints (scratch.movable must be filled) and packs them into wide blocks;
// lists the joints left for the scalar solve in scratch.scalarJoints.
void colourJoints(std::span<const JointConstraint> joints, const JointStep& step,
                  ContactSolverScratch& scratch) {
    scratch.jointCandidates.clear();
    scratch.jointBodies.clear();
    for (std::uint32_t i = 0; i < joints.size(); ++i) {
        if (wideJointKind(joints[i]) == WideJointKind::None) continue;
        scratch.jointCandidates.push_back(i);
        scratch.jointBodies.push_back({joints[i].bodyA, joints[i].bodyB});
    }
    colourConstraints(scratch.jointBodies, scratch.movable, scratch.bodyColours,
                      scratch.jointColouring);
    packWideJoints(joints, scratch.jointCandidates, scratch.jointColouring, step,
                   scratch.wideJoints, scratch.wideRevolutes);
    scratch.scalarJoints.clear();
    std::size_t next = 0; // the next candidate, in array order as the joints
    for (std::uint32_t i = 0; i < joints.size(); ++i) {
        const bool candidate =
            next < scratch.jointCandidates.size() && scratch.jointCandidates[next] == i;
        const bool wide = candidate && scratch.jointColouring.colourOf[next] != kContactColourCount;
        if (candidate) ++next;
        if (!wide) scratch.scalarJoints.push_back(i);
    }
}

} // namespace

void solveSoftStepSequential(std::span<SolverState> bodies, std::span<const SolverMotion> motions,
                             std::span<JointConstraint> joints,
                             std::span<ContactConstraint> constraints,
                             const SolverSettings& settings) {
    const SubstepSettings s = substepSettings(settings);
    const float push = settings.maxContactPushSpeed;
    std::vector<std::uint8_t> jointed;
    markJointedBodies(joints, bodies.size(), jointed);
    const PrepareContext context{bodies, motions, s.contact, s.stiff, settings.maxMassRatio,
                                 jointed};
    for (JointConstraint& j : joints) prepareJoint(j, s.joint);
    for (ContactConstraint& c : constraints) prepareConstraint(context, c);
    for (int i = 0; i < s.substeps; ++i) {
        integrateVelocities(bodies, motions, s.h, settings.maxLinearSpeed,
                            settings.maxAngularSpeed);
        for (const JointConstraint& j : joints) warmStartJoint(bodies, j);
        for (const ContactConstraint& c : constraints) warmStart(bodies, c);
        for (JointConstraint& j : joints) solveJoint(bodies, j, s.joint, true);
        for (ContactConstraint& c : constraints) solveContact(bodies, c, s.inverseH, push, true);
        integratePositions(bodies, s.h);
        for (JointConstraint& j : joints) solveJoint(bodies, j, s.joint, false);
        for (ContactConstraint& c : constraints) solveContact(bodies, c, s.inverseH, push, false);
    }
    for (ContactConstraint& c : constraints)
        applyRestitution(bodies, c, settings.restitutionThreshold);
}

void solveSoftStep(std::span<SolverState> bodies, std::span<const SolverMotion> motions,
                   std::span<JointConstraint> joints, std::span<ContactConstraint> constraints,
                   const SolverSettings& settings, ContactSolverScratch& scratch) {
    const SubstepSettings s = substepSettings(settings);
    const float push = settings.maxContactPushSpeed;

    // Bodies that cannot move take no colour (contact_colouring.hpp).
    scratch.movable.resize(bodies.size());
    for (std::size_t i = 0; i < bodies.size(); ++i)
        scratch.movable[i] = i != 0 && (motions[i].invMass > 0.0f || motions[i].invInertia > 0.0f);
    scratch.bodies.resize(constraints.size());
    for (std::size_t i = 0; i < constraints.size(); ++i)
        scratch.bodies[i] = {constraints[i].bodyA, constraints[i].bodyB};
    colourConstraints(scratch.bodies, scratch.movable, scratch.bodyColours, scratch.colouring);
    // Each constraint is prepared as it is packed (one pass over the constraints).
    markJointedBodies(joints, bodies.size(), scratch.jointed);
    const PrepareContext context{bodies,         motions, s.contact, s.stiff, settings.maxMassRatio,
                                 scratch.jointed};
    const bool bouncy = packWideContacts(context, constraints, scratch.colouring, scratch.wide);
    const std::span<WideContact> wide(scratch.wide);
    const std::span<const std::uint32_t> overflow = scratch.colouring.overflow();
    for (const std::uint32_t c : overflow) prepareConstraint(context, constraints[c]);
    colourJoints(joints, s.joint, scratch);
    const std::span<WideJoint> wideJoints(scratch.wideJoints);
    const std::span<WideRevolute> wideRevolutes(scratch.wideRevolutes);
    for (const std::uint32_t j : scratch.scalarJoints) prepareJoint(joints[j], s.joint);

    for (int i = 0; i < s.substeps; ++i) {
        integrateVelocities(bodies, motions, s.h, settings.maxLinearSpeed,
                            settings.maxAngularSpeed);
        warmStartWideJoints(bodies, wideJoints);
        warmStartWideRevolutes(bodies, wideRevolutes);
        for (const std::uint32_t j : scratch.scalarJoints) warmStartJoint(bodies, joints[j]);
        warmStartWide(bodies, wide);
        for (const std::uint32_t c : overflow) warmStart(bodies, constraints[c]);
        solveWideJoints(bodies, wideJoints, s.joint, true);
        solveWideRevolutes(bodies, wideRevolutes, s.joint, true);
        for (const std::uint32_t j : scratch.scalarJoints)
            solveJoint(bodies, joints[j], s.joint, true);
        solveWide(bodies, wide, s.inverseH, push, true);
        for (const std::uint32_t c : overflow)
            solveContact(bodies, constraints[c], s.inverseH, push, true);
        integratePositions(bodies, s.h);
        solveWideJoints(bodies, wideJoints, s.joint, false);
        solveWideRevolutes(bodies, wideRevolutes, s.joint, false);
        for (const std::uint32_t j : scratch.scalarJoints)
            solveJoint(bodies, joints[j], s.joint, false);
        solveWide(bodies, wide, s.inverseH, push, false);
        for (const std::uint32_t c : overflow)
            solveContact(bodies, constraints[c], s.inverseH, push, false);
    }
    storeWideImpulses(wide, constraints);
    storeWideJointImpulses(wideJoints, wideRevolutes, joints);
    if (!bouncy) return; // the usual case: skip a pass over the constraints in colour order
    for (const std::uint32_t c : scratch.colouring.order)
        applyRestitution(bodies, constraints[c], settings.restitutionThreshold);
}

} // namespace rigid2d::detail
