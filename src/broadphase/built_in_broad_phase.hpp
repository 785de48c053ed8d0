#pragma once
// What every built-in kind shares beyond the public interface: the proxy table (ids, boxes, user
// data) and findPairsOf, done one of two ways:
//
//   queries:     for each moved proxy p, query p's box; keep (p, q) unless q is p, or q is also
//                moved and lower (that pair comes from q's own query)
//   full search: every pair (collectPairs, unsorted), kept to those with a moved proxy
//
// Both give the same pairs, which findPairsOf then sorts; the world, which sorts what it makes of
// them itself, takes them unsorted (collectPairsOf). A kind says from how many moved proxies its
// full search is the cheaper (fullSearchFrom); the public default (BroadPhase::findPairsOf)
// always queries.

#include <cstdint>
#include <span>
#include <vector>

#include "broadphase/proxy_table.hpp"
#include "rigid2d/broad_phase.hpp"
#include "rigid2d/function_ref.hpp"
#include "rigid2d/types.hpp"

namespace rigid2d::detail {

/// Storage findPairsOf reuses from call to call, so the step allocates nothing.
struct PairsOfScratch {
    std::vector<std::uint8_t> isMoved;          ///< by proxy id; all 0 between calls
    std::vector<ProxyPair> sort;                ///< sortPairs' scratch (findPairs' too)
    std::vector<std::vector<ProxyPair>> pieces; ///< each piece's pairs, when searched in pieces
};

/// Refuses `moved` for listing `proxy`, which is not live, or live but listed twice.
[[noreturn]] void refuseMoved(ProxyId proxy, bool live);
/// Clears what markMoved marked.
void unmarkMoved(std::span<const ProxyId> moved, std::uint8_t* isMoved) noexcept;
/// Marks the ids of `moved` in isMoved (which covers every live id), refusing one that isLive
/// denies or that is listed twice; nothing stays marked when it throws. A raw pointer: each
/// byte stored may alias anything, and a vector's own pointer would be reloaded after it.
template <class IsLive>
void markMoved(std::span<const ProxyId> moved, IsLive&& isLive, std::uint8_t* isMoved) {
    for (std::size_t i = 0; i < moved.size(); ++i) {
        const std::uint32_t index = toIndex(moved[i]);
        const bool live = isLive(index);
        if (!live || isMoved[index] != 0) [[unlikely]] {
            unmarkMoved(moved.first(i), isMoved);
            refuseMoved(moved[i], live);
        }
        isMoved[index] = 1;
    }
}
/// findPairsOf's pairs, unsorted, by one query per moved proxy (marked in scratch.isMoved), its
/// box from boxOf; on `workers` (core/parallel_for.hpp) in pieces when there are many.
void pairsOfByQueries(const BroadPhase& broadPhase, std::span<const ProxyId> moved,
                      FunctionRef<AABB(ProxyId)> boxOf, PairsOfScratch& scratch,
                      std::vector<ProxyPair>& out, const WorldDef* workers = nullptr);
/// Appends every piece's pairs to `out`, in piece order.
void joinPieces(std::span<const std::vector<ProxyPair>> pieces, std::vector<ProxyPair>& out);
class BuiltInBroadPhase : public BroadPhase {
public:
    /// checkMoveMany on the proxy table, then moveChecked.
    void moveMany(std::span<const ProxyId> proxies, std::span<const AABB> boxes) override;
    /// moveMany after its checks (auto calls it on its kinds, having checked once itself). The
    /// default calls `move` for each proxy; a kind whose `move` only stores the box and marks
    /// the proxy does that in one loop.
    virtual void moveChecked(std::span<const ProxyId> proxies, std::span<const AABB> boxes);
    /// Every pair of overlapping proxies once, as (a, b) with a < b, in no particular order:
    /// findPairs before its sort. `out` is cleared first.
    virtual void collectPairs(std::vector<ProxyPair>& out) = 0;
    /// collectPairs, sorted.
    void findPairs(std::vector<ProxyPair>& out) final;
    /// findPairsOf before its sort: the same pairs in no particular order. One full search when
    /// at least fullSearchFrom() proxies moved, else a query per moved proxy. (auto wraps it to
    /// count its frames.)
    virtual void collectPairsOf(std::span<const ProxyId> moved, std::vector<ProxyPair>& out);
    /// collectPairsOf, sorted.
    void findPairsOf(std::span<const ProxyId> moved, std::vector<ProxyPair>& out) final;
    /// From how many moved proxies one full search costs less than a query per moved proxy. The
    /// default suits structures whose queries are sublinear in the proxy count.
    [[nodiscard]] virtual std::size_t fullSearchFrom() const { return size() / 4 + 1; }
    /// The world whose workers the pair search may spread over (core/parallel_for.hpp): the
    /// queries of findPairsOf, and a kind's full search if it can cut it (pairSearchPieces);
    /// nullptr: the calling thread only. Set by the world that owns the broad phase.
    virtual void setWorkers(const WorldDef* def) noexcept { m_workers = def; }
    /// Room for `proxies` proxies, so that inserting as many grows no array. Auto builds a
    /// candidate a slice at a time, with a look at the clock every few inserts; one growth
    /// copies the whole array into fresh memory, whose page faults (11 us a page on a
    /// virtual machine) could outlast the slice several times.
    virtual void reserve(std::size_t proxies) { m_proxies.reserve(proxies); }
    /// Its ids, boxes and user data (auto reads its active kind's boxes here).
    [[nodiscard]] const ProxyTable& proxies() const noexcept { return m_proxies; }

protected:
    /// Into how many pieces a kind that can split its full search should split it now: 1 when
    /// it has no workers or too few proxies for a hand-over to pay.
    [[nodiscard]] std::int32_t pairSearchPieces() const noexcept;
    /// Bytes of the pair search's scratch, for stats().
    [[nodiscard]] std::size_t pairScratchBytes() const noexcept;

    ProxyTable m_proxies;
    const WorldDef* m_workers = nullptr;

private:
    /// collectPairsOf by collectPairs, kept to the pairs with a proxy marked in
    /// m_pairsOf.isMoved.
    void pairsOfByFullSearch(std::vector<ProxyPair>& out);

    PairsOfScratch m_pairsOf;
};

} // namespace rigid2d::detail
