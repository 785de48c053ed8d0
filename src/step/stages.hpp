#pragma once
// The stages of one step, in the order World::step runs them (step.cpp). Each is a free function
// over the world's arrays (state/world_state.hpp); each stage's scratch lives there too, so that a
// warmed-up step does not allocate.
//
//   findNewPairs    new pairs of proxies that moved since the last search -> contacts, in
//                   canonical (shape id) order
//   updateContacts  contacts whose fat boxes parted are dropped; the narrow phase; begin, end and
//                   sensor events
//   solve           awake bodies gathered into dense solver arrays (gather.cpp); the soft step,
//                   whose last stage writes the bodies back and ticks their rest clocks; joint
//                   impulses stored
//   solveContinuous bullets, and bodies whose path left their fat boxes, swept against static
//                   shapes
//   refitProxies    fat boxes of awake shapes that left them, proxies moved; then the broad
//                   phase's update and the sleep stage, while the workers write the contact
//                   impulses back into the manifolds (the solve's last part, timed with it) and
//                   list the hit events
//   sleepAndFinish  islands at rest fall asleep; statistics

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/parallel_for.hpp"
#include "state/world_state.hpp"

namespace rigid2d::detail {

// The awake bodies lie anywhere in the body array (sleep and waking scramble their order): their
// records are fetched this many bodies ahead.
inline constexpr std::uint32_t kBodiesAhead = 8;
// The joint passes walk two streams of large records (a joint is 168 bytes, its constraint 192):
// the hardware stops following a stream at each page, so both are fetched this many joints ahead.
inline constexpr std::uint32_t kJointsAhead = 8;

/// The speed at which two bodies close: the length of their relative velocity.
[[nodiscard]] inline float closingSpeed(Vec2 relativeVelocity) noexcept {
    return std::sqrt(dot(relativeVelocity, relativeVelocity));
}

/// How far apart the contact stage still gives two shapes points, for bodies that close at
/// `speed` (closingSpeed): bodies closing fast get a proportionally wider speculative margin, so
/// they are stopped at the surface instead of overlapping first. Capped at kMaxShapeSize: a wider
/// margin means nothing physically, and it keeps every manifold point within the reach restore
/// accepts (world_restore.cpp, manifoldFits). The continuous stage relies on the same figure
/// (stopCentresAtThinWalls).
[[nodiscard]] inline float contactMargin(const WorldDef& def, float speed, float dt) noexcept {
    return std::min(def.speculativeDistance + speed * dt, kMaxShapeSize);
}

void step(WorldState& state, float dt);

void findNewPairs(WorldState& state);
void updateContacts(WorldState& state, float dt);
/// The solve stage's first part (gather.cpp): the awake bodies into their solver slots, the
/// constraints of their touching contacts and their joints.
void gatherSolverInputs(WorldState& state);
void solve(WorldState& state, float dt);
void solveContinuous(WorldState& state, float dt);
/// Whether a shape of the body, swept back along this step's `translation` (the body is already
/// at the end), leaves the fat box its pairs were found with.
[[nodiscard]] bool pathLeavesFatBoxes(const WorldState& state, const Body& body,
                                      Vec2 translation) noexcept;
void refitProxies(WorldState& state, float dt);
void sleepAndFinish(WorldState& state);

/// The sleep stage's clock of one body, ticked by the solve stage as it writes the body back
/// (its record is then in cache; a pass of its own fetched every awake body again): how long the
/// body has been slower than the sleep tolerances, 0 once it is not.
struct RestClock {
    float linearTolSq, angularTolSq, dt, timeToSleep;

    explicit RestClock(const WorldDef& def, float stepDt) noexcept
        : linearTolSq(def.linearSleepTolerance * def.linearSleepTolerance),
          angularTolSq(def.angularSleepTolerance * def.angularSleepTolerance), dt(stepDt),
          timeToSleep(def.timeToSleep) {}

    /// Updates body.sleepTime from its new velocity; true if it has now rested long enough.
    bool tick(Body& body) const noexcept {
        const Vec2 v = body.linearVelocity;
        const float w = body.angularVelocity;
        if (!body.enableSleep || v.x * v.x + v.y * v.y > linearTolSq || w * w > angularTolSq)
            body.sleepTime = 0.0f;
        else
            body.sleepTime += dt;
        return !(body.sleepTime < timeToSleep);
    }
};

using StageClock = std::chrono::steady_clock;
[[nodiscard]] inline float millisecondsSince(StageClock::time_point start) {
    return std::chrono::duration<float, std::milli>(StageClock::now() - start).count();
}

} // namespace rigid2d::detail
