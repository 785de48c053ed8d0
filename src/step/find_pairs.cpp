// Stage 1: new candidate pairs -> contacts.
#include <algorithm>

#include "core/parallel_for.hpp"
#include "step/stages.hpp"

namespace rigid2d::detail {

// New pairs come only from proxies that moved: either from one query per moved proxy with its
// fat box, or, when many moved (or the broad phase's queries are slow), from one findPairs
// filtered to the pairs that involve a moved proxy. Both give the same set. Pairs that already
// have a contact are skipped. The pairs are sorted by (shapeA, shapeB) before contacts are
// created, so contact ids, and hence the solver order, are the same whichever broad phase
// answered and whichever path it took.
void findNewPairs(WorldState& state) {
    state.newPairs.clear();
    std::size_t moved = 0;
    for (const std::uint32_t s : state.movedShapes) {
        Shape& shape = state.shapes[s];
        if (!shape.live || !shape.moved) {
            shape.moved = false;
            continue;
        }
        ++moved;
    }
    auto consider = [&](std::uint32_t s, std::uint32_t other, std::vector<std::uint64_t>& out) {
        if (!state.shouldCollide(s, other)) return;
        const std::uint64_t key = s < other ? pairKey(s, other) : pairKey(other, s);
        if (state.pairs.find(key) == PairMap::kMissing) out.push_back(key);
    };
    if (moved > 0 && moved >= state.broadPhase->pairSearchThreshold()) {
        state.broadPhase->findPairs(state.allPairs);
        for (const ProxyPair& pair : state.allPairs) {
            const std::uint32_t a = state.proxyShape[toIndex(pair.a)];
            const std::uint32_t b = state.proxyShape[toIndex(pair.b)];
            if (state.shapes[a].moved || state.shapes[b].moved) consider(a, b, state.newPairs);
        }
    } else {
        // The queries in pieces (a broad phase's queries may run at the same time), each worker
        // collecting into its own list; the sort below makes the split invisible.
        for (std::vector<std::uint64_t>& list : state.workerPairs) list.clear();
        const auto count = static_cast<std::int32_t>(state.movedShapes.size());
        parallelFor(state.def, count, 32,
                    [&](std::int32_t begin, std::int32_t end, std::int32_t worker) {
                        std::vector<std::uint64_t>& out =
                            state.workerPairs[static_cast<std::size_t>(worker)];
                        for (std::int32_t i = begin; i < end; ++i) {
                            const std::uint32_t s = state.movedShapes[static_cast<std::size_t>(i)];
                            const Shape& shape = state.shapes[s];
                            if (!shape.moved) continue;
                            state.broadPhase->query(shape.fatBox, [&](ProxyId proxy) {
                                const std::uint32_t other = state.proxyShape[toIndex(proxy)];
                                // A pair of two moved shapes is taken from the lower one's query
                                // only.
                                if (other != s && !(state.shapes[other].moved && other < s))
                                    consider(s, other, out);
                                return true;
                            });
                        }
                    });
        for (const std::vector<std::uint64_t>& list : state.workerPairs)
            state.newPairs.insert(state.newPairs.end(), list.begin(), list.end());
    }
    state.stats.movedProxies = moved;
    for (const std::uint32_t s : state.movedShapes) state.shapes[s].moved = false;
    state.movedShapes.clear();
    std::sort(state.newPairs.begin(), state.newPairs.end());
    state.newPairs.erase(std::unique(state.newPairs.begin(), state.newPairs.end()),
                         state.newPairs.end());
    for (const std::uint64_t key : state.newPairs)
        state.createContact(static_cast<std::uint32_t>(key >> 32), static_cast<std::uint32_t>(key));
    state.stats.newPairs = state.newPairs.size();
}

} // namespace rigid2d::detail
