#pragma once
// What the peer programs share: the options of a scene run, the interface each engine's scene
// runner implements, the churn index interface, and the helpers both engines use to read a scene
// the way FORMAT.md means it.

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "../churn_workload.hpp"
#include "rigid2d/geometry.hpp"
#include "scene_file.hpp"

namespace rigid2d::peers {

using scene_file::BodyDesc;
using scene_file::JointDesc;
using scene_file::JointKind;
using scene_file::SceneDesc;
using scene_file::ShapeDesc;

/// A bad command line: printed with the usage text, exit code 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};
/// A valid scene that an engine cannot represent: exit code 2, the message names what.
struct Unrepresentable : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct SceneOptions {
    std::string index;          ///< chipmunk: bbtree | spatial_hash | sweep1d; box2d: dynamic_tree
    int velocityIterations = 8; ///< box2d
    int positionIterations = 3; ///< box2d
    bool continuous = true;     ///< box2d: continuous collision, Box2D's default
    int iterations = 10;        ///< chipmunk
    std::string sleep = "default"; ///< default (box2d on, chipmunk off) | on | off
    double slop = -1;              ///< chipmunk collision slop; < 0: the library's 0.1
    std::string mix = "native";    ///< chipmunk: native (products) | box2d (sqrt, max)
    double hashDim = 0;            ///< chipmunk spatial_hash cell; 0: 2 x median shape size
    long long hashCells = 0;       ///< chipmunk spatial_hash table; 0: 2 x bodies
    std::string rounded = "grown"; ///< box2d: a rounded polygon grown by its radius | core
};

struct BodyState {
    double x, y, vx, vy, angle;
};
/// The force and torque a joint applies to its body B in the last step (summed over the pieces
/// an engine builds it from).
struct JointState {
    double fx, fy, torque;
};

/// What a scene's version-2 features became in an engine, for the report: `approximations` (not
/// the same thing) and `mapping` (the same thing by other means).
class EngineNotes {
public:
    void approximate(const std::string& what) { addOnce(m_approximations, what); }
    void map(const std::string& what) { addOnce(m_mapping, what); }
    /// `, "approximations": [...], "mapping": [...]`, each only when not empty.
    [[nodiscard]] std::string json() const;

private:
    static void addOnce(std::vector<std::string>& list, const std::string& what);
    std::vector<std::string> m_approximations, m_mapping;
};

class SceneRun {
public:
    virtual ~SceneRun() = default;
    [[nodiscard]] virtual std::string engine() const = 0;
    [[nodiscard]] virtual std::string broadphase() const = 0;
    virtual void step(double dt) = 0;
    [[nodiscard]] virtual std::vector<BodyState> bodies() const = 0; ///< in scene order
    [[nodiscard]] virtual std::vector<JointState> joints() const = 0;
    [[nodiscard]] virtual int awakeDynamicBodies() const = 0;
    /// The report's settings, as JSON members.
    [[nodiscard]] virtual std::string settingsJson() const = 0;
};

std::unique_ptr<SceneRun> makeBox2dScene(const SceneDesc& scene, const SceneOptions& options);
std::unique_ptr<SceneRun> makeChipmunkScene(const SceneDesc& scene, const SceneOptions& options);

struct ChurnOptions {
    std::string index;
    bool velocityFunc = true; ///< chipmunk bbtree: fatten leaves along the motion, as cpSpace does
    bool touchMargin = true;  ///< chipmunk sweep1d: widen x by one ulp so touching boxes are kept
    double hashDim = 0;
    long long hashCells = 0;
};

/// One broad phase under the churn workload: setup inserts every box (and runs a first pair
/// search where the engine does that at setup); frame tells it the moved boxes and counts the
/// candidate pairs and the ones that really overlap.
class ChurnIndex {
public:
    virtual ~ChurnIndex() = default;
    [[nodiscard]] virtual std::string engine() const = 0;
    [[nodiscard]] virtual std::string broadphase() const = 0;
    [[nodiscard]] virtual std::string settingsJson() const = 0;
    virtual void setup(const bench::ChurnBoxes& boxes) = 0;
    virtual void frame(const bench::ChurnBoxes& boxes, std::uint64_t& candidates,
                       std::uint64_t& overlaps) = 0;
};

std::unique_ptr<ChurnIndex> makeBox2dChurn(const ChurnOptions& options);
std::unique_ptr<ChurnIndex> makeChipmunkChurn(const ChurnOptions& options);
std::unique_ptr<ChurnIndex> makeBruteChurn();

// --- reading a scene as FORMAT.md means it

/// Version 1: a dynamic body with a box keeps a fixed rotation; version 2: the file's flag.
[[nodiscard]] bool hasFixedRotation(const SceneDesc& scene, const BodyDesc& body);
/// True for bodies whose exact mass data an engine's own shapes would get wrong (capsules and
/// rounded polygons): those get the mass data of `exactMass`.
[[nodiscard]] bool needsExactMass(const BodyDesc& body);
/// Mass, centre of mass (body frame) and inertia about it, of every shape of the body.
[[nodiscard]] MassData exactMass(const BodyDesc& body);
/// The exact overlap test of churn (closed intervals, float bounds).
[[nodiscard]] bool boxesOverlap(const bench::ChurnBoxes& boxes, std::size_t a, std::size_t b);

} // namespace rigid2d::peers
