#include "solver/joint_solver.hpp"

#include "solver/joint_kinds.hpp"

namespace rigid2d::detail {

void prepareJoint(JointConstraint& c, const JointStep& step) {
    switch (c.type) {
    case JointType::Revolute: prepareRevolute(c, step); break;
    case JointType::Distance: prepareDistance(c, step); break;
    case JointType::Prismatic: preparePrismatic(c, step); break;
    case JointType::Weld: prepareWeld(c, step); break;
    case JointType::Wheel: prepareWheel(c, step); break;
    case JointType::Mouse: prepareMouse(c, step); break;
    }
}

void warmStartJoint(std::span<SolverState> bodies, const JointConstraint& c) {
    JointVelocity v = JointVelocity::load(bodies, c);
    const JointPose pose = JointPose::of(bodies, c);
    switch (c.type) {
    case JointType::Revolute: warmStartRevolute(v, c, pose); break;
    case JointType::Distance: warmStartDistance(v, c, pose); break;
    case JointType::Prismatic: warmStartPrismatic(v, c, pose); break;
    case JointType::Weld: warmStartWeld(v, c, pose); break;
    case JointType::Wheel: warmStartWheel(v, c, pose); break;
    case JointType::Mouse: warmStartMouse(v, c, pose); break;
    }
    v.store(bodies, c);
}

void solveJoint(std::span<SolverState> bodies, JointConstraint& c, const JointStep& step,
                bool useBias) {
    JointVelocity v = JointVelocity::load(bodies, c);
    const JointPose pose = JointPose::of(bodies, c);
    switch (c.type) {
    case JointType::Revolute: solveRevolute(v, c, pose, step, useBias); break;
    case JointType::Distance: solveDistance(v, c, pose, step, useBias); break;
    case JointType::Prismatic: solvePrismatic(v, c, pose, step, useBias); break;
    case JointType::Weld: solveWeld(v, c, pose, step, useBias); break;
    case JointType::Wheel: solveWheel(v, c, pose, step, useBias); break;
    case JointType::Mouse: solveMouse(v, c, pose, step, useBias); break;
    }
    v.store(bodies, c);
}

JointReaction jointReaction(std::span<const SolverState> bodies, const JointConstraint& c,
                            float inverseH) noexcept {
    // Only the reactions along a turning axis need the pose (most joints are revolute).
    const bool alongAxis = c.type == JointType::Distance || c.type == JointType::Prismatic ||
                           c.type == JointType::Wheel;
    const JointPose pose = alongAxis ? JointPose::of(bodies, c) : JointPose{};
    JointReactionImpulse impulse;
    switch (c.type) {
    case JointType::Revolute: impulse = reactionRevolute(c, pose); break;
    case JointType::Distance: impulse = reactionDistance(c, pose); break;
    case JointType::Prismatic: impulse = reactionPrismatic(c, pose); break;
    case JointType::Weld: impulse = reactionWeld(c, pose); break;
    case JointType::Wheel: impulse = reactionWheel(c, pose); break;
    case JointType::Mouse: impulse = reactionMouse(c, pose); break;
    }
    return {inverseH * impulse.linear, inverseH * impulse.angular};
}

} // namespace rigid2d::detail
