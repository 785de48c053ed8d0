// Stage 1: new candidate pairs -> contacts.
#include <algorithm>

#include "core/parallel_for.hpp"
#include "step/stages.hpp"

namespace rigid2d::detail {

namespace {
// Pairs per piece of the contact lookup, and moved shapes per piece of their proxies' list: a
// few microseconds of work, worth a hand-over.
constexpr std::int32_t kPairsPerPiece = 1024;
constexpr std::int32_t kShapesPerPiece = 1024;
// How far ahead the pair table's slots are fetched.
constexpr std::size_t kKeysAhead = 8;
} // namespace

// New pairs come only from proxies that moved: the broad phase, brought up to date, gives the
// pairs that involve one (findPairsOf: by queries or by one full search, its choice). Pairs that
// should not collide or already have a contact are skipped. The rest are sorted by
// (shapeA, shapeB) before contacts are created, so contact ids, and hence the solver order, are
// the same whichever broad phase answered and however it searched.
void findNewPairs(WorldState& state) {
    PairStageScratch& scratch = state.pairStage;
    // Each shape is listed once (a freed slot keeps its flag when it is reused), so pieces may
    // clear the flags of their own part of the list. The shape records lie far apart (the list
    // follows the awake order, which sleep and waking scramble): reading them waits on memory,
    // which several workers do at once. Freed slots leave a null proxy, closed up below, and so
    // do shapes whose filter admits no shape of the world (FilterCensus): their pairs would all
    // be refused below. The filter lies past the shape's first line, so it is read only while
    // some class of the world admits none.
    const auto movedCount = static_cast<std::int32_t>(state.movedShapes.size());
    scratch.movedProxies.resize(state.movedShapes.size());
    ProxyId* const proxies = scratch.movedProxies.data();
    const std::uint32_t* const moved = state.movedShapes.data();
    Shape* const shapes = state.shapes.data();
    state.filters.refresh();
    const FilterCensus* const filters = state.filters.someAdmitNone() ? &state.filters : nullptr;
    parallelFor(state.def, movedCount, kShapesPerPiece,
                [=](std::int32_t begin, std::int32_t end, std::int32_t) {
                    for (std::int32_t i = begin; i < end; ++i) {
                        Shape& shape = shapes[moved[i]];
                        proxies[i] =
                            shape.live && !(filters != nullptr && filters->admitsNone(shape.filter))
                                ? shape.proxy
                                : ProxyId::Null;
                        shape.moved = false;
                    }
                });
    std::erase(scratch.movedProxies, ProxyId::Null);
    state.movedShapes.clear();
    state.broadPhase->update();
    // A built-in kind leaves out findPairsOf's sort: the new pairs are sorted by shapes below.
    if (state.builtInBroadPhase != nullptr)
        state.builtInBroadPhase->collectPairsOf(scratch.movedProxies, scratch.movedPairs);
    else
        state.broadPhase->findPairsOf(scratch.movedProxies, scratch.movedPairs);
    // Most pairs a moved proxy finds already have a contact, or are parts of one ragdoll that
    // share a negative group. The group is beside the proxy's shape in a dense table, so those
    // pairs are refused first, for nothing. The rest need a lookup in a large table per pair,
    // done in pieces. Key 0 (shape 0 with itself) marks a pair to skip.
    const auto pairCount = static_cast<std::int32_t>(scratch.movedPairs.size());
    scratch.pairKeys.resize(scratch.movedPairs.size());
    // The table before the filter test: a pair with a contact needs no look at its shapes and
    // bodies (the test reads both of each, four records far apart).
    parallelFor(state.def, pairCount, kPairsPerPiece,
                [&](std::int32_t begin, std::int32_t end, std::int32_t) {
                    const auto from = static_cast<std::size_t>(begin);
                    const auto to = static_cast<std::size_t>(end);
                    for (std::size_t i = from; i < to; ++i) {
                        const ProxyPair& pair = scratch.movedPairs[i];
                        const ProxyOwner a = state.proxyOwners[toIndex(pair.a)];
                        const ProxyOwner b = state.proxyOwners[toIndex(pair.b)];
                        const bool refused = sameNegativeGroup(a.group, b.group);
                        scratch.pairKeys[i] = refused             ? 0
                                              : a.shape < b.shape ? pairKey(a.shape, b.shape)
                                                                  : pairKey(b.shape, a.shape);
                    }
                    for (std::size_t i = from; i < to; ++i) {
                        if (i + kKeysAhead < to && scratch.pairKeys[i + kKeysAhead] != 0)
                            state.pairs.prefetch(scratch.pairKeys[i + kKeysAhead]);
                        std::uint64_t& key = scratch.pairKeys[i];
                        if (key == 0) continue;
                        if (state.pairs.find(key) != PairMap::kMissing ||
                            !state.shouldCollide(static_cast<std::uint32_t>(key >> 32),
                                                 static_cast<std::uint32_t>(key)))
                            key = 0;
                    }
                });
    scratch.newPairs.clear();
    for (const std::uint64_t key : scratch.pairKeys)
        if (key != 0) scratch.newPairs.push_back(key);
    state.stats.movedProxies = scratch.movedProxies.size();
    std::sort(scratch.newPairs.begin(), scratch.newPairs.end());
    // A user-written broad phase that breaks the once-each rule must not make a contact twice.
    scratch.newPairs.erase(std::unique(scratch.newPairs.begin(), scratch.newPairs.end()),
                           scratch.newPairs.end());
    state.reserveContacts(scratch.newPairs.size());
    for (const std::uint64_t key : scratch.newPairs)
        state.createContact(static_cast<std::uint32_t>(key >> 32), static_cast<std::uint32_t>(key));
    state.stats.newPairs = scratch.newPairs.size();
}

} // namespace rigid2d::detail
