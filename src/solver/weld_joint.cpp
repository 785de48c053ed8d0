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
    const float m = v.mA + v.mB, iA = v.iA, iB = v.iB;
    const float k11 = m + rA.y * rA.y * iA + rB.y * rB.y * iB;
    const float k12 = -rA.y * rA.x * iA - rB.y * rB.x * iB;
    const float k13 = -rA.y * iA - rB.y * iB;
    const float k22 = m + rA.x * rA.x * iA + rB.x * rB.x * iB;
    const float k23 = rA.x * iA + rB.x * iB;
    const float k33 = iA + iB;
    const Vec2 pointCdot = v.relative(rA, rB);
    float r[3] = {pointCdot.x, pointCdot.y, v.wB - v.wA};
    float massScale = 1.0f, impulseScale = 0.0f;
    if (useBias) {
        r[0] += step.joint.biasRate * pose.d.x;
        r[1] += step.joint.biasRate * pose.d.y;
        r[2] += step.joint.biasRate * pose.angle;
        massScale = step.joint.massScale;
        impulseScale = step.joint.impulseScale;
    }
    // K^-1 r by Cramer's rule; K is symmetric.
    const float c11 = k22 * k33 - k23 * k23, c12 = k13 * k23 - k12 * k33,
                c13 = k12 * k23 - k13 * k22;
    float det = k11 * c11 + k12 * c12 + k13 * c13;
    if (det != 0.0f) det = 1.0f / det;
    const float c22 = k11 * k33 - k13 * k13, c23 = k12 * k13 - k11 * k23,
                c33 = k11 * k22 - k12 * k12;
    const float x = det * (c11 * r[0] + c12 * r[1] + c13 * r[2]);
    const float y = det * (c12 * r[0] + c22 * r[1] + c23 * r[2]);
    const float z = det * (c13 * r[0] + c23 * r[1] + c33 * r[2]);
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
