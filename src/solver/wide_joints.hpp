#pragma once
// The point joints four at a time. Most joints of a large scene are plain revolute joints (no
// spring, motor or limit): a rigid point constraint, anchor B on anchor A, and nothing else. They
// are coloured like the contacts (contact_colouring.hpp; a chain shares a body between
// neighbours), packed four to a WideJoint in structure-of-arrays form and solved in SIMD lanes,
// each lane doing exactly what the scalar revolute joint does (revolute_joint.cpp, pointImpulse
// in joint_math.hpp). So a wide solve equals the scalar solve of the same joints in colour order,
// up to the sign of zeros. The block holds only what the substeps read: 60 bytes a joint.

#include <cstdint>
#include <span>
#include <vector>

#include "solver/contact_colouring.hpp"
#include "solver/joint_types.hpp"

namespace rigid2d::detail {

/// Four point joints. An unused lane points at the static slot with zero masses: its arithmetic
/// applies zero impulses.
struct alignas(16) WideJoint {
    std::uint32_t bodyA[4], bodyB[4];
    std::uint32_t joint[4]; ///< index into the joint array, kNoWideJoint if unused
    float frameAX[4], frameAY[4], frameBX[4], frameBY[4];
    float deltaCenterX[4], deltaCenterY[4];
    float mA[4], iA[4], mB[4], iB[4];
    float impulseX[4], impulseY[4];
};

inline constexpr std::uint32_t kNoWideJoint = 0xFFFFFFFFu;

/// Whether `c` is a plain point joint the wide loops solve: a revolute joint whose spring, motor
/// and limit are off and hold no impulse (their warm start would be a no-op).
[[nodiscard]] bool isWidePointJoint(const JointConstraint& c) noexcept;

/// Packs the coloured joints four to a block, colour by colour (the overflow list is left
/// alone); `colouring` indexes `candidates`, which indexes `joints`.
void packWideJoints(std::span<const JointConstraint> joints,
                    std::span<const std::uint32_t> candidates, const ContactColouring& colouring,
                    std::vector<WideJoint>& out);

void warmStartWideJoints(std::span<SolverState> bodies, std::span<const WideJoint> wide);
/// One pass of the point constraint; `soft` is the joint softness (JointStep::joint).
void solveWideJoints(std::span<SolverState> bodies, std::span<WideJoint> wide, const Softness& soft,
                     bool useBias);
/// Copies the accumulated impulse of each used lane back to its joint.
void storeWideJointImpulses(std::span<const WideJoint> wide, std::span<JointConstraint> joints);

} // namespace rigid2d::detail
