// World::step: the stages of stages.hpp in their order, each timed into StepStats. They run in this
// order so that after step() returns every proxy holds its shape (queries are exact between steps).
#include "step/stages.hpp"

namespace rigid2d::detail {

void step(WorldState& state, float dt) {
    const auto stepStart = StageClock::now();
    state.beginEvents.clear();
    state.endEvents.clear();
    state.hitEvents.clear();
    state.sensorBeginEvents.clear();
    state.sensorEndEvents.clear();
    state.endEvents.swap(state.pendingEndEvents);
    state.sensorEndEvents.swap(state.pendingSensorEndEvents);

    auto t = StageClock::now();
    findNewPairs(state);
    state.stats.pairsMs = millisecondsSince(t);

    t = StageClock::now();
    updateContacts(state, dt);
    state.stats.contactsMs = millisecondsSince(t);

    solve(state, dt); // sets gatherMs and solveMs

    t = StageClock::now();
    solveContinuous(state, dt);
    state.stats.continuousMs = millisecondsSince(t);

    t = StageClock::now();
    refitProxies(state, dt);
    state.stats.refitMs = millisecondsSince(t);

    // The batch of moves is over: the broad phase is brought up to date (a grid's filing, a
    // tree's rebuild), so that queries between steps and the next pair search read it whole. It
    // runs on the calling thread, whose cache holds the boxes the refit has just moved.
    t = StageClock::now();
    state.broadPhase->update();
    state.stats.refitMs += millisecondsSince(t);

    t = StageClock::now();
    sleepAndFinish(state);
    state.stats.sleepMs = millisecondsSince(t);

    state.stats.bodies = state.bodyCount;
    state.stats.shapes = state.shapeCount;
    state.stats.awakeBodies = state.awakeBodies.size();
    state.stats.proxies = state.broadPhase->size();
    state.stats.contacts = state.contactCount;
    state.stats.broadPhase = state.broadPhase->stats();
    state.stats.totalMs = millisecondsSince(stepStart);
}

} // namespace rigid2d::detail
