// The joint slots and the bodies' joint lists (world_state.hpp).
#include "state/world_state.hpp"

#include "core/check.hpp"

namespace rigid2d::detail {

Joint& WorldState::checkedJoint(JointId id, std::string_view function) {
    require(isLive(id), function, "joint",
            "must be a live joint of this world (stale, null or foreign id)");
    return joints[id.index];
}

std::uint32_t WorldState::createJoint(const Joint& joint) {
    const std::uint32_t index = jointPool.take(joints);
    const std::uint32_t generation = SlotPool::generationFor(joints[index].generation);
    Joint& slot = joints[index];
    slot = joint;
    slot.generation = generation;
    slot.live = true;
    for (int side = 0; side < 2; ++side) {
        JointEdge& edge = slot.edges[side];
        edge.prev = kNullIndex;
        edge.next = kNullIndex;
        if (edge.body == kNullIndex) continue;
        Body& body = bodies[edge.body];
        edge.next = body.firstJoint;
        if (body.firstJoint != kNullIndex) {
            Joint& head = joints[body.firstJoint];
            head.edges[sideOf(head, edge.body)].prev = index;
        }
        body.firstJoint = index;
    }
    ++jointCount;
    const std::uint32_t bodyA = slot.edges[0].body, bodyB = slot.edges[1].body;
    if (bodyA != kNullIndex) wake(bodyA);
    wake(bodyB);
    if (bodyA != kNullIndex && !slot.collideConnected) {
        forEachContactOf(bodyA, [&](std::uint32_t c, std::uint32_t other) {
            if (other == bodyB) destroyContact(c, true);
        });
    }
    return index;
}

void WorldState::destroyJointSlot(std::uint32_t jointIndex) {
    Joint& joint = joints[jointIndex];
    for (int side = 0; side < 2; ++side) {
        const JointEdge& edge = joint.edges[side];
        if (edge.body == kNullIndex) continue;
        Body& body = bodies[edge.body];
        if (edge.prev != kNullIndex) {
            Joint& prev = joints[edge.prev];
            prev.edges[sideOf(prev, edge.body)].next = edge.next;
        } else {
            body.firstJoint = edge.next;
        }
        if (edge.next != kNullIndex) {
            Joint& next = joints[edge.next];
            next.edges[sideOf(next, edge.body)].prev = edge.prev;
        }
    }
    const std::uint32_t bodyA = joint.edges[0].body, bodyB = joint.edges[1].body;
    const bool filtered = bodyA != kNullIndex && !joint.collideConnected;
    jointPool.release(joints, jointIndex);
    --jointCount;
    if (bodyA != kNullIndex) wake(bodyA);
    wake(bodyB);
    // Pairs are only searched for proxies that moved: the bodies' overlapping shapes would not
    // meet again until one of them left its fat box.
    if (filtered && !jointForbidsCollision(bodyA, bodyB))
        for (const std::uint32_t b : {bodyA, bodyB})
            for (std::uint32_t s = bodies[b].firstShape; s != kNullIndex; s = shapes[s].nextInBody)
                markMoved(s);
}

bool WorldState::jointForbidsCollision(std::uint32_t bodyA, std::uint32_t bodyB) const noexcept {
    if (bodies[bodyA].firstJoint == kNullIndex || bodies[bodyB].firstJoint == kNullIndex)
        return false;
    for (std::uint32_t j = bodies[bodyA].firstJoint; j != kNullIndex;) {
        const Joint& joint = joints[j];
        const int side = sideOf(joint, bodyA);
        if (joint.edges[1 - side].body == bodyB && !joint.collideConnected) return true;
        j = joint.edges[side].next;
    }
    return false;
}

} // namespace rigid2d::detail
