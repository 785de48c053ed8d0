#include "broadphase/built_in_broad_phase.hpp"

#include <algorithm>
#include <string>

#include "broadphase/pair_sort.hpp"
#include "core/check.hpp"
#include "core/parallel_for.hpp"

namespace rigid2d {

void BroadPhase::findPairsOf(std::span<const ProxyId> moved, std::vector<ProxyPair>& out) {
    // box() throws for an unknown id: that is the live check a user-written kind offers.
    std::uint32_t highest = 0;
    for (const ProxyId proxy : moved) {
        static_cast<void>(box(proxy));
        highest = std::max(highest, toIndex(proxy));
    }
    detail::PairsOfScratch scratch;
    scratch.isMoved.assign(std::size_t{highest} + 1, 0);
    detail::markMoved(
        moved, [](std::uint32_t) { return true; }, scratch.isMoved.data());
    detail::pairsOfByQueries(
        *this, moved, [&](ProxyId proxy) { return box(proxy); }, scratch, out);
    detail::sortPairs(out, scratch.sort);
}

void BroadPhase::moveMany(std::span<const ProxyId> proxies, std::span<const AABB> boxes) {
    constexpr std::string_view kFunction = "BroadPhase::moveMany";
    if (proxies.size() != boxes.size())
        detail::ProxyTable::refuseSizes(kFunction, proxies.size(), boxes.size());
    for (std::size_t i = 0; i < proxies.size(); ++i) {
        // box() throws for an unknown id: that is the live check a user-written kind offers.
        try {
            static_cast<void>(box(proxies[i]));
        } catch (const Error&) {
            detail::refuse(kFunction, detail::fieldAt("proxies", i), "is not a live proxy id");
        }
        detail::requireValidBox(kFunction, detail::fieldAt("boxes", i), boxes[i]);
    }
    for (std::size_t i = 0; i < proxies.size(); ++i) move(proxies[i], boxes[i]);
}

} // namespace rigid2d

namespace rigid2d::detail {

void BuiltInBroadPhase::moveMany(std::span<const ProxyId> proxies, std::span<const AABB> boxes) {
    m_proxies.checkMoveMany("BroadPhase::moveMany", proxies, boxes);
    moveChecked(proxies, boxes);
}

void BuiltInBroadPhase::moveChecked(std::span<const ProxyId> proxies, std::span<const AABB> boxes) {
    for (std::size_t i = 0; i < proxies.size(); ++i) move(proxies[i], boxes[i]);
}

void refuseMoved(ProxyId proxy, bool live) {
    refuse("BroadPhase::findPairsOf", "moved",
           "lists proxy " + std::to_string(toIndex(proxy)) +
               (live ? " twice" : ", which is not a live proxy"));
}

void unmarkMoved(std::span<const ProxyId> moved, std::uint8_t* isMoved) noexcept {
    for (const ProxyId proxy : moved) isMoved[toIndex(proxy)] = 0;
}

namespace {
// The pairs of the moved proxies `moved` (a run of the whole list, whose proxies are marked in
// isMoved) by one query each, appended to `out` unsorted.
void appendPairsOfQueries(const BroadPhase& broadPhase, std::span<const ProxyId> moved,
                          FunctionRef<AABB(ProxyId)> boxOf,
                          const std::vector<std::uint8_t>& isMoved, std::vector<ProxyPair>& out) {
    for (const ProxyId proxy : moved) {
        const std::uint32_t p = toIndex(proxy);
        broadPhase.query(boxOf(proxy), [&](ProxyId other) {
            const std::uint32_t q = toIndex(other);
            const bool movedBelow = q < p && q < isMoved.size() && isMoved[q] != 0;
            if (q != p && !movedBelow) out.push_back(orderedPair(p, q));
            return true;
        });
    }
}
} // namespace

void pairsOfByQueries(const BroadPhase& broadPhase, std::span<const ProxyId> moved,
                      FunctionRef<AABB(ProxyId)> boxOf, PairsOfScratch& scratch,
                      std::vector<ProxyPair>& out, const WorldDef* workers) {
    out.clear();
    // Queries only read (BroadPhase: const functions may run at once), so runs of the moved
    // list can be searched on several workers, each into its own list, joined in piece order.
    // A piece of 64 queries is some ten microseconds of work, worth a hand-over: on two workers,
    // circle_rain_10000's steps with 500-1,023 moved (searched on one thread while the cut began
    // at 1,024) took 0.355 ms in the pair stage, 0.233 ms in pieces.
    constexpr std::size_t kMovedPerPiece = 64;
    if (workers == nullptr || !runsInParallel(*workers) || moved.size() < 4 * kMovedPerPiece) {
        appendPairsOfQueries(broadPhase, moved, boxOf, scratch.isMoved, out);
    } else {
        const auto pieces = static_cast<std::int32_t>(
            std::min(std::size_t{4} * static_cast<std::size_t>(workers->workerCount),
                     moved.size() / kMovedPerPiece));
        if (scratch.pieces.size() < static_cast<std::size_t>(pieces))
            scratch.pieces.resize(static_cast<std::size_t>(pieces));
        parallelFor(*workers, pieces, 1, [&](std::int32_t begin, std::int32_t end, std::int32_t) {
            for (auto p = static_cast<std::size_t>(begin); p < static_cast<std::size_t>(end); ++p) {
                const std::size_t first = moved.size() * p / static_cast<std::size_t>(pieces);
                const std::size_t last = moved.size() * (p + 1) / static_cast<std::size_t>(pieces);
                scratch.pieces[p].clear();
                appendPairsOfQueries(broadPhase, moved.subspan(first, last - first), boxOf,
                                     scratch.isMoved, scratch.pieces[p]);
            }
        });
        joinPieces(std::span(scratch.pieces).first(static_cast<std::size_t>(pieces)), out);
    }
}

void joinPieces(std::span<const std::vector<ProxyPair>> pieces, std::vector<ProxyPair>& out) {
    std::size_t total = out.size();
    for (const std::vector<ProxyPair>& piece : pieces) total += piece.size();
    out.reserve(total);
    for (const std::vector<ProxyPair>& piece : pieces)
        out.insert(out.end(), piece.begin(), piece.end());
}

void BuiltInBroadPhase::findPairs(std::vector<ProxyPair>& out) {
    collectPairs(out);
    sortPairs(out, m_pairsOf.sort);
}

void BuiltInBroadPhase::pairsOfByFullSearch(std::vector<ProxyPair>& out) {
    collectPairs(out);
    keepPairsWithFlagged(out, m_pairsOf.isMoved.data());
}

std::int32_t BuiltInBroadPhase::pairSearchPieces() const noexcept {
    // Below this many proxies a search takes tens of microseconds: not worth waking a worker.
    constexpr std::size_t kProxiesForPieces = 4096;
    if (m_workers == nullptr || !runsInParallel(*m_workers) || size() < kProxiesForPieces) return 1;
    // A few pieces per worker even out cells of unequal crowding.
    return 4 * m_workers->workerCount;
}

std::size_t BuiltInBroadPhase::pairScratchBytes() const noexcept {
    std::size_t bytes =
        m_pairsOf.sort.capacity() * sizeof(ProxyPair) + m_pairsOf.isMoved.capacity();
    for (const std::vector<ProxyPair>& piece : m_pairsOf.pieces)
        bytes += piece.capacity() * sizeof(ProxyPair);
    return bytes;
}

void BuiltInBroadPhase::findPairsOf(std::span<const ProxyId> moved, std::vector<ProxyPair>& out) {
    collectPairsOf(moved, out);
    sortPairs(out, m_pairsOf.sort);
}

void BuiltInBroadPhase::collectPairsOf(std::span<const ProxyId> moved,
                                       std::vector<ProxyPair>& out) {
    // Sized to every id ever handed out: the marking and the full search need no bound checks.
    if (m_pairsOf.isMoved.size() < m_proxies.capacity())
        m_pairsOf.isMoved.resize(m_proxies.capacity(), 0);
    const std::uint8_t* live = m_proxies.liveFlags().data();
    const std::uint32_t capacity = m_proxies.capacity();
    markMoved(
        moved, [=](std::uint32_t index) { return index < capacity && live[index] != 0; },
        m_pairsOf.isMoved.data());
    if (moved.empty()) {
        out.clear();
    } else if (moved.size() >= fullSearchFrom()) {
        pairsOfByFullSearch(out);
    } else {
        // box(), not the table: auto keeps the current boxes in its active kind, not in its own.
        pairsOfByQueries(
            *this, moved, [this](ProxyId proxy) { return box(proxy); }, m_pairsOf, out, m_workers);
    }
    unmarkMoved(moved, m_pairsOf.isMoved.data());
}

} // namespace rigid2d::detail
