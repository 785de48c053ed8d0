// Mouse joint: a soft spring pulling a point of body B toward a target, its force capped so a
// dragged body pushes others but cannot be forced through them. Body A is the static slot: the
// gather puts the target where A's anchor would be (deltaCenter = centre of B - target).
#include <cmath>

#include "solver/joint_kinds.hpp"

namespace rigid2d::detail {

void prepareMouse(JointConstraint& c, const JointStep& step) {
    c.spring = makeSoftness(c.params->hertz, c.params->dampingRatio, step.h);
}

void warmStartMouse(JointVelocity& v, const JointConstraint& c, const JointPose& pose) {
    v.apply(c.impulses.linear, pose.rA, pose.rB);
}

void solveMouse(JointVelocity& v, JointConstraint& c, const JointPose& pose, const JointStep& step,
                bool) {
    Vec2& accumulated = c.impulses.linear;
    const Vec2 old = accumulated;
    (void)pointImpulse(v, pose, step, false, &c.spring, accumulated);
    const float maxImpulse = step.h * c.params->maxForce;
    const float lengthSq = dot(accumulated, accumulated);
    if (lengthSq > maxImpulse * maxImpulse) accumulated *= maxImpulse / std::sqrt(lengthSq);
    v.apply(accumulated - old, pose.rA, pose.rB);
}

JointReactionImpulse reactionMouse(const JointConstraint& c, const JointPose&) noexcept {
    return {c.impulses.linear, 0.0f};
}

} // namespace rigid2d::detail
