#pragma once
// A joint as the world stores it: one slot of a contiguous array, addressed by JointId.index and
// checked by its generation, linked into both bodies' joint lists so that destroying a body,
// waking an island and filtering collisions find a body's joints without a search.

#include <cstdint>

#include "solver/joint_types.hpp"
#include "state/body.hpp"

namespace rigid2d::detail {

/// Link of a joint in one body's list (edges[0] for body A, edges[1] for body B). A mouse joint
/// has no body A: its edges[0].body is kNullIndex.
struct JointEdge {
    std::uint32_t body = kNullIndex;
    std::uint32_t prev = kNullIndex; ///< previous joint in that body's list
    std::uint32_t next = kNullIndex;
};

struct Joint {
    std::uint32_t generation = 0;
    bool live = false;
    bool collideConnected = false;
    JointType type = JointType::Revolute;
    JointEdge edges[2];
    // Frames, kept in each body's own frame so that they follow it: anchors relative to the body
    // origin, the reference angle (B's angle minus A's at creation) and the axis in A's frame.
    Vec2 localAnchorA{};
    Vec2 localAnchorB{};
    float referenceAngle = 0.0f;
    Vec2 localAxisA{};
    Vec2 target{}; ///< mouse joint, world frame
    JointParams params;
    JointImpulses impulses; ///< warm start of the next step
    Vec2 reactionForce{};   ///< N, on B, in the last step
    float reactionTorque = 0.0f;
    std::uint64_t userData = 0;
};

/// Which of the joint's edges belongs to `body` (0: body A, 1: body B).
[[nodiscard]] inline int sideOf(const Joint& joint, std::uint32_t body) noexcept {
    return joint.edges[0].body == body ? 0 : 1;
}

} // namespace rigid2d::detail
