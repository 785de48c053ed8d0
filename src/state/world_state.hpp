#pragma once
// Everything a World owns, as contiguous arrays indexed by handle, plus the scratch arrays the
// step reuses so that it does not allocate once warmed up. World (src/world) validates arguments
// and calls in here; the step's stages (src/step) read and write these arrays and pass plain
// arrays on to src/narrowphase, src/solver and src/island.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "broadphase/built_in_broad_phase.hpp"
#include "broadphase/dynamic_tree.hpp"
#include "rigid2d/world.hpp"
#include "solver/contact_solver.hpp"
#include "state/body.hpp"
#include "state/chain.hpp"
#include "state/contact.hpp"
#include "state/filter_census.hpp"
#include "state/joint.hpp"
#include "state/pair_map.hpp"
#include "state/shape.hpp"
#include "state/slot_pool.hpp"
#include "state/stage_scratch.hpp"

namespace rigid2d::detail {

/// The source of world serials (ids carry their world's serial, so an id from another world is
/// refused rather than silently naming one of this world's bodies). 64 bits: no program creates
/// enough worlds to wrap it. Exposed so that tests can start it near values that once wrapped.
std::atomic<std::uint64_t>& worldSerialCounter() noexcept;

/// Velocities a user sets are clamped to this per component (m/s, rad/s) on the way in. Far above
/// any speed the step lets through (maxTranslation / dt), it only keeps squared lengths finite.
inline constexpr float kVelocityBound = 1e18f;
[[nodiscard]] inline float boundVelocity(float v) noexcept {
    return std::min(std::max(v, -kVelocityBound), kVelocityBound);
}
[[nodiscard]] inline Vec2 boundVelocity(Vec2 v) noexcept {
    return {boundVelocity(v.x), boundVelocity(v.y)};
}

/// Refuses (naming `function`) settings World::World would refuse.
void checkWorldDef(const WorldDef& def, std::string_view function);

/// A dynamic body's mass properties as derived from its shapes. `usable` is false when they would
/// not be finite floats (the shape that would cause it is refused).
struct BodyMass {
    float mass = 0.0f, invMass = 0.0f;
    float inertia = 0.0f, invInertia = 0.0f;
    Vec2 localCenter{};
    bool usable = true;
};

/// Shapes of one negative filter group never collide, whatever their masks say: the rule the pair
/// stage applies from the proxy table and shouldCollide from the shapes.
[[nodiscard]] inline bool sameNegativeGroup(std::int32_t a, std::int32_t b) noexcept {
    return a == b && a < 0;
}

/// Which shape slot a broad-phase proxy stands for (kNullIndex: none), with that shape's filter
/// group.
struct ProxyOwner {
    std::uint32_t shape = kNullIndex;
    std::int32_t group = 0;
};

/// The owner entry of `shape`, in slot `index`.
[[nodiscard]] inline ProxyOwner ownerOf(const Shape& shape, std::uint32_t index) noexcept {
    return {index, shape.filter.groupIndex};
}

struct WorldState {
    explicit WorldState(const WorldDef& worldDef);

    WorldDef def;
    std::uint64_t serial = 0; ///< this world's tag in its ids, never 0 and never reused

    std::vector<Body> bodies;
    SlotPool bodyPool;
    std::size_t bodyCount = 0;
    std::vector<Shape> shapes;
    SlotPool shapePool;
    std::size_t shapeCount = 0;
    FilterCensus filters; ///< of the live shapes
    std::vector<Chain> chains;
    SlotPool chainPool;
    std::vector<Contact> contacts;
    SlotPool contactPool;
    std::size_t contactCount = 0;
    PairMap pairs;
    std::vector<Joint> joints;
    SlotPool jointPool;
    std::size_t jointCount = 0;

    std::unique_ptr<BroadPhase> broadPhase;
    /// broadPhase when it is a built-in kind, else nullptr: the pair stage takes its pairs
    /// unsorted (collectPairsOf), and it may spread its searches over this world's workers.
    BuiltInBroadPhase* builtInBroadPhase = nullptr;
    /// Sets builtInBroadPhase for a new broadPhase and lends it the workers.
    void bindBroadPhase() noexcept;
    /// Static non-sensor shapes by their fat boxes, as the broad phase holds them (user data:
    /// the shape), for the sweeps of continuous collision, which want nothing else: in the broad
    /// phase those queries visited every moving shape near a falling body.
    DynamicTree staticShapes;
    /// How many of them are segments or chain links: without any, the thin-wall check of
    /// continuous collision has nothing to find and is skipped.
    std::size_t staticWallCount = 0;
    /// Proxy id -> its shape, and that shape's filter group: most pairs refused in a world of
    /// ragdolls share a negative group, and the pair stage refuses them from this dense table
    /// without reading either shape (find_pairs.cpp).
    std::vector<ProxyOwner> proxyOwners;
    /// Records `shape` (slot `index`) as the owner of its proxy; the table must hold the proxy.
    void setProxyOwner(const Shape& shape, std::uint32_t index) noexcept {
        proxyOwners[toIndex(shape.proxy)] = ownerOf(shape, index);
    }
    std::vector<std::uint32_t> movedShapes;

    std::vector<std::uint32_t> awakeBodies;

    // Step scratch, reused every step: each stage's own (stage_scratch.hpp), then the solver's.
    PairStageScratch pairStage;
    ContactStageScratch contactStage;
    ContinuousStageScratch continuousStage;
    RefitStageScratch refitStage;
    SleepStageScratch sleepStage;
    std::vector<SolverState> solverBodies;
    std::vector<std::uint32_t> bodySlots;  ///< body slot -> solver slot, 0 if not awake
    std::vector<std::uint8_t> slotDynamic; ///< solver slot -> body is dynamic
    std::vector<SolverMotion> solverMotions;
    std::vector<ContactConstraint> constraints;     ///< storage, at least activeConstraints
    std::span<ContactConstraint> activeConstraints; ///< this step's, a prefix of constraints
    std::vector<JointConstraint> jointConstraints;  ///< this step's joints with an awake body
    ContactSolverScratch solverScratch;
    std::vector<std::uint32_t> wakeStack; ///< wake's and the sleep stage's flood fills
    struct PlacedBoxes {
        AABB fatBox, tightBox;
    };
    std::vector<PlacedBoxes> placeScratch; ///< placeBody's old boxes, to undo a refused move

    // Events of the last step; end events of destructions between steps wait in `pending*`.
    std::vector<ContactBeginEvent> beginEvents;
    std::vector<ContactEndEvent> endEvents;
    std::vector<ContactHitEvent> hitEvents;
    std::vector<SensorBeginEvent> sensorBeginEvents;
    std::vector<SensorEndEvent> sensorEndEvents;
    std::vector<ContactEndEvent> pendingEndEvents;
    std::vector<SensorEndEvent> pendingSensorEndEvents;

    /// The broad phase was handed in by the user (setBroadPhase with an object): a snapshot
    /// cannot recreate it. Otherwise it is `def.broadPhase` with `def.broadPhaseConfig`.
    bool customBroadPhase = false;

    StepStats stats;
    /// > 0 while a query/ray/visit callback runs: changes to the world are refused.
    mutable int lockDepth = 0;

    // --- handles
    [[nodiscard]] BodyId bodyId(std::uint32_t index) const noexcept {
        return {index, bodies[index].generation, serial};
    }
    [[nodiscard]] ShapeId shapeId(std::uint32_t index) const noexcept {
        return {index, shapes[index].generation, serial};
    }
    [[nodiscard]] JointId jointId(std::uint32_t index) const noexcept {
        return {index, joints[index].generation, serial};
    }
    [[nodiscard]] ChainId chainId(std::uint32_t index) const noexcept {
        return {index, chains[index].generation, serial};
    }
    [[nodiscard]] bool isLive(ChainId id) const noexcept {
        return id.world == serial && id.index < chains.size() && chains[id.index].live &&
               chains[id.index].generation == id.generation;
    }
    [[nodiscard]] bool isLive(BodyId id) const noexcept {
        return id.world == serial && id.index < bodies.size() && bodies[id.index].live &&
               bodies[id.index].generation == id.generation;
    }
    [[nodiscard]] bool isLive(ShapeId id) const noexcept {
        return id.world == serial && id.index < shapes.size() && shapes[id.index].live &&
               shapes[id.index].generation == id.generation;
    }
    [[nodiscard]] bool isLive(JointId id) const noexcept {
        return id.world == serial && id.index < joints.size() && joints[id.index].live &&
               joints[id.index].generation == id.generation;
    }
    /// The body of a live id, or a refusal naming `function`.
    Body& checkedBody(BodyId id, std::string_view function);
    Shape& checkedShape(ShapeId id, std::string_view function);
    Joint& checkedJoint(JointId id, std::string_view function);
    Chain& checkedChain(ChainId id, std::string_view function);
    void requireUnlocked(std::string_view function) const;

    // --- bodies and shapes (mass_properties.cpp)
    /// The mass properties of `body` with its shapes plus `extra` (if not null).
    [[nodiscard]] BodyMass massOf(const Body& body, const Shape* extra) const;
    void updateMass(Body& body);
    /// Refuses (naming `function`, `field`) a shape whose size, offset or mass is outside the
    /// limits of types.hpp, or whose bounds could overflow a float with its body at `position`.
    void checkShape(std::string_view function, std::string_view field, const Body& body,
                    const Shape& shape) const;
    /// checkShape without the body's mass sum: the limits of the shape on its own.
    void checkShapeLimits(std::string_view function, std::string_view field, const Body& body,
                          const Shape& shape) const;
    /// What a fat box adds to each side of its tight box before its stretch: the speculative
    /// distance, which the refit keeps inside it, and the margin (refit_proxies.cpp).
    [[nodiscard]] float fatMargin() const noexcept {
        return def.speculativeDistance + def.aabbMargin;
    }
    /// True when every bound the step may compute for `shape` with its body's origin at
    /// `position` (any angle, plus margins) is finite.
    [[nodiscard]] bool boundsFit(const Shape& shape, Vec2 position) const noexcept;
    /// Teleports the body and moves its proxies; if the broad phase throws, everything is put back
    /// as it was and the exception goes on.
    void placeBody(std::uint32_t bodyIndex, Vec2 position, float angle);
    [[nodiscard]] PlacedShape placed(std::uint32_t shapeIndex) const noexcept {
        const Shape& s = shapes[shapeIndex];
        return placeShape(s, bodies[s.body]);
    }
    /// Lists the shape for the next pair search, once. refitProxies (step/refit_proxies.cpp) sets
    /// the same flag from its workers and appends in awake order afterwards.
    void markMoved(std::uint32_t shapeIndex);
    void destroyShapeSlot(std::uint32_t shapeIndex);
    /// Destroys the chain's links and frees its slot (its body's mass is unchanged: links have
    /// none).
    void destroyChainSlot(std::uint32_t chainIndex);

    // --- contact lists
    /// Calls visit(contact, otherBody) for each contact of `body` in list order; visit may destroy
    /// the contact it is given (the next one is read before the call).
    template <class Visit>
    void forEachContactOf(std::uint32_t body, Visit&& visit) {
        for (std::uint32_t c = bodies[body].firstContact; c != kNullIndex;) {
            const Contact& contact = contacts[c];
            const int side = sideOf(contact, body);
            const std::uint32_t next = contact.edges[side].next;
            visit(c, contact.edges[1 - side].body);
            c = next;
        }
    }

    // --- joint lists (joints.cpp)
    /// Calls visit(joint, otherBody) for each joint of `body` in list order (otherBody is
    /// kNullIndex for a mouse joint); visit may destroy the joint it is given.
    template <class Visit>
    void forEachJointOf(std::uint32_t body, Visit&& visit) {
        for (std::uint32_t j = bodies[body].firstJoint; j != kNullIndex;) {
            const Joint& joint = joints[j];
            const int side = sideOf(joint, body);
            const std::uint32_t next = joint.edges[side].next;
            visit(j, joint.edges[1 - side].body);
            j = next;
        }
    }
    /// A new joint slot holding `joint`, linked into its bodies' lists; wakes them, and drops the
    /// contacts between them unless the joint lets them collide. Returns the slot.
    std::uint32_t createJoint(const Joint& joint);
    /// Unlinks and frees a joint, waking its bodies; bodies that could not collide because of it
    /// have their pairs searched again.
    void destroyJointSlot(std::uint32_t jointIndex);
    /// True when a joint between the two bodies keeps them from colliding.
    [[nodiscard]] bool jointForbidsCollision(std::uint32_t bodyA,
                                             std::uint32_t bodyB) const noexcept;

    // --- sleep
    /// From `start` over touching, non-sensor contacts and joints: each body taken off the stack
    /// is passed to `reached`, and each neighbour for which `join` returns true is pushed (join
    /// marks it).
    template <class Join, class Reached>
    void floodTouching(std::uint32_t start, Join&& join, Reached&& reached) {
        wakeStack.clear();
        wakeStack.push_back(start);
        while (!wakeStack.empty()) {
            const std::uint32_t b = wakeStack.back();
            wakeStack.pop_back();
            reached(b);
            forEachContactOf(b, [&](std::uint32_t c, std::uint32_t other) {
                if (isSolvable(contacts[c]) && join(other)) wakeStack.push_back(other);
            });
            forEachJointOf(b, [&](std::uint32_t, std::uint32_t other) {
                if (other != kNullIndex && join(other)) wakeStack.push_back(other);
            });
        }
    }
    /// Wakes the body and every body connected to it by touching contacts and joints.
    void wake(std::uint32_t bodyIndex);
    /// Puts the body and every body connected to it by touching contacts and joints to sleep.
    void sleepIsland(std::uint32_t bodyIndex);
    void addAwake(std::uint32_t bodyIndex);
    void removeAwake(std::uint32_t bodyIndex);

    // --- contacts
    [[nodiscard]] bool shouldCollide(std::uint32_t shapeA, std::uint32_t shapeB) const noexcept;
    void createContact(std::uint32_t shapeA, std::uint32_t shapeB);
    /// Room for `count` more contacts, made at once.
    void reserveContacts(std::size_t count);
    /// Unlinks and frees a contact; `deferEvents` queues its end event for the next step.
    void destroyContact(std::uint32_t contactIndex, bool deferEvents);
};

} // namespace rigid2d::detail
