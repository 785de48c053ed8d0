// Stage 1: new candidate pairs -> contacts.
#include <algorithm>

#include "step/stages.hpp"

namespace rigid2d::detail {

// New pairs come only from proxies that moved: the broad phase, brought up to date, gives the
// pairs that involve one (findPairsOf: by queries or by one full search, its choice). Pairs that
// should not collide or already have a contact are skipped. The rest are sorted by
// (shapeA, shapeB) before contacts are created, so contact ids, and hence the solver order, are
// the same whichever broad phase answered and however it searched.
void findNewPairs(WorldState& state) {
    PairStageScratch& scratch = state.pairStage;
    // Written through plain pointers, each kept by advancing the end: a flag stored through a
    // vector would make it reload its own pointers.
    scratch.movedProxies.resize(state.movedShapes.size());
    ProxyId* const first = scratch.movedProxies.data();
    ProxyId* write = first;
    Shape* const shapes = state.shapes.data();
    for (const std::uint32_t s : state.movedShapes) {
        Shape& shape = shapes[s];
        *write = shape.proxy;
        write += shape.live && shape.moved ? 1 : 0;
        shape.moved = false;
    }
    scratch.movedProxies.resize(static_cast<std::size_t>(write - first));
    state.movedShapes.clear();
    state.broadPhase->update();
    state.broadPhase->findPairsOf(scratch.movedProxies, scratch.movedPairs);
    scratch.newPairs.clear();
    for (const ProxyPair& pair : scratch.movedPairs) {
        const std::uint32_t a = state.proxyShape[toIndex(pair.a)];
        const std::uint32_t b = state.proxyShape[toIndex(pair.b)];
        if (!state.shouldCollide(a, b)) continue;
        const std::uint64_t key = a < b ? pairKey(a, b) : pairKey(b, a);
        if (state.pairs.find(key) == PairMap::kMissing) scratch.newPairs.push_back(key);
    }
    state.stats.movedProxies = scratch.movedProxies.size();
    std::sort(scratch.newPairs.begin(), scratch.newPairs.end());
    // A user-written broad phase that breaks the once-each rule must not make a contact twice.
    scratch.newPairs.erase(std::unique(scratch.newPairs.begin(), scratch.newPairs.end()),
                           scratch.newPairs.end());
    for (const std::uint64_t key : scratch.newPairs)
        state.createContact(static_cast<std::uint32_t>(key >> 32), static_cast<std::uint32_t>(key));
    state.stats.newPairs = scratch.newPairs.size();
}

} // namespace rigid2d::detail
