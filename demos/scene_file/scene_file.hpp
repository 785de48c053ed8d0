#pragma once
/// Scene files (demos/bench/FORMAT.md, versions 1 and 2): JSON descriptions of a world's settings,
/// bodies and joints, read by the peer engines' programs too so all run exactly the same work.
/// Lives outside the core library so the core does not depend on a JSON library.

#include <filesystem>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "rigid2d/rigid2d.hpp"

namespace rigid2d::scene_file {

/// One shape of a body, in body coordinates. `def` carries density, friction, restitution,
/// isSensor and filter (the only ShapeDef fields a scene file holds).
struct ShapeDesc {
    ShapeType kind = ShapeType::Circle;
    Vec2 center{};              ///< m, offset from the body position: circles and boxes
    float radius = 0;           ///< m: circles, capsules, the rounding of polygons
    Vec2 halfExtents{};         ///< m, boxes
    float angle = 0;            ///< rad, boxes, relative to the body (version 2)
    std::vector<Vec2> vertices; ///< polygons: 3 to 8, convex, counter-clockwise; chain points
    Vec2 point1{}, point2{};    ///< capsule centres, segment end points
    /// Chains (an extension of version 2, kind ChainSegment: one desc is a whole chain, its
    /// points in `vertices` as ChainDef takes them): the chain is a closed loop.
    bool loop = false;
    ShapeDef def;
};

/// One body: type, position, angle, velocities, damping, gravity scale, flags in `def`, then its
/// shapes. In a version-1 scene `def.fixedRotation` is as read (false); buildScene fixes the
/// rotation of a body that has a box, as version 1 says.
struct BodyDesc {
    BodyDef def;
    std::vector<ShapeDesc> shapes;
};

enum class JointKind { Revolute, Distance, Prismatic, Weld, Wheel };

/// One joint of a version-2 scene. Anchors and axes are in world coordinates at the start; each
/// kind uses the fields its comment names, the others keep their defaults.
struct JointDesc {
    JointKind kind = JointKind::Revolute;
    int bodyA = 0, bodyB = 0; ///< indices into SceneDesc::bodies
    bool collideConnected = false;
    Vec2 anchorA{};  ///< m: `anchor` of revolute, prismatic, weld and wheel; distance's `anchor_a`
    Vec2 anchorB{};  ///< m: distance's `anchor_b`
    Vec2 axis{1, 0}; ///< prismatic, wheel: unit length (the reader normalises it)
    bool enableLimit = false;   ///< revolute, prismatic
    float lower = 0, upper = 0; ///< rad (revolute) or m (prismatic), lower <= upper
    bool enableMotor = false;   ///< revolute, prismatic, wheel
    float motorSpeed = 0;       ///< rad/s or m/s
    float maxMotorTorque = 0;   ///< N m: revolute, wheel
    float maxMotorForce = 0;    ///< N: prismatic
    bool enableSpring = false;  ///< revolute, distance, prismatic, wheel (wheel: default true)
    float hertz = 0, dampingRatio = 0;
    float length = 0, minLength = 0, maxLength = 0;        ///< m, distance: 0 <= min <= max
    float linearHertz = 0, angularHertz = 0;               ///< weld: 0 = rigid
    float linearDampingRatio = 0, angularDampingRatio = 0; ///< weld
};

struct SceneDesc {
    int version = 1; ///< 1 or 2: the meaning of boxes on dynamic bodies depends on it
    std::string name;
    Vec2 gravity{0, -10};
    float timeStep = 1.0f / 60;
    int steps = 600;
    bool hasBounds = false; ///< a box no dynamic body should leave (metrics count escapes)
    AABB bounds{};
    std::vector<BodyDesc> bodies;
    std::vector<JointDesc> joints; ///< version 2
};

/// A refused scene file. The message names the file, the body index (when the fault is in a body)
/// and the field, e.g. "scene.json: body 12: field 'shapes[0].radius': must be > 0, got -1".
class SceneFileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Parses a scene document (version 1 or 2). `sourceName` is used in error messages and, without
/// a "name" field, as the scene name (its stem). Refuses a wrong format or version, missing
/// required fields, wrong types, NaN, infinite or overflowing numbers (also the bare NaN/Infinity
/// words Python writes), non-positive sizes, restitution outside [0, 1], degenerate polygons and
/// bad joints; unknown fields are ignored.
[[nodiscard]] SceneDesc parseScene(std::string_view json, std::string_view sourceName);
/// Reads and parses a file; an unreadable file is a SceneFileError too.
[[nodiscard]] SceneDesc readSceneFile(const std::filesystem::path& path);

/// Creates the scene's bodies, shapes and joints in `world` and sets its gravity. Returns the
/// bodies in file order, and the joints in file order into `joints` if given. Throws
/// SceneFileError naming the joint for a joint whose body index is out of range, before creating
/// anything; throws rigid2d::Error if the world refuses something (a hand-built SceneDesc).
std::vector<BodyId> buildScene(const SceneDesc& scene, World& world,
                               std::vector<JointId>* joints = nullptr);

/// The scene as a document of its version; parseScene(sceneToJson(s)) gives back s exactly (floats
/// are written with the fewest digits that read back to the same float). Throws SceneFileError for
/// a version-1 scene that uses what only version 2 can say.
[[nodiscard]] std::string sceneToJson(const SceneDesc& scene);
/// Writes sceneToJson to `path`; throws SceneFileError if the file cannot be written.
void writeSceneFile(const SceneDesc& scene, const std::filesystem::path& path);

/// The running world as a scene: every live body in creation-slot order (its shapes likewise)
/// with its current position, angle and velocities, and the world's gravity. A scene file has no
/// per-shape mass field other than density, so a dynamic body's densities are recovered as its
/// mass divided by the area of its non-sensor shapes (exact when they share one density, the
/// usual case). Joints follow in creation-slot order (mouse joints are left out: they are a drag,
/// not the scene), as version 2, with their anchors and axes where they are now; a revolute or
/// prismatic joint's limits are moved by how far it has turned or slid, so the range stays where
/// it was (a spring's rest pose is the capture's pose: the file cannot say otherwise), and a
/// distance joint's lengths are those the world keeps (at least kMinJointLength).
[[nodiscard]] SceneDesc captureScene(const World& world, std::string name, float timeStep,
                                     int steps, std::optional<AABB> bounds);

/// Writes FORMAT.md's final state: {"bodies": [{"position", "velocity", "angle"}]} in the order
/// of `bodies`, then, when `joints` is not empty, "joints": [{"reaction_force",
/// "reaction_torque"}] in the order of `joints`. Throws SceneFileError if the file cannot be
/// written.
void writeFinalState(const World& world, std::span<const BodyId> bodies,
                     std::span<const JointId> joints, const std::filesystem::path& path);

} // namespace rigid2d::scene_file
