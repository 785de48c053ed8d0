#include "solver/contact_prepare.hpp"

namespace rigid2d::detail {

namespace {
} // namespace

void prepareConstraint(const PrepareContext& context, ContactConstraint& c) {
    const SolverState& a = context.bodies[c.bodyA];
    const SolverState& b = context.bodies[c.bodyB];
    const float mA = context.motions[c.bodyA].invMass, iA = context.motions[c.bodyA].invInertia;
    const float mB = context.motions[c.bodyB].invMass, iB = context.motions[c.bodyB].invInertia;
    c.invMassA = mA;
    c.invInertiaA = iA;
    c.invMassB = mB;
    c.invInertiaB = iB;
    c.softness = (mA == 0.0f || mB == 0.0f) ? context.stiff : context.contact;
    const Vec2 n = c.normal;
    const Vec2 t{n.y, -n.x}; // the tangent: the normal turned clockwise
    for (int i = 0; i < c.pointCount; ++i) {
        SolverPoint& p = c.points[i];
        const float rnA = cross(p.anchorA, n), rnB = cross(p.anchorB, n);
        const float kNormal = mA + mB + iA * rnA * rnA + iB * rnB * rnB;
        p.normalMass = kNormal > 0.0f ? 1.0f / kNormal : 0.0f;
        const float rtA = cross(p.anchorA, t), rtB = cross(p.anchorB, t);
        const float kTangent = mA + mB + iA * rtA * rtA + iB * rtB * rtB;
        p.tangentMass = kTangent > 0.0f ? 1.0f / kTangent : 0.0f;
        p.maxNormalImpulse = 0.0f;
        const Vec2 vrA = a.v + cross(a.w, p.anchorA);
        const Vec2 vrB = b.v + cross(b.w, p.anchorB);
        p.approachVelocity = dot(vrB - vrA, n);
    }
}

} // namespace rigid2d::detail
