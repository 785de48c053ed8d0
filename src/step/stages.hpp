#pragma once
// The stages of one step, in the order World::step runs them (step.cpp). Each is a free function
// over the world's arrays (state/world_state.hpp); each stage's scratch lives there too, so that a
// warmed-up step does not allocate.
//
//   findNewPairs    new pairs of proxies that moved since the last search -> contacts, in
//                   canonical (shape id) order
//   updateContacts  contacts whose fat boxes parted are dropped; the narrow phase; begin, end and
//                   sensor events
//   solve           awake bodies gathered into dense solver arrays; the soft step; joint
//                   impulses stored; bodies written back, their rest clocks ticked
//   solveContinuous bullets, and bodies whose path left their fat boxes, swept against static
//                   shapes
//   refitProxies    fat boxes of awake shapes that left them, proxies moved; the broad phase's
//                   update starts, and beside it the contact impulses go back into the
//                   manifolds (the solve's last part, timed with it); hit events
//   sleepAndFinish  islands at rest fall asleep; statistics

#include <chrono>

#include "state/world_state.hpp"

namespace rigid2d::detail {

void step(WorldState& state, float dt);

void findNewPairs(WorldState& state);
void updateContacts(WorldState& state, float dt);
void solve(WorldState& state, float dt);
/// The solve stage's last part, run beside the broad phase's update: the impulses back into the
/// persistent manifolds (the next step's warm start), those of reset bodies dropped; hit events.
void storeContactImpulses(WorldState& state);
void solveContinuous(WorldState& state);
/// Whether a shape of the body, swept back along this step's `translation` (the body is already
/// at the end), leaves the fat box its pairs were found with.
[[nodiscard]] bool pathLeavesFatBoxes(const WorldState& state, const Body& body,
                                      Vec2 translation) noexcept;
void refitProxies(WorldState& state, float dt);
/// The broad phase's update after the refit's moves: done at once, or started on a worker
/// (returns the task's handle, for finishBroadPhaseUpdate once the sleep stage is done).
[[nodiscard]] void* startBroadPhaseUpdate(WorldState& state);
void finishBroadPhaseUpdate(const WorldState& state, void* handle);
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
