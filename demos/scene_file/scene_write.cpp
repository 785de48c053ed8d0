#include <fstream>

#include <nlohmann/json.hpp>

#include "json_numbers.hpp"
#include "scene_file.hpp"

namespace rigid2d::scene_file {

namespace {

using Json = nlohmann::ordered_json;
using detail::shortestDouble;

Json toJson(Vec2 v) { return Json::array({shortestDouble(v.x), shortestDouble(v.y)}); }

const char* bodyTypeName(BodyType type) {
    switch (type) {
    case BodyType::Static: return "static";
    case BodyType::Kinematic: return "kinematic";
    case BodyType::Dynamic: return "dynamic";
    }
    return "dynamic";
}

void writeKind(const ShapeDesc& shape, Json& out) {
    switch (shape.kind) {
    case ShapeType::Circle:
        out["kind"] = "circle";
        out["radius"] = shortestDouble(shape.radius);
        break;
    case ShapeType::Box:
        out["kind"] = "box";
        out["half_extents"] = toJson(shape.halfExtents);
        if (shape.angle != 0.0f) out["angle"] = shortestDouble(shape.angle);
        break;
    case ShapeType::Polygon: {
        out["kind"] = "polygon";
        Json vertices = Json::array();
        for (const Vec2 v : shape.vertices) vertices.push_back(toJson(v));
        out["vertices"] = std::move(vertices);
        if (shape.radius != 0.0f) out["radius"] = shortestDouble(shape.radius);
        break;
    }
    case ShapeType::Capsule:
        out["kind"] = "capsule";
        out["center1"] = toJson(shape.point1);
        out["center2"] = toJson(shape.point2);
        out["radius"] = shortestDouble(shape.radius);
        break;
    case ShapeType::Segment:
        out["kind"] = "segment";
        out["point1"] = toJson(shape.point1);
        out["point2"] = toJson(shape.point2);
        break;
    case ShapeType::ChainSegment: {
        out["kind"] = "chain";
        Json points = Json::array();
        for (const Vec2 v : shape.vertices) points.push_back(toJson(v));
        out["points"] = std::move(points);
        if (shape.loop) out["loop"] = true;
        break;
    }
    }
}

Json shapeToJson(const ShapeDesc& shape) {
    Json out;
    writeKind(shape, out);
    if (shape.kind == ShapeType::Circle || shape.kind == ShapeType::Box)
        out["center"] = toJson(shape.center);
    out["density"] = shortestDouble(shape.def.density);
    out["friction"] = shortestDouble(shape.def.friction);
    out["restitution"] = shortestDouble(shape.def.restitution);
    if (shape.def.isSensor) out["sensor"] = true;
    const Filter& filter = shape.def.filter;
    const Filter none{};
    if (filter.categoryBits != none.categoryBits || filter.maskBits != none.maskBits ||
        filter.groupIndex != none.groupIndex) {
        out["filter"] = {{"category", filter.categoryBits},
                         {"mask", filter.maskBits},
                         {"group", filter.groupIndex}};
    }
    return out;
}

Json bodyToJson(const BodyDesc& body) {
    const BodyDef& def = body.def;
    Json out;
    out["type"] = bodyTypeName(def.type);
    out["position"] = toJson(def.position);
    // Written only when not 0, so ordinary version-1 scenes look exactly like the public ones.
    if (def.angle != 0.0f) out["angle"] = shortestDouble(def.angle);
    out["velocity"] = toJson(def.linearVelocity);
    if (def.angularVelocity != 0.0f) out["angular_velocity"] = shortestDouble(def.angularVelocity);
    if (def.bullet) out["bullet"] = true;
    // Version 2's body fields, at their defaults in every version-1 scene.
    if (def.fixedRotation) out["fixed_rotation"] = true;
    if (def.linearDamping != 0.0f) out["linear_damping"] = shortestDouble(def.linearDamping);
    if (def.angularDamping != 0.0f) out["angular_damping"] = shortestDouble(def.angularDamping);
    if (def.gravityScale != 1.0f) out["gravity_scale"] = shortestDouble(def.gravityScale);
    if (!def.enableSleep) out["allow_sleep"] = false;
    if (!def.isAwake) out["awake"] = false;
    Json shapes = Json::array();
    for (const ShapeDesc& shape : body.shapes) shapes.push_back(shapeToJson(shape));
    out["shapes"] = std::move(shapes);
    return out;
}

const char* jointKindName(JointKind kind) {
    switch (kind) {
    case JointKind::Revolute: return "revolute";
    case JointKind::Distance: return "distance";
    case JointKind::Prismatic: return "prismatic";
    case JointKind::Weld: return "weld";
    case JointKind::Wheel: return "wheel";
    }
    return "revolute";
}

// Every field of the joint's kind is written, defaults included: the file says what it means
// without the reader's defaults.
Json jointToJson(const JointDesc& joint) {
    Json out;
    out["type"] = jointKindName(joint.kind);
    out["body_a"] = joint.bodyA;
    out["body_b"] = joint.bodyB;
    out["collide_connected"] = joint.collideConnected;
    const auto spring = [&] {
        out["enable_spring"] = joint.enableSpring;
        out["hertz"] = shortestDouble(joint.hertz);
        out["damping_ratio"] = shortestDouble(joint.dampingRatio);
    };
    const auto motor = [&](const char* maxKey, float max) {
        out["enable_motor"] = joint.enableMotor;
        out["motor_speed"] = shortestDouble(joint.motorSpeed);
        out[maxKey] = shortestDouble(max);
    };
    const auto limit = [&](const char* lowerKey, const char* upperKey) {
        out["enable_limit"] = joint.enableLimit;
        out[lowerKey] = shortestDouble(joint.lower);
        out[upperKey] = shortestDouble(joint.upper);
    };
    switch (joint.kind) {
    case JointKind::Revolute:
        out["anchor"] = toJson(joint.anchorA);
        limit("lower_angle", "upper_angle");
        motor("max_motor_torque", joint.maxMotorTorque);
        spring();
        break;
    case JointKind::Distance:
        out["anchor_a"] = toJson(joint.anchorA);
        out["anchor_b"] = toJson(joint.anchorB);
        out["length"] = shortestDouble(joint.length);
        out["min_length"] = shortestDouble(joint.minLength);
        out["max_length"] = shortestDouble(joint.maxLength);
        spring();
        break;
    case JointKind::Prismatic:
        out["anchor"] = toJson(joint.anchorA);
        out["axis"] = toJson(joint.axis);
        limit("lower_translation", "upper_translation");
        motor("max_motor_force", joint.maxMotorForce);
        spring();
        break;
    case JointKind::Weld:
        out["anchor"] = toJson(joint.anchorA);
        out["linear_hertz"] = shortestDouble(joint.linearHertz);
        out["angular_hertz"] = shortestDouble(joint.angularHertz);
        out["linear_damping_ratio"] = shortestDouble(joint.linearDampingRatio);
        out["angular_damping_ratio"] = shortestDouble(joint.angularDampingRatio);
        break;
    case JointKind::Wheel:
        out["anchor"] = toJson(joint.anchorA);
        out["axis"] = toJson(joint.axis);
        motor("max_motor_torque", joint.maxMotorTorque);
        spring();
        break;
    }
    return out;
}

// What only version 2 can say, for the refusal of a version-1 scene that says it.
const char* version2Feature(const SceneDesc& scene) {
    if (!scene.joints.empty()) return "joints";
    const Filter none{};
    for (const BodyDesc& body : scene.bodies) {
        const BodyDef& def = body.def;
        if (def.fixedRotation || def.linearDamping != 0.0f || def.angularDamping != 0.0f ||
            def.gravityScale != 1.0f || !def.enableSleep || !def.isAwake)
            return "body settings beyond position, angle, velocities and bullet";
        for (const ShapeDesc& shape : body.shapes) {
            if (shape.kind != ShapeType::Circle && shape.kind != ShapeType::Box)
                return "polygons, capsules and segments";
            if (shape.angle != 0.0f) return "turned boxes";
            if (shape.def.filter.categoryBits != none.categoryBits ||
                shape.def.filter.maskBits != none.maskBits ||
                shape.def.filter.groupIndex != none.groupIndex)
                return "collision filters";
        }
    }
    return nullptr;
}

std::string linesOf(const std::vector<Json>& items) {
    std::string text;
    for (std::size_t i = 0; i < items.size(); ++i) {
        text += i == 0 ? "\n    " : ",\n    ";
        text += items[i].dump();
    }
    text += items.empty() ? "]" : "\n  ]";
    return text;
}

void writeText(const std::string& text, const std::filesystem::path& path) {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    if (!file) throw SceneFileError(path.string() + ": cannot open the file for writing");
    file << text;
    file.flush();
    if (!file) throw SceneFileError(path.string() + ": cannot write the file");
}

} // namespace

// One body (and joint) per line: a 10 000-body scene stays diffable and greppable without being
// huge.
std::string sceneToJson(const SceneDesc& scene) {
    if (scene.version != 1 && scene.version != 2) {
        throw SceneFileError("sceneToJson: version must be 1 or 2, got " +
                             std::to_string(scene.version));
    }
    if (const char* feature = scene.version == 1 ? version2Feature(scene) : nullptr) {
        throw SceneFileError(std::string("sceneToJson: scene '") + scene.name +
                             "' is version 1, which cannot hold " + feature + "; use version 2");
    }
    Json header;
    header["format"] = "rigid2d-scene";
    header["version"] = scene.version;
    header["name"] = scene.name;
    header["gravity"] = toJson(scene.gravity);
    header["time_step"] = shortestDouble(scene.timeStep);
    header["steps"] = scene.steps;
    if (scene.hasBounds) {
        Json bounds;
        bounds["lower"] = toJson(scene.bounds.lower);
        bounds["upper"] = toJson(scene.bounds.upper);
        header["bounds"] = std::move(bounds);
    }
    std::string text = header.dump();
    text.pop_back(); // reopen the object to append the bodies
    std::vector<Json> items;
    items.reserve(scene.bodies.size());
    for (const BodyDesc& body : scene.bodies) items.push_back(bodyToJson(body));
    text += ",\n  \"bodies\": [" + linesOf(items);
    if (!scene.joints.empty()) {
        items.clear();
        for (const JointDesc& joint : scene.joints) items.push_back(jointToJson(joint));
        text += ",\n  \"joints\": [" + linesOf(items);
    }
    text += "\n}\n";
    return text;
}

void writeSceneFile(const SceneDesc& scene, const std::filesystem::path& path) {
    writeText(sceneToJson(scene), path);
}

} // namespace rigid2d::scene_file
