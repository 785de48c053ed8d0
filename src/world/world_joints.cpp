// World's joint creation and destruction: every field checked, then the joint linked (WorldState).
#include <algorithm>
#include <cmath>
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
using detail::requireFinite;

namespace {

/// A limit, a motor and a spring as revolute, prismatic and wheel joints take them: checked, then
/// set in the joint's settings.
void setLimit(std::string_view fn, detail::JointParams& p, bool enable, std::string_view lowerField,
              float lower, std::string_view upperField, float upper) {
    detail::checkLimits(fn, lowerField, lower, upperField, upper);
    p.enableLimit = enable;
    p.lower = lower;
    p.upper = upper;
}

void setMotor(std::string_view fn, detail::JointParams& p, bool enable, float speed,
              std::string_view maxField, float maxForce) {
    detail::checkRange(fn, "def.motorSpeed", speed, kMaxJointSpeed);
    detail::checkForce(fn, maxField, maxForce);
    p.enableMotor = enable;
    p.motorSpeed = speed;
    p.maxMotorForce = maxForce;
}

void setSpring(std::string_view fn, detail::JointParams& p, bool enable, float hertz,
               float dampingRatio) {
    detail::checkSpring(fn, "def.hertz", hertz, "def.dampingRatio", dampingRatio);
    p.enableSpring = enable;
    p.hertz = hertz;
    p.dampingRatio = dampingRatio;
}

/// `point` (world frame) in the body's frame, refused unless within kMaxJointReach of its origin.
/// Taken in double: a far point minus a far origin may overflow a float.
Vec2 localPoint(std::string_view fn, std::string_view field, const Body& body, Vec2 point) {
    requireFinite(fn, field, point);
    const double dx = double{point.x} - double{body.position.x};
    const double dy = double{point.y} - double{body.position.y};
    require(std::fabs(dx) <= double{kMaxJointReach} && std::fabs(dy) <= double{kMaxJointReach}, fn,
            field, "must be within kMaxJointReach = 1e8 m of the body's origin", point);
    return invRotate(body.rot, Vec2{static_cast<float>(dx), static_cast<float>(dy)});
}

/// A unit axis in A's frame from a non-zero world axis.
Vec2 localAxis(std::string_view fn, const Body& bodyA, Vec2 axis) {
    requireFinite(fn, "def.axis", axis);
    const double length = std::hypot(double{axis.x}, double{axis.y});
    require(length > 0.0, fn, "def.axis", "must be a non-zero vector", axis);
    const Vec2 unit{static_cast<float>(double{axis.x} / length),
                    static_cast<float>(double{axis.y} / length)};
    return invRotate(bodyA.rot, unit);
}

/// The joint's bodies and anchors, checked; the kind's settings are the caller's.
Joint frameJoint(detail::WorldState& s, std::string_view fn, JointType type, const JointDef& def,
                 Vec2 anchorA, std::string_view fieldA, Vec2 anchorB, std::string_view fieldB) {
    s.requireUnlocked(fn);
    require(s.isLive(def.bodyA), fn, "def.bodyA",
            "must be a live body of this world (stale, null or foreign id)");
    require(s.isLive(def.bodyB), fn, "def.bodyB",
            "must be a live body of this world (stale, null or foreign id)");
    require(def.bodyA != def.bodyB, fn, "def.bodyB", "must differ from def.bodyA");
    const Body& a = s.bodies[def.bodyA.index];
    const Body& b = s.bodies[def.bodyB.index];
    require(a.type != BodyType::Static || b.type != BodyType::Static, fn, "def.bodyB",
            "must not be static when def.bodyA is static");
    Joint joint;
    joint.type = type;
    joint.collideConnected = def.collideConnected;
    joint.userData = def.userData;
    joint.edges[0].body = def.bodyA.index;
    joint.edges[1].body = def.bodyB.index;
    joint.localAnchorA = localPoint(fn, fieldA, a, anchorA);
    joint.localAnchorB = localPoint(fn, fieldB, b, anchorB);
    joint.referenceAngle = b.angle - a.angle;
    return joint;
}

JointId link(detail::WorldState& s, const Joint& joint) { return s.jointId(s.createJoint(joint)); }

} // namespace

JointId World::createRevoluteJoint(const RevoluteJointDef& def) {
    constexpr std::string_view fn = "World::createRevoluteJoint";
    auto& s = *m_state;
    Joint joint = frameJoint(s, fn, JointType::Revolute, def, def.anchor, "def.anchor", def.anchor,
                             "def.anchor");
    setLimit(fn, joint.params, def.enableLimit, "def.lowerAngle", def.lowerAngle, "def.upperAngle",
             def.upperAngle);
    setMotor(fn, joint.params, def.enableMotor, def.motorSpeed, "def.maxMotorTorque",
             def.maxMotorTorque);
    setSpring(fn, joint.params, def.enableSpring, def.hertz, def.dampingRatio);
    return link(s, joint);
}

JointId World::createDistanceJoint(const DistanceJointDef& def) {
    constexpr std::string_view fn = "World::createDistanceJoint";
    auto& s = *m_state;
    Joint joint = frameJoint(s, fn, JointType::Distance, def, def.anchorA, "def.anchorA",
                             def.anchorB, "def.anchorB");
    const double dx = double{def.anchorB.x} - double{def.anchorA.x};
    const double dy = double{def.anchorB.y} - double{def.anchorA.y};
    const float length = def.length ? *def.length : static_cast<float>(std::hypot(dx, dy));
    const float minLength = def.minLength ? *def.minLength : length;
    const float maxLength = def.maxLength ? *def.maxLength : length;
    detail::checkLength(fn, "def.length", length);
    detail::checkLength(fn, "def.minLength", minLength);
    detail::checkLength(fn, "def.maxLength", maxLength);
    detail::checkLimits(fn, "def.minLength", minLength, "def.maxLength", maxLength);
    setSpring(fn, joint.params, def.enableSpring, def.hertz, def.dampingRatio);
    detail::JointParams& p = joint.params;
    p.lower = std::max(minLength, kMinJointLength);
    p.upper = std::max(maxLength, p.lower);
    p.length = std::clamp(length, p.lower, p.upper);
    return link(s, joint);
}

JointId World::createPrismaticJoint(const PrismaticJointDef& def) {
    constexpr std::string_view fn = "World::createPrismaticJoint";
    auto& s = *m_state;
    Joint joint = frameJoint(s, fn, JointType::Prismatic, def, def.anchor, "def.anchor", def.anchor,
                             "def.anchor");
    joint.localAxisA = localAxis(fn, s.bodies[def.bodyA.index], def.axis);
    setLimit(fn, joint.params, def.enableLimit, "def.lowerTranslation", def.lowerTranslation,
             "def.upperTranslation", def.upperTranslation);
    setMotor(fn, joint.params, def.enableMotor, def.motorSpeed, "def.maxMotorForce",
             def.maxMotorForce);
    setSpring(fn, joint.params, def.enableSpring, def.hertz, def.dampingRatio);
    return link(s, joint);
}

JointId World::createWeldJoint(const WeldJointDef& def) {
    constexpr std::string_view fn = "World::createWeldJoint";
    auto& s = *m_state;
    Joint joint =
        frameJoint(s, fn, JointType::Weld, def, def.anchor, "def.anchor", def.anchor, "def.anchor");
    detail::checkSpring(fn, "def.linearHertz", def.linearHertz, "def.linearDampingRatio",
                        def.linearDampingRatio);
    detail::checkSpring(fn, "def.angularHertz", def.angularHertz, "def.angularDampingRatio",
                        def.angularDampingRatio);
    detail::JointParams& p = joint.params;
    p.hertz = def.linearHertz;
    p.dampingRatio = def.linearDampingRatio;
    p.angularHertz = def.angularHertz;
    p.angularDampingRatio = def.angularDampingRatio;
    return link(s, joint);
}

JointId World::createWheelJoint(const WheelJointDef& def) {
    constexpr std::string_view fn = "World::createWheelJoint";
    auto& s = *m_state;
    Joint joint = frameJoint(s, fn, JointType::Wheel, def, def.anchor, "def.anchor", def.anchor,
                             "def.anchor");
    joint.localAxisA = localAxis(fn, s.bodies[def.bodyA.index], def.axis);
    setMotor(fn, joint.params, def.enableMotor, def.motorSpeed, "def.maxMotorTorque",
             def.maxMotorTorque);
    setSpring(fn, joint.params, def.enableSpring, def.hertz, def.dampingRatio);
    return link(s, joint);
}

JointId World::createMouseJoint(const MouseJointDef& def) {
    constexpr std::string_view fn = "World::createMouseJoint";
    auto& s = *m_state;
    s.requireUnlocked(fn);
    require(s.isLive(def.body), fn, "def.body",
            "must be a live body of this world (stale, null or foreign id)");
    const Body& body = s.bodies[def.body.index];
    require(body.type == BodyType::Dynamic, fn, "def.body", "must be a dynamic body");
    Joint joint;
    joint.type = JointType::Mouse;
    joint.edges[1].body = def.body.index;
    joint.localAnchorB = localPoint(fn, "def.target", body, def.target);
    joint.target = def.target;
    joint.userData = def.userData;
    detail::checkForce(fn, "def.maxForce", def.maxForce);
    detail::checkSpring(fn, "def.hertz", def.hertz, "def.dampingRatio", def.dampingRatio);
    require(def.hertz > 0.0f, fn, "def.hertz", "must be > 0", def.hertz);
    joint.params.hertz = def.hertz;
    joint.params.dampingRatio = def.dampingRatio;
    joint.params.maxForce = def.maxForce;
    return link(s, joint);
}

void World::destroyJoint(JointId id) {
    auto& s = *m_state;
    s.requireUnlocked("World::destroyJoint");
    s.checkedJoint(id, "World::destroyJoint");
    s.destroyJointSlot(id.index);
}

bool World::isValid(JointId id) const noexcept { return m_state->isLive(id); }
std::size_t World::jointCount() const noexcept { return m_state->jointCount; }

void World::forEachJoint(FunctionRef<void(JointId)> visit) const {
    auto& s = *m_state;
    ++s.lockDepth;
    try {
        for (std::uint32_t j = 0; j < s.joints.size(); ++j)
            if (s.joints[j].live) visit(s.jointId(j));
    } catch (...) {
        --s.lockDepth;
        throw;
    }
    --s.lockDepth;
}

void World::forEachJoint(BodyId bodyId, FunctionRef<void(JointId)> visit) const {
    auto& s = *m_state;
    s.checkedBody(bodyId, "World::forEachJoint");
    ++s.lockDepth;
    try {
        s.forEachJointOf(bodyId.index,
                         [&](std::uint32_t j, std::uint32_t) { visit(s.jointId(j)); });
    } catch (...) {
        --s.lockDepth;
        throw;
    }
    --s.lockDepth;
}

} // namespace rigid2d
