#pragma once
// The joint solver: each kind of joint as soft constraints in the soft step (contact_solver.hpp
// runs them: joints are warm-started, solved and relaxed before the contacts in every substep, so
// a contact sees the joints' corrections of the same substep). One file per kind; they share the
// scalar building blocks of joint_math.hpp.

#include <span>

#include "solver/joint_types.hpp"

namespace rigid2d::detail {

void prepareJoint(JointConstraint& c, const JointStep& step);
void warmStartJoint(std::span<SolverState> bodies, const JointConstraint& c);
void solveJoint(std::span<SolverState> bodies, JointConstraint& c, const JointStep& step,
                bool useBias);

/// The force (N, on B, world frame) and torque (N m) the joint applied in the last substep.
struct JointReaction {
    Vec2 force{};
    float torque = 0.0f;
};
/// From the impulses of the last substep, with the bodies where the step left them.
[[nodiscard]] JointReaction jointReaction(std::span<const SolverState> bodies,
                                          const JointConstraint& c, float inverseH) noexcept;

} // namespace rigid2d::detail
