// Prismatic joint: B slides along an axis fixed in A without turning relative to A. Along the
// axis a spring, a motor and a translation range; across it and in rotation a rigid 2x2 block.
#include "solver/joint_kinds.hpp"

namespace rigid2d::detail {

void preparePrismatic(JointConstraint& c, const JointStep& step) {
    c.axialMass = slideMass(c);
    const JointParams& p = *c.params;
    c.spring = springSoftness(p, step.h);
}

void warmStartPrismatic(JointVelocity& v, const JointConstraint& c, const JointPose& pose) {
    const Slide s = Slide::of(pose);
    const JointImpulses& j = c.impulses;
    const float along = j.spring + j.motor + j.lower - j.upper;
    v.applyLinear(along * s.axis + j.perpendicular * s.perp,
                  along * s.a1 + j.perpendicular * s.s1 + j.angular,
                  along * s.a2 + j.perpendicular * s.s2 + j.angular);
}

void solvePrismatic(JointVelocity& v, JointConstraint& c, const JointPose& pose,
                    const JointStep& step, bool useBias) {
    const JointParams& p = *c.params;
    JointImpulses& j = c.impulses;
    const Slide s = Slide::of(pose);
    const float mass = c.axialMass;
    if (p.enableSpring && p.hertz > 0.0f)
        s.pushAlong(v, springImpulse(s.translation, s.axialSpeed(v), mass, c.spring, j.spring));
    if (p.enableMotor)
        s.pushAlong(v, motorImpulse(s.axialSpeed(v), p.motorSpeed, mass, step.h * p.maxMotorForce,
                                    j.motor));
    if (p.enableLimit) {
        s.pushAlong(v, limitImpulse(s.translation - p.lower, s.axialSpeed(v), mass, step, useBias,
                                    j.lower));
        s.pushAlong(v, -limitImpulse(p.upper - s.translation, -s.axialSpeed(v), mass, step, useBias,
                                     j.upper));
    }
    // Across the axis and in rotation together: a 2x2 block.
    const Vec2 Cdot{dot(s.perp, v.vB - v.vA) + s.s2 * v.wB - s.s1 * v.wA, v.wB - v.wA};
    Vec2 bias{};
    float massScale = 1.0f, impulseScale = 0.0f;
    if (useBias) {
        bias = step.joint.biasRate * Vec2{dot(s.perp, pose.d), pose.angle};
        massScale = step.joint.massScale;
        impulseScale = step.joint.impulseScale;
    }
    const float k22 = c.iA + c.iB;
    const Mat22 k{c.mA + c.mB + c.iA * s.s1 * s.s1 + c.iB * s.s2 * s.s2, c.iA * s.s1 + c.iB * s.s2,
                  k22 > 0.0f ? k22 : 1.0f};
    const Vec2 accumulated{j.perpendicular, j.angular};
    const Vec2 impulse = -massScale * k.solve(Cdot + bias) - impulseScale * accumulated;
    j.perpendicular += impulse.x;
    j.angular += impulse.y;
    v.applyLinear(impulse.x * s.perp, impulse.x * s.s1 + impulse.y, impulse.x * s.s2 + impulse.y);
}

JointReactionImpulse reactionPrismatic(const JointConstraint& c, const JointPose& pose) noexcept {
    const Slide s = Slide::of(pose);
    const JointImpulses& j = c.impulses;
    const float along = j.spring + j.motor + j.lower - j.upper;
    return {along * s.axis + j.perpendicular * s.perp, j.angular};
}

} // namespace rigid2d::detail
