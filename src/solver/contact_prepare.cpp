#include "solver/contact_prepare.hpp"

namespace rigid2d::detail {

namespace {
// Gauss-Seidel moves a contact's impulse by about the lighter body's mass times the velocity error
// per iteration: under a body a million times heavier, a light one would need a million
// iterations to hold it, and the heavy body falls through. Within one contact the lighter body is
// therefore given at least 1 / maxMassRatio of the heavier body's mass (its inverse mass and
// inertia scaled alike). The light body then answers the contact as a heavier one would: it holds
// and passes on the load; in a free collision the heavy body loses more speed than it would.
void limitMassRatio(float maxRatio, float& mA, float& iA, float& mB, float& iB) {
    if (maxRatio <= 0.0f || mA == 0.0f || mB == 0.0f) return;
    if (mA > maxRatio * mB) {
        const float scale = maxRatio * mB / mA;
        mA *= scale;
        iA *= scale;
    } else if (mB > maxRatio * mA) {
        const float scale = maxRatio * mA / mB;
        mB *= scale;
        iB *= scale;
    }
}
} // namespace

void prepareConstraint(const PrepareContext& context, ContactConstraint& c) {
    const SolverState& a = context.bodies[c.bodyA];
    const SolverState& b = context.bodies[c.bodyB];
    float mA = context.motions[c.bodyA].invMass, iA = context.motions[c.bodyA].invInertia;
    float mB = context.motions[c.bodyB].invMass, iB = context.motions[c.bodyB].invInertia;
    limitMassRatio(context.maxMassRatio, mA, iA, mB, iB);
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
