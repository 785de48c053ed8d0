// Stage 6: islands at rest fall asleep; the step's statistics.
#include <algorithm>

#include "island/sleep_islands.hpp"
#include "step/stages.hpp"

namespace rigid2d::detail {

void sleepAndFinish(WorldState& state, float dt) {
    SleepStageScratch& scratch = state.sleepStage;
    const float linearTolSq = state.def.linearSleepTolerance * state.def.linearSleepTolerance;
    const float angularTolSq = state.def.angularSleepTolerance * state.def.angularSleepTolerance;
    scratch.sleepTimes.resize(state.awakeBodies.size());
    // Per solver slot: is the body dynamic (slot 0, static, is not). Compact, so the loop over
    // constraints below does not read two random body records per constraint.
    state.slotDynamic.assign(state.awakeBodies.size() + 1, 0);
    for (std::uint32_t i = 0; i < state.awakeBodies.size(); ++i) {
        Body& body = state.bodies[state.awakeBodies[i]];
        state.slotDynamic[i + 1] = body.type == BodyType::Dynamic ? 1 : 0;
        const Vec2 v = body.linearVelocity;
        const float w = body.angularVelocity;
        if (!body.enableSleep || v.x * v.x + v.y * v.y > linearTolSq || w * w > angularTolSq)
            body.sleepTime = 0.0f;
        else
            body.sleepTime += dt;
        scratch.sleepTimes[i] = body.sleepTime;
    }
    scratch.islandLinks.clear();
    for (const ContactConstraint& constraint : state.activeConstraints) {
        if (state.slotDynamic[constraint.bodyA] == 0 || state.slotDynamic[constraint.bodyB] == 0)
            continue;
        scratch.islandLinks.push_back(constraint.bodyA - 1);
        scratch.islandLinks.push_back(constraint.bodyB - 1);
    }
    // A joint holds its bodies in one island, touching or not: a chain sleeps and wakes as one.
    for (const JointConstraint& joint : state.jointConstraints) {
        if (state.slotDynamic[joint.bodyA] == 0 || state.slotDynamic[joint.bodyB] == 0) continue;
        scratch.islandLinks.push_back(joint.bodyA - 1);
        scratch.islandLinks.push_back(joint.bodyB - 1);
    }
    state.stats.islands = findSleepingIslands(
        std::span<const float>(scratch.sleepTimes.data(), scratch.sleepTimes.size()),
        scratch.islandLinks, state.def.timeToSleep, scratch.islandParent, scratch.islandMinTime,
        scratch.islandSleeps);
    if (!state.def.enableSleep) return;
    state.wakeStack.clear();
    for (std::uint32_t i = 0; i < state.awakeBodies.size(); ++i)
        if (scratch.islandSleeps[i] != 0) state.wakeStack.push_back(state.awakeBodies[i]);
    for (const std::uint32_t b : state.wakeStack) {
        Body& body = state.bodies[b];
        body.linearVelocity = {};
        body.angularVelocity = 0.0f;
        state.removeAwake(b);
    }
}

} // namespace rigid2d::detail
