#pragma once
/// Scene files (demos/bench/FORMAT.md, version 1): JSON descriptions of a world's settings and
/// bodies, shared with the peer engines so both run exactly the same work. Lives outside the core
/// library so the core does not depend on a JSON library.

#include <filesystem>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "rigid2d/rigid2d.hpp"

namespace rigid2d::scene_file {

/// One shape of a body, in body coordinates. `def` carries density, friction, restitution and
/// isSensor (the only ShapeDef fields a scene file holds).
struct ShapeDesc {
    ShapeType kind = ShapeType::Circle;
    Vec2 center{};      ///< m, offset from the body position
    float radius = 0;   ///< m, circles
    Vec2 halfExtents{}; ///< m, boxes
    ShapeDef def;
};

/// One body: type, position, angle, velocities and bullet flag in `def`, then its shapes.
struct BodyDesc {
    BodyDef def;
    std::vector<ShapeDesc> shapes;
};

struct SceneDesc {
    std::string name;
    Vec2 gravity{0, -10};
    float timeStep = 1.0f / 60;
    int steps = 600;
    bool hasBounds = false; ///< a box no dynamic body should leave (metrics count escapes)
    AABB bounds{};
    std::vector<BodyDesc> bodies;
};

/// A refused scene file. The message names the file, the body index (when the fault is in a body)
/// and the field, e.g. "scene.json: body 12: field 'shapes[0].radius': must be > 0, got -1".
class SceneFileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Parses a scene document. `sourceName` is used in error messages and, without a "name" field,
/// as the scene name (its stem). Refuses a wrong format or version, missing required fields,
/// wrong types, NaN or infinite numbers (also the bare NaN/Infinity words Python writes) and
/// non-positive sizes; unknown fields are ignored.
[[nodiscard]] SceneDesc parseScene(std::string_view json, std::string_view sourceName);
/// Reads and parses a file; an unreadable file is a SceneFileError too.
[[nodiscard]] SceneDesc readSceneFile(const std::filesystem::path& path);

/// Creates the scene's bodies and shapes in `world` and sets its gravity. Returns the bodies in
/// file order. Throws rigid2d::Error if the world refuses something (a hand-built SceneDesc).
std::vector<BodyId> buildScene(const SceneDesc& scene, World& world);

/// The scene as a version-1 document; parseScene(sceneToJson(s)) gives back s exactly (floats are
/// written with the fewest digits that read back to the same float).
[[nodiscard]] std::string sceneToJson(const SceneDesc& scene);
/// Writes sceneToJson to `path`; throws SceneFileError if the file cannot be written.
void writeSceneFile(const SceneDesc& scene, const std::filesystem::path& path);

/// The running world as a scene: every live body in creation-slot order (its shapes likewise)
/// with its current position, angle and velocities, and the world's gravity. A scene file has no
/// per-shape mass field other than density, so a dynamic body's densities are recovered as its
/// mass divided by the area of its non-sensor shapes (exact when they share one density, the
/// usual case).
[[nodiscard]] SceneDesc captureScene(const World& world, std::string name, float timeStep,
                                     int steps, std::optional<AABB> bounds);

/// Writes FORMAT.md's final state: {"bodies": [{"position", "velocity", "angle"}]} in the order
/// of `bodies`. Throws SceneFileError if the file cannot be written.
void writeFinalState(const World& world, std::span<const BodyId> bodies,
                     const std::filesystem::path& path);

} // namespace rigid2d::scene_file
