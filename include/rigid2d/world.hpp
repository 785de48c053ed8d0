#pragma once
/// The world: bodies, shapes, the step, queries and events.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "rigid2d/broad_phase.hpp"
#include "rigid2d/debug_draw.hpp"
#include "rigid2d/error.hpp"
#include "rigid2d/events.hpp"
#include "rigid2d/function_ref.hpp"
#include "rigid2d/ids.hpp"
#include "rigid2d/joints.hpp"
#include "rigid2d/math.hpp"
#include "rigid2d/types.hpp"

namespace rigid2d {

namespace detail {
struct WorldState;
struct WorldAccess; ///< white-box tests only (defined there)
} // namespace detail

/// The range of `World::step`'s dt, seconds. Below it the speed clamps (maxTranslation / dt)
/// and the solver's 1 / substep overflow; above it no soft contact is stable.
inline constexpr float kMinTimeStep = 1e-6f;
inline constexpr float kMaxTimeStep = 1.0f;

/// The format version `World::snapshot` writes; `World::restore` reads this version only
/// (2: joints, chains and the joint settings of WorldDef; 3: each contact's manifold cache; 4: the
/// cache's record of shapes found apart).
inline constexpr std::uint32_t kSnapshotVersion = 4;

/// One exact ray hit against a shape.
struct RayHit {
    ShapeId shape;
    Vec2 point{};       ///< m, world frame
    Vec2 normal{};      ///< unit, pointing out of the shape
    float fraction = 0; ///< hit = origin + fraction * translation
};

/// One hit of a shape cast: the first contact of the moving shape with `shape`.
struct ShapeCastHit {
    ShapeId shape;
    Vec2 point{};       ///< m, world frame, on the surface of `shape`
    Vec2 normal{};      ///< unit, out of `shape` towards the moving one
    float fraction = 0; ///< the moving shape touches at position + fraction * translation
};

/// Times of the stages of the last step (milliseconds) and the sizes of what it handled.
struct StepStats {
    float pairsMs = 0;      ///< 1. new candidate pairs -> contacts
    float contactsMs = 0;   ///< 2. contact update + narrow phase
    float gatherMs = 0;     ///< 3a. awake bodies and contacts into the solver's arrays
    float solveMs = 0;      ///< 3b. solver substeps, write-back, hit events
    float continuousMs = 0; ///< 4. bullets and fast bodies swept against static shapes
    /// 5. fat boxes refreshed, proxies moved, the broad phase updated; with workers and a
    /// built-in broad phase, its update runs beside stage 6 and is timed there.
    float refitMs = 0;
    float sleepMs = 0; ///< 6. islands, sleep
    float totalMs = 0;
    std::size_t bodies = 0;
    std::size_t awakeBodies = 0;
    std::size_t shapes = 0;
    std::size_t proxies = 0;
    /// Moved proxies whose new pairs were searched: not those of shapes whose filter admits no
    /// shape of the world (their pairs would all be refused).
    std::size_t movedProxies = 0;
    std::size_t newPairs = 0;         ///< candidate pairs the step created contacts for
    std::size_t contacts = 0;         ///< persistent contacts (fat AABBs overlap)
    std::size_t touchingContacts = 0; ///< solid (not sensor) contacts with a manifold point
    /// Contacts of turning shapes whose manifold was carried over from an earlier step instead of
    /// collided in full: their shapes moved less than a tenth of linearSlop relative to each
    /// other, or were found apart earlier and have not moved enough since to touch.
    std::size_t reusedManifolds = 0;
    /// Islands that could sleep this step: awake bodies that have rested for timeToSleep, joined
    /// by the touching contacts and joints between them. Each sleeps unless one of its bodies
    /// touches or is jointed to a body still moving. 0 when no body had rested (the islands were
    /// not looked for).
    std::size_t islands = 0;
    /// Groups of islands the solver laid its constraints out in: 1 for the whole world at once.
    /// Without workers it solves one group after the other, each within the cache (src/README.md,
    /// "Groups of islands"); the results are the same bits either way.
    std::size_t solverGroups = 0;
    /// Bodies whose state would have become non-finite this step and were restored (see step).
    std::size_t resetBodies = 0;
    BroadPhaseStats broadPhase{};
};

/// A 2D physics world. Not thread-safe; every function must be called from one thread.
///
/// Functions that change the world throw `rigid2d::Error` (leaving the world unchanged) when an
/// argument is bad or when called from inside a query callback.
class World {
public:
    explicit World(const WorldDef& def = {});
    ~World();
    World(World&&) noexcept;
    World& operator=(World&&) noexcept;
    World(const World&) = delete;
    World& operator=(const World&) = delete;

    // --- bodies
    BodyId createBody(const BodyDef& def);
    /// Destroys the body, its shapes, their contacts (end events are reported at the next step)
    /// and its joints.
    void destroyBody(BodyId body);
    [[nodiscard]] bool isValid(BodyId body) const noexcept;
    [[nodiscard]] std::size_t bodyCount() const noexcept;
    /// Calls visit for every live body in creation-slot order.
    void forEachBody(FunctionRef<void(BodyId)> visit) const;

    [[nodiscard]] BodyType bodyType(BodyId body) const;
    [[nodiscard]] Vec2 position(BodyId body) const;
    [[nodiscard]] float angle(BodyId body) const;
    [[nodiscard]] Vec2 linearVelocity(BodyId body) const;
    [[nodiscard]] float angularVelocity(BodyId body) const;
    [[nodiscard]] float mass(BodyId body) const;    ///< kg, 0 for static/kinematic
    [[nodiscard]] float inertia(BodyId body) const; ///< kg m² about the centre of mass
    [[nodiscard]] Vec2 worldCenterOfMass(BodyId body) const;
    [[nodiscard]] bool isAwake(BodyId body) const;
    [[nodiscard]] bool isBullet(BodyId body) const;
    [[nodiscard]] std::uint64_t userData(BodyId body) const;

    /// Refused when a shape's bounds would overflow a float at the new position.
    void setTransform(BodyId body, Vec2 position, float angle);
    /// Any finite velocity is accepted (components beyond ±1e18 are clamped there); the step
    /// clamps speeds further (see `step`).
    void setLinearVelocity(BodyId body, Vec2 velocity);
    void setAngularVelocity(BodyId body, float velocity);
    /// Newtons, at a world point; accumulates until the next step. Wakes the body. Refused when
    /// the accumulated force or torque would overflow a float.
    void applyForce(BodyId body, Vec2 force, Vec2 worldPoint);
    void applyForceToCenter(BodyId body, Vec2 force);
    void applyTorque(BodyId body, float torque);
    /// N·s, at a world point; changes velocity at once. Wakes the body. Refused when the velocity
    /// would overflow a float.
    void applyLinearImpulse(BodyId body, Vec2 impulse, Vec2 worldPoint);
    void setAwake(BodyId body, bool awake);
    void setBullet(BodyId body, bool bullet);
    void setUserData(BodyId body, std::uint64_t userData);

    // --- shapes
    ShapeId createCircle(BodyId body, const ShapeDef& def, const Circle& circle);
    /// A box that turns with its body, or an axis-aligned one where it cannot turn (see Box).
    ShapeId createBox(BodyId body, const ShapeDef& def, const Box& box);
    /// A convex polygon of 3 to 8 vertices (build it with makePolygon), optionally rounded.
    ShapeId createPolygon(BodyId body, const ShapeDef& def, const Polygon& polygon);
    ShapeId createCapsule(BodyId body, const ShapeDef& def, const Capsule& capsule);
    /// A line segment: static or kinematic bodies only (it has no area, so no mass).
    ShapeId createSegment(BodyId body, const ShapeDef& def, const Segment& segment);
    /// A chain of one-sided segments on a static or kinematic body (see ChainDef), each link a
    /// shape of kind ChainSegment that the broad phase, queries, events and filters see like any
    /// other. Returns the chain's id; its links' ids come from chainSegments. Refused: a dynamic
    /// body, non-finite points, too few or too many (kMaxChainPoints), consecutive points closer
    /// than kPolygonWeldDistance, points beyond kMaxShapeSize of the body origin.
    ChainId createChain(BodyId body, const ChainDef& def);
    /// Destroys the chain and its links (end events of their contacts at the next step).
    void destroyChain(ChainId chain);
    [[nodiscard]] bool isValid(ChainId chain) const noexcept;
    [[nodiscard]] BodyId chainBody(ChainId chain) const;
    /// The links in chain order (from the first point towards the last).
    [[nodiscard]] std::vector<ShapeId> chainSegments(ChainId chain) const;
    [[nodiscard]] bool isLoop(ChainId chain) const;
    /// Refused for a chain's link: a chain loses links only all at once (destroyChain), so that
    /// its remaining links' ghost vertices never name a link that is gone.
    void destroyShape(ShapeId shape);
    [[nodiscard]] bool isValid(ShapeId shape) const noexcept;
    [[nodiscard]] BodyId shapeBody(ShapeId shape) const;
    [[nodiscard]] ShapeType shapeType(ShapeId shape) const;
    [[nodiscard]] Circle shapeCircle(ShapeId shape) const;   ///< throws if not a circle
    [[nodiscard]] Box shapeBox(ShapeId shape) const;         ///< throws if not an axis-aligned box
    [[nodiscard]] Polygon shapePolygon(ShapeId shape) const; ///< body frame; throws if not one
    [[nodiscard]] Capsule shapeCapsule(ShapeId shape) const; ///< throws if not a capsule
    [[nodiscard]] Segment shapeSegment(ShapeId shape) const; ///< throws if not a segment
    /// A chain's link with its ghost vertices, body frame; throws if not a chain's link.
    [[nodiscard]] ChainSegment shapeChainSegment(ShapeId shape) const;
    /// The chain a link belongs to; throws if the shape is not a chain's link.
    [[nodiscard]] ChainId shapeChain(ShapeId shape) const;
    [[nodiscard]] AABB shapeAABB(ShapeId shape) const; ///< tight, world frame
    [[nodiscard]] bool isSensor(ShapeId shape) const;
    [[nodiscard]] float friction(ShapeId shape) const;
    [[nodiscard]] float restitution(ShapeId shape) const;
    [[nodiscard]] Filter filter(ShapeId shape) const;
    [[nodiscard]] std::uint64_t userData(ShapeId shape) const;
    void setFriction(ShapeId shape, float friction);
    void setRestitution(ShapeId shape, float restitution);
    void setFilter(ShapeId shape, const Filter& filter);
    /// Calls visit for each shape of `body`.
    void forEachShape(BodyId body, FunctionRef<void(ShapeId)> visit) const;

    // --- joints (joints.hpp). Each create refuses bad definitions naming the field: bodies that
    // are stale, the same or both static; non-finite numbers; a lower limit above the upper; a
    // zero axis. It wakes both bodies. Setters wake the bodies too; a setter for a setting the
    // joint's kind does not have is refused.
    JointId createRevoluteJoint(const RevoluteJointDef& def);
    JointId createDistanceJoint(const DistanceJointDef& def);
    JointId createPrismaticJoint(const PrismaticJointDef& def);
    JointId createWeldJoint(const WeldJointDef& def);
    JointId createWheelJoint(const WheelJointDef& def);
    JointId createMouseJoint(const MouseJointDef& def);
    void destroyJoint(JointId joint);
    [[nodiscard]] bool isValid(JointId joint) const noexcept;
    [[nodiscard]] std::size_t jointCount() const noexcept;
    /// Calls visit for every live joint in creation-slot order.
    void forEachJoint(FunctionRef<void(JointId)> visit) const;
    /// Calls visit for each joint of `body`.
    void forEachJoint(BodyId body, FunctionRef<void(JointId)> visit) const;
    [[nodiscard]] JointType jointType(JointId joint) const;
    [[nodiscard]] BodyId jointBodyA(JointId joint) const; ///< null for a mouse joint
    [[nodiscard]] BodyId jointBodyB(JointId joint) const;
    /// m, world frame, where the bodies are now (a mouse joint's A anchor is its target).
    [[nodiscard]] Vec2 jointAnchorA(JointId joint) const;
    [[nodiscard]] Vec2 jointAnchorB(JointId joint) const;
    [[nodiscard]] bool jointCollideConnected(JointId joint) const;
    [[nodiscard]] std::uint64_t userData(JointId joint) const;
    void setUserData(JointId joint, std::uint64_t userData);
    /// N, world frame: the force the joint applied to body B in the last step (a game breaks a
    /// joint above a threshold). Zero before the first step and while the bodies sleep.
    [[nodiscard]] Vec2 jointReactionForce(JointId joint) const;
    /// N m: the torque the joint applied to body B in the last step.
    [[nodiscard]] float jointReactionTorque(JointId joint) const;
    /// Revolute, weld: B's angle relative to A minus the difference at creation, rad.
    [[nodiscard]] float jointAngle(JointId joint) const;
    /// Prismatic, wheel: B's anchor along the axis from its place at creation, m.
    [[nodiscard]] float jointTranslation(JointId joint) const;

    /// Revolute (rad), prismatic (m): the range; distance: min and max length (m).
    void enableJointLimit(JointId joint, bool enable);
    void setJointLimits(JointId joint, float lower, float upper);
    [[nodiscard]] bool isJointLimitEnabled(JointId joint) const;
    [[nodiscard]] float jointLowerLimit(JointId joint) const;
    [[nodiscard]] float jointUpperLimit(JointId joint) const;
    /// Revolute, wheel (rad/s, N m), prismatic (m/s, N).
    void enableJointMotor(JointId joint, bool enable);
    void setJointMotorSpeed(JointId joint, float speed);
    void setJointMaxMotorForce(JointId joint, float maxForceOrTorque);
    [[nodiscard]] bool isJointMotorEnabled(JointId joint) const;
    [[nodiscard]] float jointMotorSpeed(JointId joint) const;
    [[nodiscard]] float jointMaxMotorForce(JointId joint) const;
    /// Revolute, distance, prismatic, wheel; weld: the linear spring (setWeldAngularSpring for
    /// the rotation); mouse: the pull.
    void enableJointSpring(JointId joint, bool enable);
    void setJointSpring(JointId joint, float hertz, float dampingRatio);
    void setWeldAngularSpring(JointId joint, float hertz, float dampingRatio);
    [[nodiscard]] bool isJointSpringEnabled(JointId joint) const;
    [[nodiscard]] float jointSpringHertz(JointId joint) const;
    [[nodiscard]] float jointSpringDampingRatio(JointId joint) const;
    /// Distance: the rest length, m.
    void setJointLength(JointId joint, float length);
    [[nodiscard]] float jointLength(JointId joint) const;
    /// Mouse: where the grabbed point is pulled, and the largest force, N.
    void setJointTarget(JointId joint, Vec2 target);
    [[nodiscard]] Vec2 jointTarget(JointId joint) const;
    void setJointMaxForce(JointId joint, float maxForce);
    /// Prismatic, wheel: the unit axis in the world frame, turned with body A since creation.
    [[nodiscard]] Vec2 jointAxis(JointId joint) const;
    /// Weld: the angular spring setWeldAngularSpring sets (hertz 0: rigid in rotation).
    [[nodiscard]] float weldAngularSpringHertz(JointId joint) const;
    [[nodiscard]] float weldAngularSpringDampingRatio(JointId joint) const;

    // --- simulation
    /// Advances by `dt` seconds, in [kMinTimeStep, kMaxTimeStep]. Never throws for what bodies
    /// do; throws `Error` only for a bad `dt` or a call from inside a callback. Speeds are clamped
    /// to `maxTranslation / dt` and `maxRotation / dt`. Last resort: a body whose velocity or
    /// motion would become non-finite, or whose velocity would end beyond 1e18 (not expected
    /// within the documented limits), keeps its position and angle from before the step, loses
    /// its velocity, and is counted in `stats().resetBodies`; the impulses of its contacts and
    /// joints are dropped. The world stays finite.
    void step(float dt);
    [[nodiscard]] Vec2 gravity() const noexcept;
    void setGravity(Vec2 gravity);
    [[nodiscard]] const WorldDef& def() const noexcept;

    // --- broad phase
    /// Swaps the broad phase between steps; contacts and sleep state are kept.
    void setBroadPhase(BroadPhaseType type, const BroadPhaseConfig& config = {});
    /// Hands the world a user-written broad phase (must be empty).
    void setBroadPhase(std::unique_ptr<BroadPhase> broadPhase);
    [[nodiscard]] const BroadPhase& broadPhase() const noexcept;

    // --- queries (exact shape tests after the broad phase)
    /// Calls visit for each shape overlapping `region`; visit returns false to stop.
    void queryAABB(const AABB& region, FunctionRef<bool(ShapeId)> visit) const;
    /// Calls visit for each shape the segment hits; visit returns the new max fraction: 0 stops,
    /// the hit's fraction clips to it (closest hit), 1 continues unclipped.
    void castRay(Vec2 origin, Vec2 translation, FunctionRef<float(const RayHit&)> visit) const;
    [[nodiscard]] std::optional<RayHit> castRayClosest(Vec2 origin, Vec2 translation) const;
    /// Sweeps `shape`, placed at `position` turned by `angle`, along `translation` without
    /// turning; calls visit for each shape it would touch, which returns the new max fraction as
    /// for castRay. Shapes it already overlaps at the start are not hits (overlapShape finds them).
    /// A chain's link counts as a plain segment here, from either side (as in Box2D).
    /// What a character controller asks before it moves.
    void castShape(const ShapeProxy& shape, Vec2 position, float angle, Vec2 translation,
                   FunctionRef<float(const ShapeCastHit&)> visit) const;
    [[nodiscard]] std::optional<ShapeCastHit>
    castShapeClosest(const ShapeProxy& shape, Vec2 position, float angle, Vec2 translation) const;
    /// Calls visit for each shape that `shape`, placed at `position` turned by `angle`, overlaps
    /// or touches; visit returns false to stop.
    void overlapShape(const ShapeProxy& shape, Vec2 position, float angle,
                      FunctionRef<bool(ShapeId)> visit) const;

    // --- events of the last step
    [[nodiscard]] ContactEvents contactEvents() const noexcept;
    [[nodiscard]] SensorEvents sensorEvents() const noexcept;

    // --- snapshots: save games, rollback, replays
    /// The whole world as bytes: settings, bodies, shapes, contacts and joints with their
    /// warm-start impulses, sleep state, the broad-phase kind and the events of the last step.
    /// Stepping on after `restore` gives the same bits as stepping on from here. The bytes are
    /// little-endian (portable between hosts), versioned and checksummed. Refused when the world
    /// runs a user-written broad phase (it cannot be made again); set a built-in kind first.
    [[nodiscard]] std::vector<std::uint8_t> snapshot() const;
    /// The same bytes into `bytes` (replacing its contents), reusing its capacity: a game that
    /// saves every frame for rollback allocates once.
    void snapshot(std::vector<std::uint8_t>& bytes) const;
    /// Replaces the whole world with a snapshot's. Ids keep their meaning: an id this world
    /// issued before the snapshot names the same body or shape after it (ids of objects created
    /// since are stale again). Bytes that are damaged, truncated, of another version or not a
    /// snapshot are refused, the world unchanged. Statistics start from zero. The scheduler
    /// (workerCount and the task callbacks) is not saved: the world keeps its own.
    void restore(std::span<const std::uint8_t> bytes);

    // --- inspection
    [[nodiscard]] const StepStats& stats() const noexcept;
    void debugDraw(DebugDraw& draw) const;

private:
    friend struct detail::WorldAccess;
    std::unique_ptr<detail::WorldState> m_state;
};

} // namespace rigid2d
