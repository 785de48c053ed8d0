// Stage 6: islands at rest fall asleep; the step's statistics.
#include "core/parallel_for.hpp"
#include "island/sleep_islands.hpp"
#include "step/stages.hpp"

namespace rigid2d::detail {

namespace {
// Links per piece: each a few nanoseconds of work, a piece tens of microseconds.
constexpr std::int32_t kLinksPerPiece = 2048;
} // namespace

void sleepAndFinish(WorldState& state) {
    SleepStageScratch& scratch = state.sleepStage;
    // The bodies' rest clocks ticked as the solve stage wrote them back (RestClock), which also
    // left sleepTimes, slotDynamic and anyRested.
    R2D_ASSERT(scratch.sleepTimes.size() == state.awakeBodies.size() &&
                   state.slotDynamic.size() == state.awakeBodies.size() + 1,
               "the solve stage left no rest clocks for these bodies");
    const float timeToSleep = state.def.timeToSleep;
    // An island sleeps only when every body in it has rested long enough: with none rested, no
    // island can, and the islands are not worth finding (a pile in motion, a tumbler, a smash).
    if (!scratch.anyRested) {
        state.stats.islands = 0;
        return;
    }
    // One link per constraint, in constraint order; a constraint with a side that is not
    // dynamic links its awake body to itself, which joins nothing. The slots are read from the
    // solver's compact list of them, not from the constraints (a third of their bytes).
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
