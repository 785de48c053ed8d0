// Stage 6: islands at rest fall asleep; the step's statistics.
#include <algorithm>
#include <atomic>

#include "core/parallel_for.hpp"
#include "island/sleep_islands.hpp"
#include "step/stages.hpp"

namespace rigid2d::detail {

namespace {
// Items per piece: each a few nanoseconds of work, a piece tens of microseconds.
constexpr std::int32_t kBodiesPerPiece = 1024;
constexpr std::int32_t kLinksPerPiece = 2048;
} // namespace

void sleepAndFinish(WorldState& state, float dt) {
    SleepStageScratch& scratch = state.sleepStage;
    const float linearTolSq = state.def.linearSleepTolerance * state.def.linearSleepTolerance;
    const float angularTolSq = state.def.angularSleepTolerance * state.def.angularSleepTolerance;
    const auto count = static_cast<std::int32_t>(state.awakeBodies.size());
    scratch.sleepTimes.resize(state.awakeBodies.size());
    // Per solver slot: is the body dynamic (slot 0, static, is not). Compact, so the loop over
    // constraints below does not read two random body records per constraint.
    state.slotDynamic.resize(state.awakeBodies.size() + 1);
    state.slotDynamic[0] = 0;
    const float timeToSleep = state.def.timeToSleep;
    std::atomic<bool> anyRested{false}; // only ever set: the same for any schedule
    parallelFor(state.def, count, kBodiesPerPiece,
                [&](std::int32_t begin, std::int32_t end, std::int32_t) {
                    bool rested = false;
                    for (auto i = static_cast<std::uint32_t>(begin);
                         i < static_cast<std::uint32_t>(end); ++i) {
                        Body& body = state.bodies[state.awakeBodies[i]];
                        state.slotDynamic[i + 1] = body.type == BodyType::Dynamic ? 1 : 0;
                        const Vec2 v = body.linearVelocity;
                        const float w = body.angularVelocity;
                        if (!body.enableSleep || v.x * v.x + v.y * v.y > linearTolSq ||
                            w * w > angularTolSq)
                            body.sleepTime = 0.0f;
                        else
                            body.sleepTime += dt;
                        scratch.sleepTimes[i] = body.sleepTime;
                        rested = rested || !(body.sleepTime < timeToSleep);
                    }
                    if (rested) anyRested.store(true, std::memory_order_relaxed);
                });
    // An island sleeps only when every body in it has rested long enough: with none rested, no
    // island can, and the islands are not worth finding (a pile in motion, a tumbler, a smash).
    if (!anyRested.load(std::memory_order_relaxed)) {
        state.stats.islands = 0;
        return;
    }
    // One link per constraint, in constraint order; a constraint with a side that is not
    // dynamic links its awake body to itself, which joins nothing. The slots are read from the
    // solver's compact list of them, not from the constraint records (a tenth of their bytes).
    const std::span<const ConstraintBodies> constraints(state.solverScratch.summary.bodies);
    scratch.islandLinks.resize(2 * constraints.size());
    parallelFor(state.def, static_cast<std::int32_t>(constraints.size()), kLinksPerPiece,
                [&](std::int32_t begin, std::int32_t end, std::int32_t) {
                    for (auto k = static_cast<std::size_t>(begin);
                         k < static_cast<std::size_t>(end); ++k) {
                        const std::uint32_t a = constraints[k].a, b = constraints[k].b;
                        const bool joins = state.slotDynamic[a] != 0 && state.slotDynamic[b] != 0;
                        const std::uint32_t awake = (a != 0 ? a : b) - 1;
                        scratch.islandLinks[2 * k] = joins ? a - 1 : awake;
                        scratch.islandLinks[2 * k + 1] = joins ? b - 1 : awake;
                    }
                });
    // A joint holds its bodies in one island, touching or not: a chain sleeps and wakes as one.
    for (const JointConstraint& joint : state.jointConstraints) {
        if (state.slotDynamic[joint.bodyA] == 0 || state.slotDynamic[joint.bodyB] == 0) continue;
        scratch.islandLinks.push_back(joint.bodyA - 1);
        scratch.islandLinks.push_back(joint.bodyB - 1);
    }
    state.stats.islands = findSleepingIslands(
        state.def, std::span<const float>(scratch.sleepTimes.data(), scratch.sleepTimes.size()),
        scratch.islandLinks, timeToSleep, scratch.islands);
    if (!state.def.enableSleep) return;
    state.wakeStack.clear();
    for (std::uint32_t i = 0; i < state.awakeBodies.size(); ++i)
        if (scratch.islands.sleeps[i] != 0) state.wakeStack.push_back(state.awakeBodies[i]);
    for (const std::uint32_t b : state.wakeStack) {
        Body& body = state.bodies[b];
        body.linearVelocity = {};
        body.angularVelocity = 0.0f;
        state.removeAwake(b);
    }
}

} // namespace rigid2d::detail
