// Weld joint: the point constraint of the revolute joint plus a locked relative rotation, each
// rigid or, with a hertz, a damped spring (a soft weld bends like a cantilever).
#include "solver/joint_kinds.hpp"

namespace rigid2d::detail {

void prepareWeld(JointConstraint& c, const JointStep& step) {
    const JointParams& p = c.params;
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

void solveWeld(JointVelocity& v, JointConstraint& c, const JointPose& pose, const JointStep& step,
               bool useBias) {
    const JointParams& p = c.params;
    JointImpulses& j = c.impulses;
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
