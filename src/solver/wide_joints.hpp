#pragma once
// The point joints W at a time (W = 4 or 8 lanes). Most joints of a large scene are plain revolute
// joints (no spring, motor or limit): a rigid point constraint, anchor B on anchor A, and nothing
// else. They are coloured like the contacts (contact_colouring.hpp; a chain shares a body between
// neighbours), packed W to a WideJoint in structure-of-arrays form and solved in SIMD lanes
// (wide_joint_kernels.hpp), each lane doing exactly what the scalar revolute joint does
// (revolute_joint.cpp, pointImpulse in joint_math.hpp): no lane depends on another, so either
// width gives the same bits. So a wide solve equals the scalar solve of the same joints in colour
// order, up to the sign of zeros. The block holds only what the substeps read: 60 bytes a joint.
// The other revolute joints (a ragdoll's: limited, motorised, sprung) take the same way with their
// angular rows beside the point (WideRevolute).

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "solver/contact_colouring.hpp"
#include "solver/contact_groups.hpp"
#include "solver/joint_types.hpp"
#include "solver/wide_contacts.hpp"

namespace rigid2d::detail {

/// W point joints. An unused lane points at the static slot with zero masses: its arithmetic
/// applies zero impulses.
template <int W>
struct alignas(4 * W) WideJoint {
    std::uint32_t bodyA[W], bodyB[W];
    std::uint32_t joint[W]; ///< index into the joint array, kNoWideJoint if unused
    float frameAX[W], frameAY[W], frameBX[W], frameBY[W];
    float deltaCenterX[W], deltaCenterY[W];
    float mA[W], iA[W], mB[W], iB[W];
    float impulseX[W], impulseY[W];
};

inline constexpr std::uint32_t kNoWideJoint = 0xFFFFFFFFu;

/// A revolute joint with a spring, motor or limit: the point part as above, and about it the
/// scalar rows on the relative rotation (revolute_joint.cpp), each on where its lane's joint has
/// it.
template <int W>
struct alignas(4 * W) WideRevolute {
    WideJoint<W> point;
    float deltaAngle[W];
    float axialMass[W];
    float springOn[W], springBiasRate[W], springMassScale[W], springImpulseScale[W];
    float motorOn[W], motorSpeed[W], maxMotorImpulse[W];
    float limitOn[W], lower[W], upper[W];
    float springImpulse[W], motorImpulse[W], lowerImpulse[W], upperImpulse[W];
};

/// A joint the wide loops may take, and how. The kind is read once, in joint order: packing
/// visits the joints in colour order, where reading it again cost a cache miss per joint.
struct WideJointCandidate {
    std::uint32_t joint;
    WideJointKind kind;
    bool operator==(const WideJointCandidate&) const = default;
};

/// Packs the coloured joints W to a block, segment by segment (contact_groups.hpp: a colour of a
/// group, each starting new blocks; the overflow list is left alone): the point joints into
/// `points`, the other revolute joints into `revolutes`, with their springs for substeps of
/// `step`; `order` indexes `candidates`, which index `joints`. blocksAt[k] is where segment k's
/// blocks start in the two, blocksAt[segments.size()] their end.
template <int W>
void packWideJoints(std::span<const JointConstraint> joints,
                    std::span<const WideJointCandidate> candidates,
                    std::span<const std::uint32_t> order, std::span<const JointSegment> segments,
                    const JointStep& step, std::vector<WideJoint<W>>& points,
                    std::vector<WideRevolute<W>>& revolutes, std::span<JointBlocksAt> blocksAt);

/// Copies the accumulated impulses of each used lane back to its joint.
template <int W>
void storeWideJointImpulses(std::span<const WideJoint<W>> points,
                            std::span<const WideRevolute<W>> revolutes,
                            std::span<JointConstraint> joints);

} // namespace rigid2d::detail
