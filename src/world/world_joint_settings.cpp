// World's joint getters and setters: the joint's kind checked against the setting, the value
// checked, then set; setters wake the bodies so the change takes effect.
#include <cmath>
#include <initializer_list>
#include <string>

#include "core/check.hpp"
#include "rigid2d/world.hpp"
#include "state/world_state.hpp"
#include "world/joint_checks.hpp"

namespace rigid2d {

using detail::Body;
using detail::Joint;
using detail::kNullIndex;
using detail::require;

namespace {

std::string_view kindName(JointType type) {
    switch (type) {
    case JointType::Revolute: return "revolute";
    case JointType::Distance: return "distance";
    case JointType::Prismatic: return "prismatic";
    case JointType::Weld: return "weld";
    case JointType::Wheel: return "wheel";
    case JointType::Mouse: return "mouse";
    }
    return "unknown";
}

/// The live joint `id` if its kind is one of `kinds`, else a refusal naming them.
Joint& jointOf(detail::WorldState& s, JointId id, std::string_view fn,
               std::initializer_list<JointType> kinds) {
    Joint& joint = s.checkedJoint(id, fn);
    std::string names;
    for (const JointType kind : kinds) {
        if (kind == joint.type) return joint;
        names += (names.empty() ? "" : " or ") + std::string(kindName(kind));
    }
    detail::refuse(fn, "joint",
                   "must be a " + names + " joint, got a " + std::string(kindName(joint.type)));
}

/// A setter: checks done, the joint changes, its bodies wake.
Joint& changing(detail::WorldState& s, JointId id, std::string_view fn,
                std::initializer_list<JointType> kinds) {
    s.requireUnlocked(fn);
    return jointOf(s, id, fn, kinds);
}

void wakeJoint(detail::WorldState& s, const Joint& joint) {
    if (joint.edges[0].body != kNullIndex) s.wake(joint.edges[0].body);
    s.wake(joint.edges[1].body);
}

Vec2 worldAnchor(const Body& body, Vec2 local) { return body.position + rotate(body.rot, local); }

constexpr auto kLimited = {JointType::Revolute, JointType::Prismatic, JointType::Distance};
constexpr auto kMotorised = {JointType::Revolute, JointType::Prismatic, JointType::Wheel};
constexpr auto kSprung = {JointType::Revolute, JointType::Distance, JointType::Prismatic,
                          JointType::Wheel,    JointType::Weld,     JointType::Mouse};
constexpr auto kSpringSwitch = {JointType::Revolute, JointType::Distance, JointType::Prismatic,
                                JointType::Wheel};

} // namespace

JointType World::jointType(JointId id) const {
    return m_state->checkedJoint(id, "World::jointType").type;
}

BodyId World::jointBodyA(JointId id) const {
    const Joint& joint = m_state->checkedJoint(id, "World::jointBodyA");
    return joint.edges[0].body == kNullIndex ? BodyId{} : m_state->bodyId(joint.edges[0].body);
}

BodyId World::jointBodyB(JointId id) const {
    return m_state->bodyId(m_state->checkedJoint(id, "World::jointBodyB").edges[1].body);
}

Vec2 World::jointAnchorA(JointId id) const {
    const Joint& joint = m_state->checkedJoint(id, "World::jointAnchorA");
    if (joint.edges[0].body == kNullIndex) return joint.target;
    return worldAnchor(m_state->bodies[joint.edges[0].body], joint.localAnchorA);
}

Vec2 World::jointAnchorB(JointId id) const {
    const Joint& joint = m_state->checkedJoint(id, "World::jointAnchorB");
    return worldAnchor(m_state->bodies[joint.edges[1].body], joint.localAnchorB);
}

bool World::jointCollideConnected(JointId id) const {
    return m_state->checkedJoint(id, "World::jointCollideConnected").collideConnected;
}

std::uint64_t World::userData(JointId id) const {
    return m_state->checkedJoint(id, "World::userData").userData;
}

void World::setUserData(JointId id, std::uint64_t userData) {
    m_state->checkedJoint(id, "World::setUserData").userData = userData;
}

Vec2 World::jointReactionForce(JointId id) const {
    return m_state->checkedJoint(id, "World::jointReactionForce").reactionForce;
}

float World::jointReactionTorque(JointId id) const {
    return m_state->checkedJoint(id, "World::jointReactionTorque").reactionTorque;
}

float World::jointAngle(JointId id) const {
    auto& s = *m_state;
    const Joint& joint =
        jointOf(s, id, "World::jointAngle", {JointType::Revolute, JointType::Weld});
    return s.bodies[joint.edges[1].body].angle - s.bodies[joint.edges[0].body].angle -
           joint.referenceAngle;
}

float World::jointTranslation(JointId id) const {
    auto& s = *m_state;
    const Joint& joint =
        jointOf(s, id, "World::jointTranslation", {JointType::Prismatic, JointType::Wheel});
    const Body& a = s.bodies[joint.edges[0].body];
    const Body& b = s.bodies[joint.edges[1].body];
    const Vec2 d = worldAnchor(b, joint.localAnchorB) - worldAnchor(a, joint.localAnchorA);
    return detail::dot(rotate(a.rot, joint.localAxisA), d);
}

// --- limits

void World::enableJointLimit(JointId id, bool enable) {
    constexpr std::string_view fn = "World::enableJointLimit";
    Joint& joint = changing(*m_state, id, fn, {JointType::Revolute, JointType::Prismatic});
    if (joint.params.enableLimit == enable) return;
    joint.params.enableLimit = enable;
    joint.impulses.lower = joint.impulses.upper = 0.0f;
    wakeJoint(*m_state, joint);
}

void World::setJointLimits(JointId id, float lower, float upper) {
    constexpr std::string_view fn = "World::setJointLimits";
    Joint& joint = changing(*m_state, id, fn, kLimited);
    detail::checkLimits(fn, "lower", lower, "upper", upper);
    if (joint.type == JointType::Distance) {
        require(lower >= 0.0f, fn, "lower", "must be >= 0 (a length)", lower);
        lower = std::max(lower, kMinJointLength);
        upper = std::max(upper, lower);
        joint.params.length = std::clamp(joint.params.length, lower, upper);
    }
    joint.params.lower = lower;
    joint.params.upper = upper;
    joint.impulses.lower = joint.impulses.upper = 0.0f;
    wakeJoint(*m_state, joint);
}

bool World::isJointLimitEnabled(JointId id) const {
    return jointOf(*m_state, id, "World::isJointLimitEnabled",
                   {JointType::Revolute, JointType::Prismatic})
        .params.enableLimit;
}
float World::jointLowerLimit(JointId id) const {
    return jointOf(*m_state, id, "World::jointLowerLimit", kLimited).params.lower;
}
float World::jointUpperLimit(JointId id) const {
    return jointOf(*m_state, id, "World::jointUpperLimit", kLimited).params.upper;
}

// --- motors

void World::enableJointMotor(JointId id, bool enable) {
    Joint& joint = changing(*m_state, id, "World::enableJointMotor", kMotorised);
    if (joint.params.enableMotor == enable) return;
    joint.params.enableMotor = enable;
    joint.impulses.motor = 0.0f;
    wakeJoint(*m_state, joint);
}

void World::setJointMotorSpeed(JointId id, float speed) {
    constexpr std::string_view fn = "World::setJointMotorSpeed";
    Joint& joint = changing(*m_state, id, fn, kMotorised);
    detail::checkRange(fn, "speed", speed, kMaxJointSpeed);
    joint.params.motorSpeed = speed;
    wakeJoint(*m_state, joint);
}

void World::setJointMaxMotorForce(JointId id, float maxForce) {
    constexpr std::string_view fn = "World::setJointMaxMotorForce";
    Joint& joint = changing(*m_state, id, fn, kMotorised);
    detail::checkForce(fn, "maxForceOrTorque", maxForce);
    joint.params.maxMotorForce = maxForce;
    wakeJoint(*m_state, joint);
}

bool World::isJointMotorEnabled(JointId id) const {
    return jointOf(*m_state, id, "World::isJointMotorEnabled", kMotorised).params.enableMotor;
}
float World::jointMotorSpeed(JointId id) const {
    return jointOf(*m_state, id, "World::jointMotorSpeed", kMotorised).params.motorSpeed;
}
float World::jointMaxMotorForce(JointId id) const {
    return jointOf(*m_state, id, "World::jointMaxMotorForce", kMotorised).params.maxMotorForce;
}

// --- springs

void World::enableJointSpring(JointId id, bool enable) {
    Joint& joint = changing(*m_state, id, "World::enableJointSpring", kSpringSwitch);
    if (joint.params.enableSpring == enable) return;
    joint.params.enableSpring = enable;
    joint.impulses.spring = 0.0f;
    wakeJoint(*m_state, joint);
}

void World::setJointSpring(JointId id, float hertz, float dampingRatio) {
    constexpr std::string_view fn = "World::setJointSpring";
    Joint& joint = changing(*m_state, id, fn, kSprung);
    detail::checkSpring(fn, "hertz", hertz, "dampingRatio", dampingRatio);
    require(joint.type != JointType::Mouse || hertz > 0.0f, fn, "hertz",
            "must be > 0 for a mouse joint", hertz);
    joint.params.hertz = hertz;
    joint.params.dampingRatio = dampingRatio;
    wakeJoint(*m_state, joint);
}

void World::setWeldAngularSpring(JointId id, float hertz, float dampingRatio) {
    constexpr std::string_view fn = "World::setWeldAngularSpring";
    Joint& joint = changing(*m_state, id, fn, {JointType::Weld});
    detail::checkSpring(fn, "hertz", hertz, "dampingRatio", dampingRatio);
    joint.params.angularHertz = hertz;
    joint.params.angularDampingRatio = dampingRatio;
    wakeJoint(*m_state, joint);
}

bool World::isJointSpringEnabled(JointId id) const {
    return jointOf(*m_state, id, "World::isJointSpringEnabled", kSpringSwitch).params.enableSpring;
}
float World::jointSpringHertz(JointId id) const {
    return jointOf(*m_state, id, "World::jointSpringHertz", kSprung).params.hertz;
}
float World::jointSpringDampingRatio(JointId id) const {
    return jointOf(*m_state, id, "World::jointSpringDampingRatio", kSprung).params.dampingRatio;
}

// --- distance, mouse

void World::setJointLength(JointId id, float length) {
    constexpr std::string_view fn = "World::setJointLength";
    Joint& joint = changing(*m_state, id, fn, {JointType::Distance});
    detail::checkLength(fn, "length", length);
    joint.params.length = std::clamp(length, joint.params.lower, joint.params.upper);
    joint.impulses.length = 0.0f;
    wakeJoint(*m_state, joint);
}

float World::jointLength(JointId id) const {
    return jointOf(*m_state, id, "World::jointLength", {JointType::Distance}).params.length;
}

void World::setJointTarget(JointId id, Vec2 target) {
    constexpr std::string_view fn = "World::setJointTarget";
    auto& s = *m_state;
    Joint& joint = changing(s, id, fn, {JointType::Mouse});
    const Body& body = s.bodies[joint.edges[1].body];
    require(isFinite(target) &&
                std::fabs(double{target.x} - double{body.position.x}) <= double{kMaxJointReach} &&
                std::fabs(double{target.y} - double{body.position.y}) <= double{kMaxJointReach},
            fn, "target", "must be finite and within kMaxJointReach = 1e8 m of the body", target);
    joint.target = target;
    wakeJoint(s, joint);
}

Vec2 World::jointTarget(JointId id) const {
    return jointOf(*m_state, id, "World::jointTarget", {JointType::Mouse}).target;
}

void World::setJointMaxForce(JointId id, float maxForce) {
    constexpr std::string_view fn = "World::setJointMaxForce";
    Joint& joint = changing(*m_state, id, fn, {JointType::Mouse});
    detail::checkForce(fn, "maxForce", maxForce);
    joint.params.maxForce = maxForce;
    wakeJoint(*m_state, joint);
}

// --- what a saved scene needs to rebuild the joint

Vec2 World::jointAxis(JointId id) const {
    auto& s = *m_state;
    const Joint& joint =
        jointOf(s, id, "World::jointAxis", {JointType::Prismatic, JointType::Wheel});
    return rotate(s.bodies[joint.edges[0].body].rot, joint.localAxisA);
}

float World::weldAngularSpringHertz(JointId id) const {
    return jointOf(*m_state, id, "World::weldAngularSpringHertz", {JointType::Weld})
        .params.angularHertz;
}

float World::weldAngularSpringDampingRatio(JointId id) const {
    return jointOf(*m_state, id, "World::weldAngularSpringDampingRatio", {JointType::Weld})
        .params.angularDampingRatio;
}

} // namespace rigid2d
