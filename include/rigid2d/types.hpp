#pragma once
/// Definitions used to create a world, its bodies and shapes. Every field has a default, a unit
/// and a reason for the default.

#include <cstdint>
#include <span>

#include "rigid2d/broad_phase.hpp"
#include "rigid2d/math.hpp"

namespace rigid2d {

enum class BodyType : std::uint8_t {
    Static,    ///< never moves, infinite mass
    Kinematic, ///< moved by its velocity only, infinite mass, pushes dynamic bodies
    Dynamic,   ///< moved by gravity, forces and contacts
};

/// Largest accepted gravity component (m/s²) and gravity scale magnitude: their product stays far
/// from overflowing a float in the step.
inline constexpr float kMaxGravity = 1e6f;
inline constexpr float kMaxGravityScale = 1e6f;

/// Largest frequency (Hz) and damping ratio of a soft constraint (contacts, joints, springs):
/// beyond them the soft step's coefficients would overflow a float.
inline constexpr float kMaxHertz = 1e6f;

/// One piece of a parallel loop of the step: items [begin, end), run as worker `workerIndex`, in
/// [0, WorldDef::workerCount) and not shared by two pieces of the task that run at the same time
/// (the step keeps scratch per worker index). Pass `taskContext` back unchanged.
using TaskFunction = void(std::int32_t begin, std::int32_t end, std::int32_t workerIndex,
                          void* taskContext);
/// Runs `task` over the items [0, itemCount), cut into pieces of at least `minRange` items (the
/// last may be shorter) that cover every item exactly once, in any order, on any threads, now or
/// later; returns a handle for FinishTaskFunction, or nullptr when every piece has already run.
/// Run pieces with the stepping thread's floating-point environment (rounding, flush-to-zero):
/// the bits depend on it.
/// `userTaskContext` is WorldDef::userTaskContext.
using EnqueueTaskFunction = void*(TaskFunction* task, std::int32_t itemCount, std::int32_t minRange,
                                  void* taskContext, void* userTaskContext);
/// Returns once every piece of the task behind `handle` (never nullptr) has run.
using FinishTaskFunction = void(void* handle, void* userTaskContext);

/// Most workers a world accepts: the step keeps a little scratch per worker.
inline constexpr std::int32_t kMaxWorkers = 64;

struct WorldDef {
    /// m/s². Earth-like, with y up. Components within ±kMaxGravity.
    Vec2 gravity{0.0f, -10.0f};
    /// Which broad phase finds candidate pairs; swappable later with `World::setBroadPhase`.
    /// `auto` picks and changes kinds by measurement (every kind gives the same world), so a
    /// world needs no choice; a fixed kind spares its probes.
    BroadPhaseType broadPhase = BroadPhaseType::Auto;
    BroadPhaseConfig broadPhaseConfig{};
    /// Solver substeps per step. 4 keeps 20-row pyramids standing at 60 Hz; more = stiffer.
    int substeps = 4;
    /// Bodies at rest for `timeToSleep` fall asleep and cost nothing until woken.
    bool enableSleep = true;
    /// Continuous collision of `bullet` bodies against static shapes.
    bool enableContinuous = true;
    /// Hz, in (0, kMaxHertz]. Stiffness of the soft contact constraint; a fraction of the substep
    /// rate.
    float contactHertz = 30.0f;
    /// Dimensionless damping ratio of the soft contact; heavily damped so stacks do not bounce.
    float contactDampingRatio = 10.0f;
    /// Hz, in (0, kMaxHertz]. Stiffness of the push-out that holds rigid joints and joint
    /// limits together: twice the contacts', since a joint should not stretch under load.
    float jointHertz = 60.0f;
    /// Dimensionless, >= 0. Damping of that push-out, so a chain pulled taut does not ring.
    float jointDampingRatio = 2.0f;
    /// m/s. Cap on the speed at which overlap is pushed apart, so deep overlaps do not explode.
    float maxContactPushSpeed = 3.0f;
    /// Largest mass ratio two bodies have as one contact sees them (>= 1, or 0 for none): the
    /// lighter one answers as if it had at least 1/ratio of the other's mass. Without it a body
    /// far heavier than the one under it falls through (the solver's iterations transfer about
    /// the lighter mass's worth of impulse each); with it a 1000 kg crate rests on a 1 g box.
    /// The price: in a free collision the heavy body loses more speed than it physically would,
    /// and it feels the light body's load multiplied by the boost. So the limit is not applied
    /// where the heavier body is held by a joint (other than a mouse joint): the joint carries
    /// that body's load, and would stretch under the multiplied one (a motorised drum of light
    /// boxes, a paddle in a pile).
    float maxContactMassRatio = 10.0f;
    /// m/s. Approach speeds below this get no restitution, so resting bodies do not jitter.
    float restitutionThreshold = 1.0f;
    /// m/s. Contacts that begin with at least this approach speed produce a hit event.
    float hitEventThreshold = 1.0f;
    /// m. Fat-AABB margin: a proxy moves in the broad phase only when its shape, grown by the
    /// speculative distance and swept along one step of the body's velocity, leaves its fat box;
    /// the new fat box is that box grown by this margin (the sweep at most eight margins long). A
    /// wider margin means fewer moves but more pairs whose shapes are apart, each a contact to
    /// keep: in a churning pile (v3_tumbler, v3_spinner) 0.05 beat 0.1.
    float aabbMargin = 0.05f;
    /// m. Shapes closer than this get a speculative contact point so they meet without overlap.
    float speculativeDistance = 0.02f;
    /// m. How far short of a surface continuous collision stops a body (so the next step starts
    /// with a contact, not an overlap); also the tolerance the tests measure overlaps against.
    float linearSlop = 0.005f;
    /// m per step. Velocity clamp that keeps a blown-up body from crossing the world in one step.
    float maxTranslation = 8.0f;
    /// rad per step. Angular velocity clamp, the rotational twin of `maxTranslation`: half a turn
    /// per step, beyond which a rotation cannot be told from its opposite anyway.
    float maxRotation = 3.14159265f;
    /// s. Time a body must stay below the sleep tolerances before its island may sleep.
    float timeToSleep = 0.5f;
    /// m/s and rad/s. Speeds under which a body counts as at rest.
    float linearSleepTolerance = 0.05f;
    float angularSleepTolerance = 2.0f / 180.0f * 3.14159265f;
    /// Threads the step may use at once through `enqueueTask`, in [1, kMaxWorkers]. The results
    /// are the same bits for any count and any scheduler; without callbacks it is not used and the
    /// step runs on the calling thread. ThreadPool::attach (rigid2d/thread_pool.hpp) sets it.
    std::int32_t workerCount = 1;
    /// The game's scheduler: both callbacks or neither (refused otherwise). World::step calls them
    /// from the thread that steps and finishes every task it enqueues before it returns. Up to two
    /// are pending at once: a built-in broad phase's update, a task of one piece, runs beside the
    /// sleep stage's tasks.
    EnqueueTaskFunction* enqueueTask = nullptr;
    FinishTaskFunction* finishTask = nullptr;
    /// Passed to both callbacks (the scheduler's own state); not read by the world.
    void* userTaskContext = nullptr;
};

struct BodyDef {
    /// Static by default, like Box2D: ground and walls are the most common bodies.
    BodyType type = BodyType::Static;
    Vec2 position{0.0f, 0.0f};       ///< m, world frame
    float angle = 0.0f;              ///< rad, counter-clockwise
    Vec2 linearVelocity{0.0f, 0.0f}; ///< m/s
    float angularVelocity = 0.0f;    ///< rad/s
    float linearDamping = 0.0f;      ///< 1/s; 0 = no drag
    float angularDamping = 0.0f;     ///< 1/s
    float gravityScale = 1.0f;       ///< multiplies the world's gravity, |scale| <= 1e6
    bool fixedRotation = false;      ///< no rotation (its boxes stay axis-aligned, see Box)
    bool bullet = false;             ///< continuous collision against static shapes
    bool enableSleep = true;         ///< false keeps this body (and its island) awake
    bool isAwake = true;             ///< start asleep to save work on pre-settled scenes
    std::uint64_t userData = 0;
};

/// Collision filtering, Box2D-style: two shapes collide when each one's category is in the other's
/// mask, unless they share a non-zero group (positive: always collide, negative: never). A shape
/// whose masks refuse every shape of the world (for each one, its mask leaves out their category
/// or theirs leaves out its own) costs no pair search when it moves.
struct Filter {
    std::uint32_t categoryBits = 0x0001u;
    std::uint32_t maskBits = 0xFFFFFFFFu;
    std::int32_t groupIndex = 0;
};

struct ShapeDef {
    float density = 1.0f;            ///< kg/m²; 0 gives a massless shape on a body with other mass
    float friction = 0.6f;           ///< Coulomb coefficient, mixed by geometric mean
    float restitution = 0.0f;        ///< bounciness in [0, 1], mixed by maximum
    bool isSensor = false;           ///< detects overlap (sensor events) without a contact response
    bool enableSensorEvents = true;  ///< this shape is seen by sensors
    bool enableContactEvents = true; ///< begin/end events for this shape's contacts
    bool enableHitEvents = true;     ///< hit events for this shape's contacts
    Filter filter{};
    std::uint64_t userData = 0;
};

/// Limits on shapes, so that every mass, inertia and bound the world derives from them is a finite
/// float: `createCircle` and `createBox` refuse shapes outside them. A density of 0 (a massless
/// shape) is always allowed; a positive one must give the shape a mass within the mass limits.
inline constexpr float kMinShapeSize = 1e-6f; ///< m: smallest radius or half extent
/// m: largest radius or half extent, and largest offset of a shape from its body's origin.
inline constexpr float kMaxShapeSize = 1e8f;
inline constexpr float kMinShapeMass = 1e-15f; ///< kg, of a shape with density > 0
inline constexpr float kMaxShapeMass = 1e20f;  ///< kg

/// A circle in body coordinates.
struct Circle {
    Vec2 center{0.0f, 0.0f}; ///< m, offset from the body origin
    float radius = 0.5f;     ///< m, in [kMinShapeSize, kMaxShapeSize]
};

/// A box in body coordinates. It turns with its body, as a four-vertex polygon (`shapeType`
/// says Polygon), unless it cannot turn: at angle 0 on a static or fixed-rotation body at angle 0
/// it stays an axis-aligned box in the world (`shapeType` Box), the fast path of the narrow phase.
struct Box {
    Vec2 center{0.0f, 0.0f};      ///< m, offset from the body origin
    Vec2 halfExtents{0.5f, 0.5f}; ///< m, both in [kMinShapeSize, kMaxShapeSize]
    float angle = 0.0f;           ///< rad, relative to the body
};

/// Most vertices a polygon may have: enough for the shapes games build, few enough that a polygon
/// is a fixed-size value and the narrow phase's loops stay short.
inline constexpr int kMaxPolygonVertices = 8;

/// A convex polygon in body coordinates, counter-clockwise, with its outward unit edge normals
/// (normal i belongs to the edge from vertex i to vertex i + 1) and its centroid. Build one with
/// `makePolygon` (or `makeBox`), which checks convexity and computes the normals.
struct Polygon {
    Vec2 vertices[kMaxPolygonVertices]{};
    Vec2 normals[kMaxPolygonVertices]{};
    Vec2 centroid{0.0f, 0.0f};
    int count = 0;
    /// m, >= 0. Rounds the polygon: its surface is every point within `radius` of the core.
    float radius = 0.0f;
};

/// A capsule in body coordinates: every point within `radius` of the segment center1-center2.
struct Capsule {
    Vec2 center1{0.0f, -0.5f}; ///< m
    Vec2 center2{0.0f, 0.5f};  ///< m, distinct from center1
    float radius = 0.25f;      ///< m, > 0
};

/// A line segment in body coordinates. It has no area and so no mass: meant for static ground.
struct Segment {
    Vec2 point1{-1.0f, 0.0f}; ///< m
    Vec2 point2{1.0f, 0.0f};  ///< m, distinct from point1
};

/// One link of a chain (World::createChain): the segment point1-point2 and the chain's points on
/// either side of it, the ghost vertices (ghost1 before point1, ghost2 after point2), which tell
/// the narrow phase how the chain goes on so that nothing catches on the joins. One-sided: it
/// collides only on its right-hand side (seen from point1 towards point2), where its normal
/// points.
struct ChainSegment {
    Vec2 ghost1{}; ///< m, body frame
    Segment segment{};
    Vec2 ghost2{}; ///< m, body frame
};

enum class ShapeType : std::uint8_t { Circle, Box, Polygon, Capsule, Segment, ChainSegment };

/// Most points a chain may have: a long landscape fits, and a bad count (a garbage size) is
/// refused before anything is allocated for it.
inline constexpr int kMaxChainPoints = 1 << 20;

/// A chain of segments on a static or kinematic body (World::createChain): ground and walls a
/// body slides along without catching on the joins. Each link is a shape of kind ChainSegment,
/// collided on its right-hand side only: a chain listed right to left faces up, and a loop
/// listed counter-clockwise faces outwards (a solid to stand on), clockwise inwards (a container).
struct ChainDef {
    /// m, body frame; read during createChain only (the world keeps its own copy). Consecutive
    /// points (and, for a loop, the last and the first) at least kPolygonWeldDistance apart.
    /// An open chain needs at least 4: its first and last points are ghost vertices only (they
    /// say where the chain would go on; no segment reaches them), so points.size() - 3 links.
    /// A loop needs at least 3 and has one link per point.
    std::span<const Vec2> points{};
    bool loop = false;
    float friction = 0.6f;    ///< as ShapeDef::friction, for every link
    float restitution = 0.0f; ///< as ShapeDef::restitution, for every link
    Filter filter{};
    bool enableSensorEvents = true;  ///< as ShapeDef: the links are seen by sensors
    bool enableContactEvents = true; ///< begin/end events for the links' contacts
    bool enableHitEvents = true;     ///< hit events for the links' contacts
    std::uint64_t userData = 0;      ///< every link's ShapeDef::userData
};

/// A shape for queries (World::castShape, World::overlapShape): a convex core of 1 to
/// kMaxPolygonVertices points in the shape's own frame, grown by `radius`. One point is a circle,
/// two a capsule (or a segment, radius 0), more a polygon. Make one with makeShapeProxy.
struct ShapeProxy {
    Vec2 points[kMaxPolygonVertices]{};
    int count = 0;
    float radius = 0.0f; ///< m, >= 0
};

} // namespace rigid2d
