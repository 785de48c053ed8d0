#include <algorithm>
#include <fstream>
#include <numbers>

#include <nlohmann/json.hpp>

#include "joint_world.hpp"
#include "json_numbers.hpp"
#include "rigid2d/geometry.hpp"
#include "scene_file.hpp"

// The parts of scene files that need a World: building one, capturing one, its final state.
// Kept apart from the reader and writer so that code using only those does not link the World.

namespace rigid2d::scene_file {

namespace {

using Json = nlohmann::ordered_json;
using detail::shortestDouble;

Json toJson(Vec2 v) { return Json::array({shortestDouble(v.x), shortestDouble(v.y)}); }

float shapeArea(const ShapeDesc& shape) {
    switch (shape.kind) {
    case ShapeType::Circle: return std::numbers::pi_v<float> * shape.radius * shape.radius;
    case ShapeType::Box: return 4.0f * shape.halfExtents.x * shape.halfExtents.y;
    case ShapeType::Polygon:
        return computeMass(makePolygon(shape.vertices, shape.radius), 1.0f).mass;
    case ShapeType::Capsule:
        return computeMass(Capsule{shape.point1, shape.point2, shape.radius}, 1.0f).mass;
    case ShapeType::Segment:
    case ShapeType::ChainSegment: break;
    }
    return 0.0f;
}

// Refuses, before anything is created, joints a hand-built SceneDesc points at bodies it does
// not have (the reader refuses them in a file).
void checkBuildable(const SceneDesc& scene) {
    const auto bodyCount = static_cast<long long>(scene.bodies.size());
    for (std::size_t i = 0; i < scene.joints.size(); ++i) {
        const JointDesc& joint = scene.joints[i];
        for (const int body : {joint.bodyA, joint.bodyB}) {
            if (body < 0 || body >= bodyCount) {
                throw SceneFileError(scene.name + ": joint " + std::to_string(i) + ": body " +
                                     std::to_string(body) + " is not one of the scene's " +
                                     std::to_string(bodyCount) + " bodies");
            }
        }
    }
}

// Version 1's rule: a dynamic body that has a box never turns (its boxes stay axis-aligned).
BodyDef bodyDefOf(const SceneDesc& scene, const BodyDesc& body) {
    BodyDef def = body.def;
    if (scene.version == 1)
        for (const ShapeDesc& shape : body.shapes)
            if (shape.kind == ShapeType::Box) def.fixedRotation = true;
    return def;
}

void createShape(World& world, BodyId id, const ShapeDesc& shape) {
    switch (shape.kind) {
    case ShapeType::Circle:
        world.createCircle(id, shape.def, Circle{shape.center, shape.radius});
        break;
    case ShapeType::Box:
        world.createBox(id, shape.def, Box{shape.center, shape.halfExtents, shape.angle});
        break;
    case ShapeType::Polygon:
        world.createPolygon(id, shape.def, makePolygon(shape.vertices, shape.radius));
        break;
    case ShapeType::Capsule:
        world.createCapsule(id, shape.def, Capsule{shape.point1, shape.point2, shape.radius});
        break;
    case ShapeType::Segment:
        world.createSegment(id, shape.def, Segment{shape.point1, shape.point2});
        break;
    case ShapeType::ChainSegment: {
        ChainDef def;
        def.points = shape.vertices;
        def.loop = shape.loop;
        def.friction = shape.def.friction;
        def.restitution = shape.def.restitution;
        def.filter = shape.def.filter;
        world.createChain(id, def);
        break;
    }
    }
}

} // namespace

std::vector<BodyId> buildScene(const SceneDesc& scene, World& world, std::vector<JointId>* joints) {
    checkBuildable(scene);
    world.setGravity(scene.gravity);
    std::vector<BodyId> ids;
    ids.reserve(scene.bodies.size());
    for (const BodyDesc& body : scene.bodies) {
        const BodyId id = world.createBody(bodyDefOf(scene, body));
        for (const ShapeDesc& shape : body.shapes) createShape(world, id, shape);
        ids.push_back(id);
    }
    if (joints) joints->clear();
    for (const JointDesc& joint : scene.joints) {
        const JointId id = detail::createJoint(world, joint, ids);
        if (joints) joints->push_back(id);
    }
    return ids;
}

SceneDesc captureScene(const World& world, std::string name, float timeStep, int steps,
                       std::optional<AABB> bounds) {
    SceneDesc scene;
    scene.name = std::move(name);
    scene.gravity = world.gravity();
    scene.timeStep = timeStep;
    scene.steps = steps;
    scene.hasBounds = bounds.has_value();
    if (bounds) scene.bounds = *bounds;
    std::vector<int> indexOfSlot; ///< a body's index in the file, by its slot
    world.forEachBody([&](BodyId id) {
        if (id.index >= indexOfSlot.size()) indexOfSlot.resize(std::size_t{id.index} + 1, -1);
        indexOfSlot[id.index] = static_cast<int>(scene.bodies.size());
        BodyDesc body;
        body.def.type = world.bodyType(id);
        body.def.position = world.position(id);
        body.def.angle = world.angle(id);
        body.def.linearVelocity = world.linearVelocity(id);
        body.def.angularVelocity = world.angularVelocity(id);
        body.def.bullet = world.isBullet(id);
        // Shapes in slot order: creation order for a world built from a scene, whatever order
        // forEachShape keeps them in.
        std::vector<ShapeId> shapeIds;
        world.forEachShape(id, [&](ShapeId shapeId) { shapeIds.push_back(shapeId); });
        std::sort(shapeIds.begin(), shapeIds.end(),
                  [](ShapeId a, ShapeId b) { return a.index < b.index; });
        float area = 0.0f;
        for (const ShapeId shapeId : shapeIds) {
            ShapeDesc shape;
            shape.kind = world.shapeType(shapeId);
            switch (shape.kind) {
            case ShapeType::Circle: {
                const Circle circle = world.shapeCircle(shapeId);
                shape.center = circle.center;
                shape.radius = circle.radius;
                break;
            }
            case ShapeType::Box: {
                // An axis-aligned box: in version 2 its body must say it does not turn.
                const Box box = world.shapeBox(shapeId);
                shape.center = box.center;
                shape.halfExtents = box.halfExtents;
                body.def.fixedRotation = body.def.type != BodyType::Static;
                break;
            }
            case ShapeType::Polygon: {
                const Polygon polygon = world.shapePolygon(shapeId);
                shape.vertices.assign(polygon.vertices, polygon.vertices + polygon.count);
                shape.radius = polygon.radius;
                break;
            }
            case ShapeType::Capsule: {
                const Capsule capsule = world.shapeCapsule(shapeId);
                shape.point1 = capsule.center1;
                shape.point2 = capsule.center2;
                shape.radius = capsule.radius;
                break;
            }
            case ShapeType::Segment: {
                const Segment segment = world.shapeSegment(shapeId);
                shape.point1 = segment.point1;
                shape.point2 = segment.point2;
                break;
            }
            case ShapeType::ChainSegment: {
                // A chain is written once, whole, where its first link comes.
                const ChainId chain = world.shapeChain(shapeId);
                const std::vector<ShapeId> links = world.chainSegments(chain);
                if (links.front() != shapeId) continue;
                shape.loop = world.isLoop(chain);
                if (!shape.loop) shape.vertices.push_back(world.shapeChainSegment(links[0]).ghost1);
                for (const ShapeId link : links)
                    shape.vertices.push_back(world.shapeChainSegment(link).segment.point1);
                if (!shape.loop) {
                    const ChainSegment last = world.shapeChainSegment(links.back());
                    shape.vertices.push_back(last.segment.point2);
                    shape.vertices.push_back(last.ghost2);
                }
                break;
            }
            }
            if (shape.kind != ShapeType::Circle && shape.kind != ShapeType::Box) scene.version = 2;
            shape.def.friction = world.friction(shapeId);
            shape.def.restitution = world.restitution(shapeId);
            shape.def.isSensor = world.isSensor(shapeId);
            if (!shape.def.isSensor) area += shapeArea(shape);
            body.shapes.push_back(shape);
        }
        if (body.def.type == BodyType::Dynamic && area > 0.0f) {
            const float density = world.mass(id) / area;
            for (ShapeDesc& shape : body.shapes) shape.def.density = density;
        }
        scene.bodies.push_back(std::move(body));
    });
    world.forEachJoint([&](JointId id) {
        if (world.jointType(id) == JointType::Mouse) return; // a drag, not part of the scene
        scene.joints.push_back(detail::captureJoint(world, id,
                                                    indexOfSlot[world.jointBodyA(id).index],
                                                    indexOfSlot[world.jointBodyB(id).index]));
        scene.version = 2;
    });
    return scene;
}

void writeFinalState(const World& world, std::span<const BodyId> bodies,
                     std::span<const JointId> joints, const std::filesystem::path& path) {
    std::string text = "{\"bodies\": [";
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        Json body;
        body["position"] = toJson(world.position(bodies[i]));
        body["velocity"] = toJson(world.linearVelocity(bodies[i]));
        body["angle"] = shortestDouble(world.angle(bodies[i]));
        text += i == 0 ? "\n  " : ",\n  ";
        text += body.dump();
    }
    text += "\n]";
    // Only for scenes with joints, so that version-1 final states keep their form.
    if (!joints.empty()) {
        text += ",\n\"joints\": [";
        for (std::size_t i = 0; i < joints.size(); ++i) {
            Json joint;
            joint["reaction_force"] = toJson(world.jointReactionForce(joints[i]));
            joint["reaction_torque"] = shortestDouble(world.jointReactionTorque(joints[i]));
            text += i == 0 ? "\n  " : ",\n  ";
            text += joint.dump();
        }
        text += "\n]";
    }
    text += "}\n";
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    if (!file) throw SceneFileError(path.string() + ": cannot open the file for writing");
    file << text;
    file.flush();
    if (!file) throw SceneFileError(path.string() + ": cannot write the file");
}

} // namespace rigid2d::scene_file
