// Wheel joint: B (the wheel) keeps its anchor on a line along an axis fixed in A (the chassis),
// sprung along it (the suspension), and turns freely, driven by a motor.
#include "solver/joint_kinds.hpp"

namespace rigid2d::detail {

void prepareWheel(JointConstraint& c, const JointStep& step) {
    c.axialMass = slideMass(c);
    c.spring = springSoftness(*c.params, step.h);
}

void warmStartWheel(JointVelocity& v, const JointConstraint& c, const JointPose& pose) {
    const Slide s = Slide::of(pose);
    const JointImpulses& j = c.impulses;
    v.applyLinear(j.spring * s.axis + j.perpendicular * s.perp,
                  j.spring * s.a1 + j.perpendicular * s.s1 + j.motor,
                  j.spring * s.a2 + j.perpendicular * s.s2 + j.motor);
}

void solveWheel(JointVelocity& v, JointConstraint& c, const JointPose& pose, const JointStep& step,
                bool useBias) {
    const JointParams& p = *c.params;
    JointImpulses& j = c.impulses;
    const Slide s = Slide::of(pose);
    if (p.enableMotor) {
        const float mass = inverseOrZero(c.iA + c.iB);
        v.applyAngular(
            motorImpulse(v.wB - v.wA, p.motorSpeed, mass, step.h * p.maxMotorForce, j.motor));
    }
    if (p.enableSpring && p.hertz > 0.0f)
        s.pushAlong(v,
                    springImpulse(s.translation, s.axialSpeed(v), c.axialMass, c.spring, j.spring));
    // The anchor stays on the line.
    const float mass = inverseOrZero(c.mA + c.mB + c.iA * s.s1 * s.s1 + c.iB * s.s2 * s.s2);
    const float Cdot = dot(s.perp, v.vB - v.vA) + s.s2 * v.wB - s.s1 * v.wA;
    const float impulse =
        rigidImpulse(dot(s.perp, pose.d), Cdot, mass, step, useBias, j.perpendicular);
    v.applyLinear(impulse * s.perp, impulse * s.s1, impulse * s.s2);
}

JointReactionImpulse reactionWheel(const JointConstraint& c, const JointPose& pose) noexcept {
    const Slide s = Slide::of(pose);
    const JointImpulses& j = c.impulses;
    return {j.spring * s.axis + j.perpendicular * s.perp, j.motor};
}

} // namespace rigid2d::detail
