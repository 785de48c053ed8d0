#pragma once
// The point joints four at a time. Most joints of a large scene are plain revolute joints (no
// spring, motor or limit): a rigid point constraint, anchor B on anchor A, and nothing else. They
// are coloured like the contacts (contact_colouring.hpp; a chain shares a body between
// neighbours), packed four to a WideJoint in structure-of-arrays form and solved in SIMD lanes,
// each lane doing exactly what the scalar revolute joint does (revolute_joint.cpp, pointImpulse
// in joint_math.hpp). So a wide solve equals the scalar solve of the same joints in colour order,
// up to the sign of zeros. The block holds only what the substeps read: 60 bytes a joint. The
// other revolute joints (a ragdoll's: limited, motorised, sprung) take the same way with their
// angular rows beside the point (WideRevolute).

#include <cstdint>
#include <span>
#include <vector>

#include "solver/contact_colouring.hpp"
#include "solver/joint_types.hpp"
#include "solver/wide_contacts.hpp"

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

/// A revolute joint with a spring, motor or limit: the point part as above, and about it the
/// scalar rows on the relative rotation (revolute_joint.cpp), each on where its lane's joint has
/// it.
struct alignas(16) WideRevolute {
    WideJoint point;
    float deltaAngle[4];
    float axialMass[4];
    float springOn[4], springBiasRate[4], springMassScale[4], springImpulseScale[4];
    float motorOn[4], motorSpeed[4], maxMotorImpulse[4];
    float limitOn[4], lower[4], upper[4];
    float springImpulse[4], motorImpulse[4], lowerImpulse[4], upperImpulse[4];
};

/// How the wide loops take a joint: a plain point joint (a revolute joint whose spring, motor and
/// limit are off and hold no impulse), another revolute joint, or not at all (the other kinds).
enum class WideJointKind : std::uint8_t { None, Point, Revolute };
[[nodiscard]] WideJointKind wideJointKind(const JointConstraint& c) noexcept;

/// Packs the coloured joints four to a block, colour by colour (the overflow list is left
/// alone): the point joints into `points`, the other revolute joints into `revolutes`, with their
/// springs for substeps of `step`; `colouring` indexes `candidates`, which indexes `joints`.
/// `pointBlocks` and `revoluteBlocks` say where each colour starts in the two.
void packWideJoints(std::span<const JointConstraint> joints,
                    std::span<const std::uint32_t> candidates, const ContactColouring& colouring,
                    const JointStep& step, std::vector<WideJoint>& points,
                    std::vector<WideRevolute>& revolutes, ColourBlocks& pointBlocks,
                    ColourBlocks& revoluteBlocks);

void warmStartWideJoints(std::span<SolverState> bodies, std::span<const WideJoint> wide);
/// One pass of the point constraint; `step.joint` is the joint softness.
void solveWideJoints(std::span<SolverState> bodies, std::span<WideJoint> wide,
                     const JointStep& step, bool useBias);
void warmStartWideRevolutes(std::span<SolverState> bodies, std::span<const WideRevolute> wide);
void solveWideRevolutes(std::span<SolverState> bodies, std::span<WideRevolute> wide,
                        const JointStep& step, bool useBias);
/// Copies the accumulated impulses of each used lane back to its joint.
void storeWideJointImpulses(std::span<const WideJoint> points,
                            std::span<const WideRevolute> revolutes,
                            std::span<JointConstraint> joints);

} // namespace rigid2d::detail
