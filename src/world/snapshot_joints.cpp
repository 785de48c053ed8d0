#include "world/snapshot_joints.hpp"

#include <cmath>

#include "world/snapshot_fields.hpp"

namespace rigid2d::detail {

namespace {

constexpr std::string_view kRestore = "World::restore";

void bad(bool ok, std::string_view what) { require(ok, kRestore, "bytes", what); }

bool inRange(float value, float low, float high) { return value >= low && value <= high; }

bool isUnit(Vec2 v) {
    const double length = double{v.x} * double{v.x} + double{v.y} * double{v.y};
    return length > 0.99 && length < 1.01;
}

// The settings the create functions and setters accept (world_joints.cpp).
bool settingsFit(const Joint& joint) {
    const JointParams& p = joint.params;
    if (!inRange(p.hertz, 0.0f, kMaxHertz) || !inRange(p.dampingRatio, 0.0f, kMaxHertz) ||
        !inRange(p.angularHertz, 0.0f, kMaxHertz) ||
        !inRange(p.angularDampingRatio, 0.0f, kMaxHertz) ||
        !inRange(p.lower, -kMaxJointRange, kMaxJointRange) ||
        !inRange(p.upper, p.lower, kMaxJointRange) ||
        !inRange(p.motorSpeed, -kMaxJointSpeed, kMaxJointSpeed) ||
        !inRange(p.maxMotorForce, 0.0f, kMaxJointForce) ||
        !inRange(p.maxForce, 0.0f, kMaxJointForce))
        return false;
    const double reach = 2.0 * double{kMaxJointReach};
    for (const Vec2 anchor : {joint.localAnchorA, joint.localAnchorB})
        if (std::fabs(double{anchor.x}) > reach || std::fabs(double{anchor.y}) > reach)
            return false;
    switch (joint.type) {
    case JointType::Distance:
        return p.lower >= kMinJointLength && inRange(p.length, p.lower, p.upper);
    case JointType::Prismatic:
    case JointType::Wheel: return isUnit(joint.localAxisA);
    case JointType::Mouse: return p.hertz > 0.0f;
    default: return true;
    }
}

bool liveBody(const WorldState& s, std::uint32_t b) {
    return b < s.bodies.size() && s.bodies[b].live;
}

void readJoint(ByteReader& r, WorldState& s, Joint& joint) {
    SnapshotIn in(r.take(recordSizes().joint), kRestore);
    jointFields(in, joint);
    bad(static_cast<int>(joint.type) <= static_cast<int>(JointType::Mouse),
        "hold a joint of an unknown kind");
    const std::uint32_t a = joint.edges[0].body, b = joint.edges[1].body;
    if (joint.type == JointType::Mouse) {
        bad(a == kNullIndex && liveBody(s, b) && s.bodies[b].type == BodyType::Dynamic,
            "hold a mouse joint without its dynamic body");
        // Any finite target: setMouseTarget bounds its reach, but the body may move any distance
        // from it afterwards (pushed, or placed by setTransform), and such a world must restore.
    } else {
        bad(liveBody(s, a) && liveBody(s, b) && a != b &&
                (s.bodies[a].type != BodyType::Static || s.bodies[b].type != BodyType::Static),
            "hold a joint whose bodies do not exist, are one, or are both static");
    }
    // Impulses: any finite ones (see manifoldFits in world_restore.cpp).
    bad(settingsFit(joint), "hold joint settings out of range");
}

// One body's joints in list order, linked as its doubly linked list; `listed` marks (joint,
// side) so each joint is listed once by each of its bodies.
void readJointList(ByteReader& r, WorldState& s, std::uint32_t b,
                   std::vector<std::uint8_t>& listed) {
    const std::size_t count = r.getCount(4);
    std::uint32_t previous = kNullIndex;
    JointEdge* previousEdge = nullptr;
    for (std::size_t k = 0; k < count; ++k) {
        const auto j = r.get<std::uint32_t>();
        bad(j < s.joints.size() && s.joints[j].live, "list a joint that does not exist");
        Joint& joint = s.joints[j];
        const int side = sideOf(joint, b);
        bad(joint.edges[side].body == b && !listed[2 * std::size_t{j} + side],
            "hold a body joint list that does not match the joints");
        listed[2 * std::size_t{j} + side] = 1;
        JointEdge& edge = joint.edges[side];
        edge.prev = previous;
        edge.next = kNullIndex;
        (previousEdge != nullptr ? previousEdge->next : s.bodies[b].firstJoint) = j;
        previous = j;
        previousEdge = &edge;
    }
}

} // namespace

void writeJoints(const WorldState& s, ByteWriter& w) {
    const std::size_t bytes = recordSizes().joint;
    w.putCount(s.joints.size());
    for (const Joint& joint : s.joints) {
        w.put(joint.generation);
        w.put(joint.live);
        if (!joint.live) continue;
        SnapshotOut out(w.room(bytes));
        jointFields(out, joint);
    }
    for (std::uint32_t b = 0; b < s.bodies.size(); ++b) {
        if (!s.bodies[b].live) continue;
        std::size_t count = 0;
        for (std::uint32_t j = s.bodies[b].firstJoint; j != kNullIndex;
             j = s.joints[j].edges[sideOf(s.joints[j], b)].next)
            ++count;
        w.putCount(count);
        for (std::uint32_t j = s.bodies[b].firstJoint; j != kNullIndex;
             j = s.joints[j].edges[sideOf(s.joints[j], b)].next)
            w.put(j);
    }
    w.putCount(s.jointPool.freeList().size());
    for (const std::uint32_t j : s.jointPool.freeList()) w.put(j);
}

void readJoints(ByteReader& r, WorldState& s) {
    s.joints.resize(r.getCount(5));
    for (Joint& joint : s.joints) {
        joint.generation = r.get<std::uint32_t>();
        joint.live = r.getBool();
        if (!joint.live) continue;
        readJoint(r, s, joint);
        ++s.jointCount;
    }
    std::vector<std::uint8_t> listed(2 * s.joints.size(), 0);
    for (std::uint32_t b = 0; b < s.bodies.size(); ++b)
        if (s.bodies[b].live) readJointList(r, s, b, listed);
    for (std::uint32_t j = 0; j < s.joints.size(); ++j) {
        const Joint& joint = s.joints[j];
        if (!joint.live) continue;
        bad((joint.edges[0].body == kNullIndex || listed[2 * std::size_t{j}]) &&
                listed[2 * std::size_t{j} + 1],
            "leave a joint out of a body's list");
    }
    // The free list names exactly the dead slots that may be reused, each once.
    s.jointPool.freeList().resize(r.getCount(4));
    std::vector<std::uint8_t> seen(s.joints.size(), 0);
    std::size_t reusable = 0;
    for (const Joint& joint : s.joints) reusable += !joint.live && joint.generation != 0 ? 1 : 0;
    for (std::uint32_t& j : s.jointPool.freeList()) {
        j = r.get<std::uint32_t>();
        bad(j < s.joints.size() && !s.joints[j].live && s.joints[j].generation != 0 && !seen[j],
            "hold a joint free list that names a live, retired or repeated slot");
        seen[j] = 1;
    }
    bad(reusable == s.jointPool.freeList().size(),
        "hold a joint free list that leaves out a free slot");
    // Jointed bodies share an island: both awake or both asleep (a static one aside).
    for (const Joint& joint : s.joints) {
        if (!joint.live || joint.edges[0].body == kNullIndex) continue;
        const Body& a = s.bodies[joint.edges[0].body];
        const Body& b = s.bodies[joint.edges[1].body];
        bad(a.type != BodyType::Dynamic || b.type != BodyType::Dynamic || a.awake == b.awake,
            "hold a joint between an awake and a sleeping body");
    }
}

} // namespace rigid2d::detail
