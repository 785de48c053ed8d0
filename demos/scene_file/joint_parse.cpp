// One joint of a version-2 scene: its kind, bodies and the fields of that kind (FORMAT.md,
// "Joints"), each refusal naming the joint and the field.

#include <cmath>
#include <limits>

#include "json_numbers.hpp"
#include "scene_reader.hpp"

namespace rigid2d::scene_file::detail {

namespace {

JointKind parseKind(const Reader& in, const json& joint) {
    const std::string& name = in.string(in.require(joint, "type", "type"), "type");
    if (name == "revolute") return JointKind::Revolute;
    if (name == "distance") return JointKind::Distance;
    if (name == "prismatic") return JointKind::Prismatic;
    if (name == "weld") return JointKind::Weld;
    if (name == "wheel") return JointKind::Wheel;
    in.fail("type",
            "must be \"revolute\", \"distance\", \"prismatic\", \"weld\" or \"wheel\", got \"" +
                name + "\"");
}

int parseBodyIndex(const Reader& in, const json& joint, const char* key,
                   std::span<const BodyDesc> bodies) {
    const json& value = in.require(joint, key, key);
    if (bodies.empty()) in.fail(key, "names a body, but the scene has none");
    return static_cast<int>(in.integer(value, key, 0, static_cast<long long>(bodies.size()) - 1));
}

Vec2 parseAxis(const Reader& in, const json& joint) {
    const Vec2 axis = in.requiredVec2(joint, "axis", "");
    const float length = std::hypot(axis.x, axis.y);
    if (!(length > 0.0f) || !std::isfinite(length)) in.fail("axis", "must be a non-zero vector");
    // An axis already unit to within rounding is kept as written: dividing by its length again
    // could change its last bits, and sceneToJson writes axes this reader normalised, which must
    // read back to the same floats.
    if (std::fabs(length - 1.0f) <= 4.0f * std::numeric_limits<float>::epsilon()) return axis;
    return axis / length;
}

void parseLimit(const Reader& in, const json& joint, const char* lowerKey, const char* upperKey,
                JointDesc& out) {
    out.enableLimit = in.boolean(joint, "enable_limit", "", false);
    out.lower = in.number(joint, lowerKey, "", 0.0f);
    out.upper = in.number(joint, upperKey, "", 0.0f);
    if (!(out.lower <= out.upper)) {
        in.fail(lowerKey, std::string("must be <= ") + upperKey + " (" + numberText(out.upper) +
                              "), got " + numberText(out.lower));
    }
}

void parseMotor(const Reader& in, const json& joint, const char* maxKey, float& max,
                JointDesc& out) {
    out.enableMotor = in.boolean(joint, "enable_motor", "", false);
    out.motorSpeed = in.number(joint, "motor_speed", "", 0.0f);
    max = in.number(joint, maxKey, "", 0.0f);
    in.requireNonNegative(max, maxKey);
}

void parseSpring(const Reader& in, const json& joint, bool enabled, float hertz, float damping,
                 JointDesc& out) {
    out.enableSpring = in.boolean(joint, "enable_spring", "", enabled);
    out.hertz = in.number(joint, "hertz", "", hertz);
    in.requireNonNegative(out.hertz, "hertz");
    out.dampingRatio = in.number(joint, "damping_ratio", "", damping);
    in.requireNonNegative(out.dampingRatio, "damping_ratio");
}

void parseDistance(const Reader& in, const json& joint, JointDesc& out) {
    out.anchorA = in.requiredVec2(joint, "anchor_a", "");
    out.anchorB = in.requiredVec2(joint, "anchor_b", "");
    const Vec2 d = out.anchorB - out.anchorA;
    out.length = in.number(joint, "length", "", std::hypot(d.x, d.y));
    in.requireNonNegative(out.length, "length");
    out.minLength = in.number(joint, "min_length", "", out.length);
    in.requireNonNegative(out.minLength, "min_length");
    out.maxLength = in.number(joint, "max_length", "", out.length);
    if (!(out.minLength <= out.maxLength)) {
        in.fail("min_length", "must be <= max_length (" + numberText(out.maxLength) + "), got " +
                                  numberText(out.minLength));
    }
    parseSpring(in, joint, false, 0.0f, 0.0f, out);
}

void parseWeld(const Reader& in, const json& joint, JointDesc& out) {
    out.anchorA = in.requiredVec2(joint, "anchor", "");
    const auto nonNegative = [&](const char* key) {
        const float value = in.number(joint, key, "", 0.0f);
        in.requireNonNegative(value, key);
        return value;
    };
    out.linearHertz = nonNegative("linear_hertz");
    out.angularHertz = nonNegative("angular_hertz");
    out.linearDampingRatio = nonNegative("linear_damping_ratio");
    out.angularDampingRatio = nonNegative("angular_damping_ratio");
}

} // namespace

JointDesc parseJoint(const Reader& in, const json& joint, std::span<const BodyDesc> bodies) {
    if (!joint.is_object()) in.fail("", std::string("must be an object, got ") + joint.type_name());
    JointDesc out;
    out.kind = parseKind(in, joint);
    out.bodyA = parseBodyIndex(in, joint, "body_a", bodies);
    out.bodyB = parseBodyIndex(in, joint, "body_b", bodies);
    if (out.bodyA == out.bodyB) in.fail("body_b", "must differ from body_a");
    if (bodies[static_cast<std::size_t>(out.bodyA)].def.type == BodyType::Static &&
        bodies[static_cast<std::size_t>(out.bodyB)].def.type == BodyType::Static) {
        in.fail("body_b", "must not be static when body_a is static");
    }
    out.collideConnected = in.boolean(joint, "collide_connected", "", false);
    switch (out.kind) {
    case JointKind::Revolute:
        out.anchorA = in.requiredVec2(joint, "anchor", "");
        parseLimit(in, joint, "lower_angle", "upper_angle", out);
        parseMotor(in, joint, "max_motor_torque", out.maxMotorTorque, out);
        parseSpring(in, joint, false, 0.0f, 0.0f, out);
        break;
    case JointKind::Distance: parseDistance(in, joint, out); break;
    case JointKind::Prismatic:
        out.anchorA = in.requiredVec2(joint, "anchor", "");
        out.axis = parseAxis(in, joint);
        parseLimit(in, joint, "lower_translation", "upper_translation", out);
        parseMotor(in, joint, "max_motor_force", out.maxMotorForce, out);
        parseSpring(in, joint, false, 0.0f, 0.0f, out);
        break;
    case JointKind::Weld: parseWeld(in, joint, out); break;
    case JointKind::Wheel:
        out.anchorA = in.requiredVec2(joint, "anchor", "");
        out.axis = parseAxis(in, joint);
        parseMotor(in, joint, "max_motor_torque", out.maxMotorTorque, out);
        parseSpring(in, joint, true, 1.0f, 0.7f, out);
        break;
    }
    return out;
}

} // namespace rigid2d::scene_file::detail
