// Weld joint: the point constraint of the revolute joint plus a locked relative rotation, each
// rigid or, with a hertz, a damped spring (a soft weld bends like a cantilever).
#include "solver/joint_kinds.hpp"

namespace rigid2d::detail {

void prepareWeld(JointConstraint& c, const JointStep& step) {
    const JointParams& p = *c.params;
    c.axialMass = inverseOrZero(c.iA + c.iB);
    c.spring = p.hertz > 0.0f ? makeSoftness(p.hertz, p.dampingRatio, step.h) : Softness{};
    c.angularSpring = p.angularHertz > 0.0f
                          ? makeSoftness(p.angularHertz, p.angularDampingRatio, step.h)
                          : Softness{};
}

void warmStartWeld(JointVelocity& v, const JointConstraint& c, const JointPose& pose) {
    v.apply(c.impulses.linear, pose.rA, pose.rB);
    v.applyAngular(c.impulses.angular);
}

namespace {

// The rigid weld: point and rotation as one 3x3 block. Solved row by row, the rotation would see
// only the inertia about the centre of mass; a slim link held at its end turns about the anchor,
// with far more inertia (I + m r^2), so the soft joint would be that much less stiff and a
// cantilever of links would sag several times more.
void solveRigidWeld(JointVelocity& v, JointConstraint& c, const JointPose& pose,
                    const JointStep& step, bool useBias) {
    JointImpulses& j = c.impulses;
    const Vec2 rA = pose.rA, rB = pose.rB;
    // In double: the cofactors multiply inverse inertias twice, and a tiny body (1 um disc,
    // inverse inertia ~1e24) welded at a metre's arm overflows a float there.
    const double ax = double{rA.x}, ay = double{rA.y}, bx = double{rB.x}, by = double{rB.y};
    const double m = double{v.mA} + double{v.mB}, iA = double{v.iA}, iB = double{v.iB};
    const double k11 = m + ay * ay * iA + by * by * iB;
    const double k12 = -ay * ax * iA - by * bx * iB;
    const double k13 = -ay * iA - by * iB;
    const double k22 = m + ax * ax * iA + bx * bx * iB;
    const double k23 = ax * iA + bx * iB;
    const double k33 = iA + iB;
    const Vec2 pointCdot = v.relative(rA, rB);
    double r[3] = {double{pointCdot.x}, double{pointCdot.y}, double{v.wB - v.wA}};
    float massScale = 1.0f, impulseScale = 0.0f;
    if (useBias) {
        r[0] += double{step.joint.biasRate * pose.d.x};
        r[1] += double{step.joint.biasRate * pose.d.y};
        r[2] += double{step.joint.biasRate * pose.angle};
        massScale = step.joint.massScale;
        impulseScale = step.joint.impulseScale;
    }
    // K^-1 r by Cramer's rule; K is symmetric.
    const double c11 = k22 * k33 - k23 * k23, c12 = k13 * k23 - k12 * k33,
                 c13 = k12 * k23 - k13 * k22;
    double det = k11 * c11 + k12 * c12 + k13 * c13;
    if (det != 0.0) det = 1.0 / det;
    const double c22 = k11 * k33 - k13 * k13, c23 = k12 * k13 - k11 * k23,
                 c33 = k11 * k22 - k12 * k12;
    const auto solved = [&](double k1, double k2, double k3) {
        return static_cast<float>(det * (k1 * r[0] + k2 * r[1] + k3 * r[2]));
    };
    const float x = solved(c11, c12, c13), y = solved(c12, c22, c23), z = solved(c13, c23, c33);
    const Vec2 linear = -massScale * Vec2{x, y} - impulseScale * j.linear;
    const float angular = -massScale * z - impulseScale * j.angular;
    j.linear += linear;
    j.angular += angular;
    v.apply(linear, rA, rB);
    v.applyAngular(angular);
}

} // namespace

void solveWeld(JointVelocity& v, JointConstraint& c, const JointPose& pose, const JointStep& step,
               bool useBias) {
    const JointParams& p = *c.params;
    JointImpulses& j = c.impulses;
    // Both bodies without rotational inertia leave K singular: the rows below handle that.
    if (p.hertz == 0.0f && p.angularHertz == 0.0f && c.iA + c.iB > 0.0f) {
        solveRigidWeld(v, c, pose, step, useBias);
        return;
    }
    const float Cdot = v.wB - v.wA;
    v.applyAngular(p.angularHertz > 0.0f
                       ? springImpulse(pose.angle, Cdot, c.axialMass, c.angularSpring, j.angular)
                       : rigidImpulse(pose.angle, Cdot, c.axialMass, step, useBias, j.angular));
    const Softness* soft = p.hertz > 0.0f ? &c.spring : nullptr;
    v.apply(pointImpulse(v, pose, step, useBias, soft, j.linear), pose.rA, pose.rB);
}

JointReactionImpulse reactionWeld(const JointConstraint& c, const JointPose&) noexcept {
    return {c.impulses.linear, c.impulses.angular};
}

} // namespace rigid2d::detail
