#pragma once
// Each kind of joint: prepare (effective masses, springs), warm start, solve. joint_solver.cpp
// dispatches on JointConstraint::type; the kinds live one per file.

#include "solver/joint_math.hpp"

namespace rigid2d::detail {

#define RIGID2D_JOINT_KIND(Kind)                                                                   \
    void prepare##Kind(JointConstraint& c, const JointStep& step);                                 \
    void warmStart##Kind(JointVelocity& v, const JointConstraint& c, const JointPose& pose);       \
    void solve##Kind(JointVelocity& v, JointConstraint& c, const JointPose& pose,                  \
                     const JointStep& step, bool useBias);                                         \
    [[nodiscard]] JointReactionImpulse reaction##Kind(const JointConstraint& c,                    \
                                                      const JointPose& pose) noexcept;

/// The impulse a joint applied to B in one substep.
struct JointReactionImpulse {
    Vec2 linear{};
    float angular = 0.0f;
};

RIGID2D_JOINT_KIND(Revolute)
RIGID2D_JOINT_KIND(Distance)
RIGID2D_JOINT_KIND(Prismatic)
RIGID2D_JOINT_KIND(Weld)
RIGID2D_JOINT_KIND(Wheel)
RIGID2D_JOINT_KIND(Mouse)

#undef RIGID2D_JOINT_KIND

} // namespace rigid2d::detail
