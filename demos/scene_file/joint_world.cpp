#include "joint_world.hpp"

namespace rigid2d::scene_file::detail {

namespace {

template <class Def>
Def baseDef(const JointDesc& joint, std::span<const BodyId> bodies) {
    Def def;
    def.bodyA = bodies[static_cast<std::size_t>(joint.bodyA)];
    def.bodyB = bodies[static_cast<std::size_t>(joint.bodyB)];
    def.collideConnected = joint.collideConnected;
    return def;
}

} // namespace

JointId createJoint(World& world, const JointDesc& joint, std::span<const BodyId> bodies) {
    switch (joint.kind) {
    case JointKind::Revolute: {
        auto def = baseDef<RevoluteJointDef>(joint, bodies);
        def.anchor = joint.anchorA;
        def.enableLimit = joint.enableLimit;
        def.lowerAngle = joint.lower;
        def.upperAngle = joint.upper;
        def.enableMotor = joint.enableMotor;
        def.motorSpeed = joint.motorSpeed;
        def.maxMotorTorque = joint.maxMotorTorque;
        def.enableSpring = joint.enableSpring;
        def.hertz = joint.hertz;
        def.dampingRatio = joint.dampingRatio;
        return world.createRevoluteJoint(def);
    }
    case JointKind::Distance: {
        auto def = baseDef<DistanceJointDef>(joint, bodies);
        def.anchorA = joint.anchorA;
        def.anchorB = joint.anchorB;
        def.length = joint.length;
        def.minLength = joint.minLength;
        def.maxLength = joint.maxLength;
        def.enableSpring = joint.enableSpring;
        def.hertz = joint.hertz;
        def.dampingRatio = joint.dampingRatio;
        return world.createDistanceJoint(def);
    }
    case JointKind::Prismatic: {
        auto def = baseDef<PrismaticJointDef>(joint, bodies);
        def.anchor = joint.anchorA;
        def.axis = joint.axis;
        def.enableLimit = joint.enableLimit;
        def.lowerTranslation = joint.lower;
        def.upperTranslation = joint.upper;
        def.enableMotor = joint.enableMotor;
        def.motorSpeed = joint.motorSpeed;
        def.maxMotorForce = joint.maxMotorForce;
        def.enableSpring = joint.enableSpring;
        def.hertz = joint.hertz;
        def.dampingRatio = joint.dampingRatio;
        return world.createPrismaticJoint(def);
    }
    case JointKind::Weld: {
        auto def = baseDef<WeldJointDef>(joint, bodies);
        def.anchor = joint.anchorA;
        def.linearHertz = joint.linearHertz;
        def.angularHertz = joint.angularHertz;
        def.linearDampingRatio = joint.linearDampingRatio;
        def.angularDampingRatio = joint.angularDampingRatio;
        return world.createWeldJoint(def);
    }
    case JointKind::Wheel: {
        auto def = baseDef<WheelJointDef>(joint, bodies);
        def.anchor = joint.anchorA;
        def.axis = joint.axis;
        def.enableSpring = joint.enableSpring;
        def.hertz = joint.hertz;
        def.dampingRatio = joint.dampingRatio;
        def.enableMotor = joint.enableMotor;
        def.motorSpeed = joint.motorSpeed;
        def.maxMotorTorque = joint.maxMotorTorque;
        return world.createWheelJoint(def);
    }
    }
    return {};
}

JointDesc captureJoint(const World& world, JointId id, int bodyA, int bodyB) {
    JointDesc out;
    out.bodyA = bodyA;
    out.bodyB = bodyB;
    out.collideConnected = world.jointCollideConnected(id);
    // A file's anchor is one world point for both bodies: A's, where A is now.
    out.anchorA = world.jointAnchorA(id);
    const auto motor = [&](float& max) {
        out.enableMotor = world.isJointMotorEnabled(id);
        out.motorSpeed = world.jointMotorSpeed(id);
        max = world.jointMaxMotorForce(id);
    };
    const auto spring = [&] {
        out.enableSpring = world.isJointSpringEnabled(id);
        out.hertz = world.jointSpringHertz(id);
        out.dampingRatio = world.jointSpringDampingRatio(id);
    };
    // Limits count from the pose at creation; a rebuilt joint starts from the pose now, so the
    // range moves by how far the joint has gone to stay where it was in the world. (A spring's
    // rest pose cannot move with it: the file has no field for it.)
    const auto limit = [&](float travelled) {
        out.enableLimit = world.isJointLimitEnabled(id);
        out.lower = world.jointLowerLimit(id) - travelled;
        out.upper = world.jointUpperLimit(id) - travelled;
    };
    switch (world.jointType(id)) {
    case JointType::Revolute:
        out.kind = JointKind::Revolute;
        limit(world.jointAngle(id));
        motor(out.maxMotorTorque);
        spring();
        break;
    case JointType::Distance:
        out.kind = JointKind::Distance;
        out.anchorB = world.jointAnchorB(id);
        out.length = world.jointLength(id);
        out.minLength = world.jointLowerLimit(id);
        out.maxLength = world.jointUpperLimit(id);
        spring();
        break;
    case JointType::Prismatic:
        out.kind = JointKind::Prismatic;
        out.axis = world.jointAxis(id);
        limit(world.jointTranslation(id));
        motor(out.maxMotorForce);
        spring();
        break;
    case JointType::Weld:
        out.kind = JointKind::Weld;
        out.linearHertz = world.jointSpringHertz(id);
        out.linearDampingRatio = world.jointSpringDampingRatio(id);
        out.angularHertz = world.weldAngularSpringHertz(id);
        out.angularDampingRatio = world.weldAngularSpringDampingRatio(id);
        break;
    case JointType::Wheel:
        out.kind = JointKind::Wheel;
        out.axis = world.jointAxis(id);
        motor(out.maxMotorTorque);
        spring();
        break;
    case JointType::Mouse: throw SceneFileError("captureScene: a mouse joint has no file form");
    }
    return out;
}

} // namespace rigid2d::scene_file::detail
