// Revolute joint: a point constraint (anchor B on anchor A) and, about it, a torsion spring, a
// motor and an angle range, each a scalar row on the relative rotation.
#include "solver/joint_kinds.hpp"

namespace rigid2d::detail {

void prepareRevolute(JointConstraint& c, const JointStep& step) {
    c.axialMass = inverseOrZero(c.iA + c.iB);
    const JointParams& p = *c.params;
    c.spring = springSoftness(p, step.h);
}

void warmStartRevolute(JointVelocity& v, const JointConstraint& c, const JointPose& pose) {
    const JointImpulses& j = c.impulses;
    v.apply(j.linear, pose.rA, pose.rB);
    v.applyAngular(j.spring + j.motor + j.lower - j.upper);
}

void solveRevolute(JointVelocity& v, JointConstraint& c, const JointPose& pose,
                   const JointStep& step, bool useBias) {
    const JointParams& p = *c.params;
    JointImpulses& j = c.impulses;
    const float mass = c.axialMass;
    if (p.enableSpring && p.hertz > 0.0f)
        v.applyAngular(springImpulse(pose.angle, v.wB - v.wA, mass, c.spring, j.spring));
    if (p.enableMotor)
        v.applyAngular(
            motorImpulse(v.wB - v.wA, p.motorSpeed, mass, step.h * p.maxMotorForce, j.motor));
    if (p.enableLimit) {
        v.applyAngular(
            limitImpulse(pose.angle - p.lower, v.wB - v.wA, mass, step, useBias, j.lower));
        v.applyAngular(
            -limitImpulse(p.upper - pose.angle, v.wA - v.wB, mass, step, useBias, j.upper));
    }
    v.apply(pointImpulse(v, pose, step, useBias, nullptr, j.linear), pose.rA, pose.rB);
}

JointReactionImpulse reactionRevolute(const JointConstraint& c, const JointPose&) noexcept {
    const JointImpulses& j = c.impulses;
    return {j.linear, j.spring + j.motor + j.lower - j.upper};
}

} // namespace rigid2d::detail
