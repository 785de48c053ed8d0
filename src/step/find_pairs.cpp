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
    state.movedProxies.clear();
    for (const std::uint32_t s : state.movedShapes) {
        Shape& shape = state.shapes[s];
        if (shape.live && shape.moved) state.movedProxies.push_back(shape.proxy);
        shape.moved = false;
    }
    state.movedShapes.clear();
    state.broadPhase->update();
    state.broadPhase->findPairsOf(state.movedProxies, state.movedPairs);
    state.newPairs.clear();
    for (const ProxyPair& pair : state.movedPairs) {
        const std::uint32_t a = state.proxyShape[toIndex(pair.a)];
        const std::uint32_t b = state.proxyShape[toIndex(pair.b)];
        if (!state.shouldCollide(a, b)) continue;
        const std::uint64_t key = a < b ? pairKey(a, b) : pairKey(b, a);
        if (state.pairs.find(key) == PairMap::kMissing) state.newPairs.push_back(key);
    }
    state.stats.movedProxies = state.movedProxies.size();
    std::sort(state.newPairs.begin(), state.newPairs.end());
    // A user-written broad phase that breaks the once-each rule must not make a contact twice.
    state.newPairs.erase(std::unique(state.newPairs.begin(), state.newPairs.end()),
                         state.newPairs.end());
    for (const std::uint64_t key : state.newPairs)
        state.createContact(static_cast<std::uint32_t>(key >> 32), static_cast<std::uint32_t>(key));
    state.stats.newPairs = state.newPairs.size();
}

} // namespace rigid2d::detail
