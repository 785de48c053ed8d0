// Distance joint: the anchors' distance held at `length` (rigid), or pulled toward it by a spring
// between hard limits at min and max length (a rope: no spring, a max length). Rows along the
// current axis between the anchors.
#include <cmath>

#include "solver/joint_kinds.hpp"

namespace rigid2d::detail {

namespace {

struct Axis {
    Vec2 u;
    float length;
};

[[nodiscard]] Axis axisOf(Vec2 d) noexcept {
    const float length = std::sqrt(dot(d, d));
    // The world keeps lengths >= linear slop; a pair of anchors that meet anyway pushes nowhere.
    return {length > 0.0f ? (1.0f / length) * d : Vec2{}, length};
}

[[nodiscard]] bool isRigid(const JointParams& p) noexcept {
    return !p.enableSpring || p.lower == p.upper;
}

} // namespace

void prepareDistance(JointConstraint& c, const JointStep& step) {
    const Axis axis = axisOf(c.deltaCenter + c.frameB - c.frameA);
    const float crA = cross(c.frameA, axis.u), crB = cross(c.frameB, axis.u);
    c.axialMass = inverseOrZero(c.mA + c.mB + c.iA * crA * crA + c.iB * crB * crB);
    const JointParams& p = *c.params;
    c.spring = springSoftness(p, step.h);
}

void warmStartDistance(JointVelocity& v, const JointConstraint& c, const JointPose& pose) {
    const JointImpulses& j = c.impulses;
    const float impulse = j.length + j.spring + j.lower - j.upper;
    v.apply(impulse * axisOf(pose.d).u, pose.rA, pose.rB);
}

void solveDistance(JointVelocity& v, JointConstraint& c, const JointPose& pose,
                   const JointStep& step, bool useBias) {
    const JointParams& p = *c.params;
    JointImpulses& j = c.impulses;
    const Axis axis = axisOf(pose.d);
    const float mass = c.axialMass;
    const auto Cdot = [&] { return dot(axis.u, v.relative(pose.rA, pose.rB)); };
    const auto push = [&](float impulse) { v.apply(impulse * axis.u, pose.rA, pose.rB); };
    if (isRigid(p)) {
        push(rigidImpulse(axis.length - p.length, Cdot(), mass, step, useBias, j.length));
        return;
    }
    if (p.hertz > 0.0f)
        push(springImpulse(axis.length - p.length, Cdot(), mass, c.spring, j.spring));
    push(limitImpulse(axis.length - p.lower, Cdot(), mass, step, useBias, j.lower));
    push(-limitImpulse(p.upper - axis.length, -Cdot(), mass, step, useBias, j.upper));
}

JointReactionImpulse reactionDistance(const JointConstraint& c, const JointPose& pose) noexcept {
    const JointImpulses& j = c.impulses;
    return {(j.length + j.spring + j.lower - j.upper) * axisOf(pose.d).u, 0.0f};
}

} // namespace rigid2d::detail
