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
    solveContinuous(state);
    state.stats.continuousMs = millisecondsSince(t);

    t = StageClock::now();
    refitProxies(state, dt);
    void* const broadPhaseUpdate = startBroadPhaseUpdate(state);
    state.stats.refitMs = millisecondsSince(t);

    t = StageClock::now();
    storeContactImpulses(state);
    state.stats.solveMs += millisecondsSince(t);

    t = StageClock::now();
    sleepAndFinish(state);
    finishBroadPhaseUpdate(state, broadPhaseUpdate);
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
