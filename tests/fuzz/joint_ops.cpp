// The joint ops of WorldOps: every kind created from fuzzer numbers (often bad: NaN, huge,
// inverted limits, stale or foreign bodies), every setter, destruction; each call must succeed or
// be refused with the world unchanged (WorldOps::attempt).
#include "world_ops.hpp"

#include <cstring>

namespace rigid2d::fuzz {

void addJointDetails(const World& world, std::vector<std::uint64_t>& details) {
    const auto bits = [](float f) {
        std::uint32_t u;
        std::memcpy(&u, &f, sizeof u);
        return std::uint64_t{u};
    };
    details.push_back(world.jointCount());
    world.forEachJoint([&](JointId joint) {
        details.push_back((std::uint64_t{joint.index} << 32) | joint.generation);
        const Vec2 a = world.jointAnchorA(joint), b = world.jointAnchorB(joint);
        details.push_back((bits(a.x) << 32) | bits(a.y));
        details.push_back((bits(b.x) << 32) | bits(b.y));
        details.push_back(bits(world.jointSpringHertz(joint)));
    });
}

JointId WorldOps::pickJoint(FuzzInput& in) {
    const std::uint8_t b = in.byte();
    if (b < 240 && !m_joints.empty()) return m_joints[b % m_joints.size()];
    if (b % 2 == 0 || m_joints.empty()) return JointId{};
    JointId forged = m_joints.front();
    forged.generation += 0x10000u;
    return forged;
}

void WorldOps::createJoint(FuzzInput& in) {
    const unsigned kind = in.below(6);
    const std::uint8_t flags = in.byte();
    JointDef common;
    common.bodyA = pickBody(in);
    common.bodyB = pickBody(in);
    common.collideConnected = (flags & 0x01u) != 0;
    // An anchor near a body usually, anything now and then.
    const auto anchor = [&] {
        if ((flags & 0x02u) != 0) return in.vec2();
        return m_world.isValid(common.bodyB) ? m_world.position(common.bodyB) : Vec2{};
    };
    JointId made{};
    const auto create = [&](std::string_view name, auto call) {
        (void)attempt(name, [&] { made = call(); });
    };
    switch (kind) {
    case 0: {
        RevoluteJointDef def;
        static_cast<JointDef&>(def) = common;
        def.anchor = anchor();
        def.enableLimit = (flags & 0x04u) != 0;
        def.lowerAngle = in.number();
        def.upperAngle = in.number();
        def.enableMotor = (flags & 0x08u) != 0;
        def.motorSpeed = in.number();
        def.maxMotorTorque = in.number();
        def.enableSpring = (flags & 0x10u) != 0;
        def.hertz = in.number();
        def.dampingRatio = in.unit();
        create("World::createRevoluteJoint", [&] { return m_world.createRevoluteJoint(def); });
        break;
    }
    case 1: {
        DistanceJointDef def;
        static_cast<JointDef&>(def) = common;
        def.anchorA = m_world.isValid(common.bodyA) ? m_world.position(common.bodyA) : in.vec2();
        def.anchorB = anchor();
        if ((flags & 0x04u) != 0) def.length = in.number();
        if ((flags & 0x08u) != 0) def.minLength = in.number();
        if ((flags & 0x20u) != 0) def.maxLength = in.number();
        def.enableSpring = (flags & 0x10u) != 0;
        def.hertz = in.number();
        def.dampingRatio = in.unit();
        create("World::createDistanceJoint", [&] { return m_world.createDistanceJoint(def); });
        break;
    }
    case 2:
    case 4: {
        const Vec2 where = anchor();
        const Vec2 axis = (flags & 0x04u) != 0 ? in.vec2() : Vec2{in.unit() - 0.5f, 1.0f};
        if (kind == 2) {
            PrismaticJointDef def;
            static_cast<JointDef&>(def) = common;
            def.anchor = where;
            def.axis = axis;
            def.enableLimit = (flags & 0x08u) != 0;
            def.lowerTranslation = in.number();
            def.upperTranslation = in.number();
            def.enableMotor = (flags & 0x10u) != 0;
            def.motorSpeed = in.number();
            def.maxMotorForce = in.number();
            def.enableSpring = (flags & 0x20u) != 0;
            def.hertz = in.number();
            create("World::createPrismaticJoint",
                   [&] { return m_world.createPrismaticJoint(def); });
        } else {
            WheelJointDef def;
            static_cast<JointDef&>(def) = common;
            def.anchor = where;
            def.axis = axis;
            def.enableMotor = (flags & 0x10u) != 0;
            def.motorSpeed = in.number();
            def.maxMotorTorque = in.number();
            def.enableSpring = (flags & 0x20u) == 0;
            def.hertz = in.number();
            def.dampingRatio = in.unit();
            create("World::createWheelJoint", [&] { return m_world.createWheelJoint(def); });
        }
        break;
    }
    case 3: {
        WeldJointDef def;
        static_cast<JointDef&>(def) = common;
        def.anchor = anchor();
        if ((flags & 0x04u) != 0) {
            def.linearHertz = in.number();
            def.angularHertz = in.number();
            def.linearDampingRatio = in.unit();
            def.angularDampingRatio = in.unit();
        }
        create("World::createWeldJoint", [&] { return m_world.createWeldJoint(def); });
        break;
    }
    default: {
        MouseJointDef def;
        def.body = common.bodyB;
        def.target = anchor();
        def.maxForce = in.number();
        if ((flags & 0x04u) != 0) def.hertz = in.number();
        create("World::createMouseJoint", [&] { return m_world.createMouseJoint(def); });
        break;
    }
    }
    if (!made.isNull()) m_joints.push_back(made);
}

void WorldOps::changeJoint(FuzzInput& in) {
    const JointId joint = pickJoint(in);
    const unsigned which = in.below(12);
    const bool on = (which & 1u) != 0;
    const float a = in.number(), b = in.number();
    switch (which) {
    case 0: (void)attempt("World::destroyJoint", [&] { m_world.destroyJoint(joint); }); break;
    case 1:
        (void)attempt("World::enableJointLimit", [&] { m_world.enableJointLimit(joint, on); });
        break;
    case 2:
        (void)attempt("World::setJointLimits", [&] { m_world.setJointLimits(joint, a, b); });
        break;
    case 3:
        (void)attempt("World::enableJointMotor", [&] { m_world.enableJointMotor(joint, on); });
        break;
    case 4:
        (void)attempt("World::setJointMotorSpeed", [&] { m_world.setJointMotorSpeed(joint, a); });
        (void)attempt("World::setJointMaxMotorForce",
                      [&] { m_world.setJointMaxMotorForce(joint, b); });
        break;
    case 5:
        (void)attempt("World::enableJointSpring", [&] { m_world.enableJointSpring(joint, on); });
        break;
    case 6:
        (void)attempt("World::setJointSpring", [&] { m_world.setJointSpring(joint, a, b); });
        (void)attempt("World::setWeldAngularSpring",
                      [&] { m_world.setWeldAngularSpring(joint, b, a); });
        break;
    case 7:
        (void)attempt("World::setJointLength", [&] { m_world.setJointLength(joint, a); });
        break;
    case 8:
        (void)attempt("World::setJointTarget", [&] { m_world.setJointTarget(joint, {a, b}); });
        (void)attempt("World::setJointMaxForce", [&] { m_world.setJointMaxForce(joint, b); });
        break;
    default:
        (void)attempt("World joint getters", [&] {
            (void)m_world.jointType(joint);
            (void)m_world.jointBodyA(joint);
            (void)m_world.jointAnchorA(joint);
            (void)m_world.jointAnchorB(joint);
            (void)m_world.jointReactionForce(joint);
            (void)m_world.jointReactionTorque(joint);
            if (m_world.jointType(joint) == JointType::Revolute) (void)m_world.jointAngle(joint);
            if (m_world.jointType(joint) == JointType::Wheel) (void)m_world.jointTranslation(joint);
        });
        break;
    }
}

} // namespace rigid2d::fuzz
