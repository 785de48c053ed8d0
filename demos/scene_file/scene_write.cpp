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

Json shapeToJson(const ShapeDesc& shape) {
    Json out;
    if (shape.kind == ShapeType::Circle) {
        out["kind"] = "circle";
        out["radius"] = shortestDouble(shape.radius);
    } else {
        out["kind"] = "box";
        out["half_extents"] = toJson(shape.halfExtents);
    }
    out["center"] = toJson(shape.center);
    out["density"] = shortestDouble(shape.def.density);
    out["friction"] = shortestDouble(shape.def.friction);
    out["restitution"] = shortestDouble(shape.def.restitution);
    if (shape.def.isSensor) out["sensor"] = true;
    return out;
}

Json bodyToJson(const BodyDesc& body) {
    Json out;
    out["type"] = bodyTypeName(body.def.type);
    out["position"] = toJson(body.def.position);
    // angle is not in FORMAT.md's list (peers ignore it as an unknown field); written only when
    // a captured circle body has turned, so ordinary scenes look exactly like the shared ones.
    if (body.def.angle != 0.0f) out["angle"] = shortestDouble(body.def.angle);
    out["velocity"] = toJson(body.def.linearVelocity);
    if (body.def.angularVelocity != 0.0f) {
        out["angular_velocity"] = shortestDouble(body.def.angularVelocity);
    }
    if (body.def.bullet) out["bullet"] = true;
    Json shapes = Json::array();
    for (const ShapeDesc& shape : body.shapes) shapes.push_back(shapeToJson(shape));
    out["shapes"] = std::move(shapes);
    return out;
}

void writeText(const std::string& text, const std::filesystem::path& path) {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    if (!file) throw SceneFileError(path.string() + ": cannot open the file for writing");
    file << text;
    file.flush();
    if (!file) throw SceneFileError(path.string() + ": cannot write the file");
}

} // namespace

// One body per line: a 10 000-body scene stays diffable and greppable without being huge.
std::string sceneToJson(const SceneDesc& scene) {
    Json header;
    header["format"] = "rigid2d-scene";
    header["version"] = 1;
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
    text += ",\n  \"bodies\": [";
    for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
        text += i == 0 ? "\n    " : ",\n    ";
        text += bodyToJson(scene.bodies[i]).dump();
    }
    text += scene.bodies.empty() ? "]\n}\n" : "\n  ]\n}\n";
    return text;
}

void writeSceneFile(const SceneDesc& scene, const std::filesystem::path& path) {
    writeText(sceneToJson(scene), path);
}

} // namespace rigid2d::scene_file
