#include "solver/contact_prepare.hpp"

namespace rigid2d::detail {

// Gauss-Seidel moves a contact's impulse by about the lighter body's mass times the velocity error
// per iteration, and the soft contact's stiffness is that mass times its frequency squared: under
// a body a million times heavier, a light one would need a million iterations to hold it, and the
// heavy body falls through. Within one contact the lighter body is therefore given at least
// 1 / maxMassRatio of the heavier body's mass (its inverse mass and inertia scaled alike): it holds
// and passes on the load.
//
// The price is paid by the heavier body. To keep the light body where the contact wants it, the
// contact's impulse grows by the boost factor (the boosted mass over the true one), and the heavy
// body receives all of it: the light body's own weight, or the push of whatever drives it, reaches
// the heavy body multiplied by that factor (4000 kg on a 0.06 kg box at ratio 10: 6400 times).
// A loose heavy body only rests a little harder on what is under it; a heavy body held by a joint
// (a motorised drum, a paddle, a crane arm) hands the multiplied load to the joint, which
// stretches (v3_tumbler: 0.015 m instead of 7e-5 m). Such a body does not need the limit either:
// its joint, not the light bodies, carries its load. So the limit applies only where the heavier
// body is free of joints (mouse joints aside: a drag must not change how a body rests).
//
// The rule depends only on the pair and the joints, not on the contact's direction or history:
// a boost that came and went from step to step would warm start the light body with an impulse
// scaled for the boosted mass and launch it.
PreparedBodies limitMassRatio(const PrepareContext& context, std::uint32_t bodyA,
                              std::uint32_t bodyB, PreparedBodies bodies) {
    const float maxRatio = context.maxMassRatio;
    float &mA = bodies.mA, &iA = bodies.iA, &mB = bodies.mB, &iB = bodies.iB;
    if (maxRatio <= 0.0f || mA == 0.0f || mB == 0.0f) return bodies;
    const auto jointed = [&](std::uint32_t slot) {
        return !context.jointed.empty() && context.jointed[slot] != 0;
    };
    if (mA > maxRatio * mB && !jointed(bodyB)) {
        const float scale = maxRatio * mB / mA;
        mA *= scale;
        iA *= scale;
    } else if (mB > maxRatio * mA && !jointed(bodyA)) {
        const float scale = maxRatio * mA / mB;
        mB *= scale;
        iB *= scale;
    }
    return bodies;
}

void markJointedBodies(std::span<const JointConstraint> joints, std::size_t bodyCount,
                       std::vector<std::uint8_t>& jointed) {
    jointed.clear(); // empty: no body is jointed (most scenes: no pass over the bodies)
    if (joints.empty()) return;
    jointed.assign(bodyCount, 0);
    for (const JointConstraint& j : joints) {
        if (j.type == JointType::Mouse) continue;
        jointed[j.bodyA] = 1;
        jointed[j.bodyB] = 1;
    }
}

void loadConstraint(const ContactConstraint& from, ScalarContact& constraint) {
    constraint.bodyA = from.bodyA;
    constraint.bodyB = from.bodyB;
    constraint.surface = from.surface;
    const ContactSurface& surface = *from.surface;
    const Manifold& manifold = surface.manifold;
    constraint.friction = surface.friction;
    constraint.restitution = surface.restitution;
    constraint.normal = manifold.normal;
    constraint.pointCount = manifold.pointCount;
    for (int i = 0; i < manifold.pointCount; ++i) {
        const ManifoldPoint& mp = manifold.points[i];
        SolverPoint& p = constraint.points[i];
        p.anchorA = mp.anchorA;
        p.anchorB = mp.anchorB;
        p.baseSeparation = baseSeparation(mp, manifold.normal);
        p.normalImpulse = mp.normalImpulse;
        p.tangentImpulse = mp.tangentImpulse;
    }
}

void prepareConstraint(const PrepareContext& context, ScalarContact& c) {
    const PreparedBodies bodies = prepareBodies(context, c.bodyA, c.bodyB);
    c.invMassA = bodies.mA;
    c.invInertiaA = bodies.iA;
    c.invMassB = bodies.mB;
    c.invInertiaB = bodies.iB;
    c.softness = bodies.softness;
    for (int i = 0; i < c.pointCount; ++i) {
        SolverPoint& p = c.points[i];
        const PreparedPoint prepared =
            preparePoint(bodies, context.bodies[c.bodyA], context.bodies[c.bodyB], p.anchorA,
                         p.anchorB, c.normal);
        p.normalMass = prepared.normalMass;
        p.tangentMass = prepared.tangentMass;
        p.approachVelocity = prepared.approachVelocity;
        p.maxNormalImpulse = 0.0f;
    }
}

} // namespace rigid2d::detail
