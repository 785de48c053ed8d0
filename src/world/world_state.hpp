#pragma once
// Everything a World owns, as contiguous arrays indexed by handle, plus the scratch arrays the
// step reuses so that it does not allocate once warmed up. World (world.cpp) validates arguments
// and calls in here; the step stages (world_step.cpp) pass plain arrays to src/narrowphase,
// src/solver, src/island and src/continuous.

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "rigid2d/world.hpp"
#include "solver/contact_solver.hpp"
#include "world/body.hpp"
#include "world/contact.hpp"
#include "world/pair_map.hpp"
#include "world/shape.hpp"

namespace rigid2d::detail {

/// Generations carry the world's serial in their top bits, so an id from another world is
/// refused rather than silently naming one of this world's bodies. The low bits count reuses of
/// the slot; a slot whose counter is exhausted is retired, so an id never aliases.
inline constexpr std::uint32_t kGenerationCounterBits = 20;
inline constexpr std::uint32_t kGenerationCounterMask = (1u << kGenerationCounterBits) - 1u;

struct WorldState {
    explicit WorldState(const WorldDef& worldDef);

    WorldDef def;
    std::uint32_t serial = 0; ///< this world's tag in generations (1..4095)

    std::vector<Body> bodies;
    std::vector<std::uint32_t> freeBodies;
    std::size_t bodyCount = 0;
    std::vector<Shape> shapes;
    std::vector<std::uint32_t> freeShapes;
    std::size_t shapeCount = 0;
    std::vector<Contact> contacts;
    std::vector<std::uint32_t> freeContacts;
    std::size_t contactCount = 0;
    PairMap pairs;

    std::unique_ptr<BroadPhase> broadPhase;
    std::vector<std::uint32_t> proxyShape; ///< proxy id -> shape slot
    std::vector<std::uint32_t> movedShapes;

    std::vector<std::uint32_t> awakeBodies;

    // Step scratch, reused every step.
    std::vector<std::uint64_t> newPairs;
    std::vector<ProxyPair> allPairs; ///< findPairs output when many proxies moved
    std::vector<SolverState> solverBodies;
    std::vector<std::uint32_t> bodySlots;  ///< body slot -> solver slot, 0 if not awake
    std::vector<std::uint8_t> slotDynamic; ///< solver slot -> body is dynamic
    std::vector<SolverMotion> solverMotions;
    std::vector<ContactConstraint> constraints;     ///< storage, at least activeConstraints
    std::span<ContactConstraint> activeConstraints; ///< this step's, a prefix of constraints
    ContactSolverScratch solverScratch;
    std::vector<std::uint32_t> islandParent;
    std::vector<std::uint32_t> islandLinks;
    std::vector<std::uint8_t> islandSleeps;
    std::vector<float> sleepTimes;
    std::vector<float> islandMinTime;
    std::vector<std::uint32_t> wakeStack;

    // Events of the last step; end events of destructions between steps wait in `pending*`.
    std::vector<ContactBeginEvent> beginEvents;
    std::vector<ContactEndEvent> endEvents;
    std::vector<ContactHitEvent> hitEvents;
    std::vector<SensorBeginEvent> sensorBeginEvents;
    std::vector<SensorEndEvent> sensorEndEvents;
    std::vector<ContactEndEvent> pendingEndEvents;
    std::vector<SensorEndEvent> pendingSensorEndEvents;

    StepStats stats;
    /// > 0 while a query/ray/visit callback runs: changes to the world are refused.
    mutable int lockDepth = 0;

    // --- handles
    [[nodiscard]] BodyId bodyId(std::uint32_t index) const noexcept {
        return {index, bodies[index].generation};
    }
    [[nodiscard]] ShapeId shapeId(std::uint32_t index) const noexcept {
        return {index, shapes[index].generation};
    }
    [[nodiscard]] bool isLive(BodyId id) const noexcept {
        return id.index < bodies.size() && bodies[id.index].live &&
               bodies[id.index].generation == id.generation;
    }
    [[nodiscard]] bool isLive(ShapeId id) const noexcept {
        return id.index < shapes.size() && shapes[id.index].live &&
               shapes[id.index].generation == id.generation;
    }
    /// The body of a live id, or a refusal naming `function`.
    Body& checkedBody(BodyId id, std::string_view function);
    Shape& checkedShape(ShapeId id, std::string_view function);
    void requireUnlocked(std::string_view function) const;
    [[nodiscard]] std::uint32_t nextGeneration(std::uint32_t previous) const noexcept;

    // --- bodies and shapes
    void updateMass(Body& body);
    /// Re-places every shape of the body and moves its proxies (after a teleport).
    void refreshProxies(std::uint32_t bodyIndex);
    [[nodiscard]] PlacedShape placed(std::uint32_t shapeIndex) const noexcept {
        const Shape& s = shapes[shapeIndex];
        return placeShape(s, bodies[s.body]);
    }
    void insertProxy(std::uint32_t shapeIndex);
    void markMoved(std::uint32_t shapeIndex);
    void destroyShapeSlot(std::uint32_t shapeIndex);

    // --- sleep
    /// Wakes the body and every body connected to it by touching contacts.
    void wake(std::uint32_t bodyIndex);
    /// Puts the body and every body connected to it by touching contacts to sleep.
    void sleepIsland(std::uint32_t bodyIndex);
    void addAwake(std::uint32_t bodyIndex);
    void removeAwake(std::uint32_t bodyIndex);

    // --- contacts
    [[nodiscard]] bool shouldCollide(std::uint32_t shapeA, std::uint32_t shapeB) const noexcept;
    void createContact(std::uint32_t shapeA, std::uint32_t shapeB);
    /// Unlinks and frees a contact; `deferEvents` queues its end event for the next step.
    void destroyContact(std::uint32_t contactIndex, bool deferEvents);

    // --- step stages (world_step.cpp)
    void step(float dt);
    void findNewPairs();
    void updateContacts(float dt);
    void solve(float dt);
    void solveContinuous();
    void updateBroadPhase(float dt);
    void sleepAndFinish(float dt);
};

} // namespace rigid2d::detail
