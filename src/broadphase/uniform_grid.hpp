#pragma once
// grid: a bounded uniform grid over `BroadPhaseConfig::worldBounds`, re-filed by a counting sort
// at every findPairs.
//
// Why a rebuild and not incremental cell lists: `move` is called for every proxy every frame,
// in id order, which is random in space; updating cell lists there costs random memory accesses
// per move. Here `move` only stores the box (sequential) and marks the proxy dirty, and
// findPairs files all proxies at once into one contiguous array sorted by cell:
//
//   count:   for each live proxy inside the bounds, ++count[cell] for every cell its box overlaps
//   prefix:  start[cell] = sum of the counts before it
//   scatter: entries[start[cell]++] = {box, id}          (entries of a cell are contiguous)
//   pairs:   for each cell with >= 2 entries, test its pairs; keep those whose intersection's
//            lower-left corner lies in this cell (CellMapping::ownsPair: each pair once, no set)
//   overflow: proxies not entirely inside the bounds, against the cells their box covers, and
//            against each other
//
// Memory stays in spatial order between frames: file() visits the proxies in the order of the
// previous filing (by the cell of their lower-left corner), not by id, so its counting and
// scattering walk the cell array almost sequentially; only the box reads jump.
//
// Between rebuilds the filed entries of moved, removed or re-inserted proxies are stale: those
// proxies are "dirty". The first query or ray cast after a change re-files too (under a lock, so
// const calls stay safe to make concurrently): the world queries once per moved proxy, and
// testing every dirty proxy directly in each of those queries cost O(moved^2) per step (35 ms of
// a 10000-circle rain step), a re-file O(proxies + cells) once. After findPairs or a query every
// live proxy is in exactly the cells its box overlaps (validate() checks it).
// `maxGridCells` caps the cell array: the cell edge grows to respect it.

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "broadphase/cell_coords.hpp"
#include "broadphase/cell_search.hpp"
#include "broadphase/cell_size_tracker.hpp"
#include "broadphase/proxy_table.hpp"
#include "rigid2d/broad_phase.hpp"

namespace rigid2d::detail {

class UniformGrid final : public BroadPhase {
public:
    /// The config is checked by makeBroadPhase.
    explicit UniformGrid(const BroadPhaseConfig& config);

    ProxyId insert(const AABB& box, std::uint64_t userData) override;
    void move(ProxyId proxy, const AABB& box) override;
    void remove(ProxyId proxy) override;
    void findPairs(std::vector<ProxyPair>& out) override;
    void query(const AABB& region, FunctionRef<bool(ProxyId)> visit) const override;
    void rayCast(Vec2 origin, Vec2 translation, float maxFraction,
                 FunctionRef<float(ProxyId)> visit) const override;
    [[nodiscard]] std::size_t size() const override { return m_proxies.size(); }
    [[nodiscard]] std::string_view name() const override { return "grid"; }
    [[nodiscard]] BroadPhaseStats stats() const override;
    [[nodiscard]] AABB box(ProxyId proxy) const override;
    [[nodiscard]] std::uint64_t userData(ProxyId proxy) const override;
    void validate() const override;
    void debugDraw(DebugDraw& draw) const override;

    /// Automatic cell edge = this many median half extents.
    static constexpr float kAutoCellFactor = 4.0f;

private:
    /// Lays out cells of at least `cellSize` (grown to fit maxGridCells); entries become stale
    /// until the next file().
    void configure(float cellSize);
    /// Pass 1 of file(): counts per cell, overflow list, visits, size histogram.
    void countCells();
    /// The counting sort of every live proxy into the cells (see the header comment).
    void file();
    /// Re-files if anything changed since the last filing; callable from const queries.
    void fileIfStale() const;
    void markDirty(std::uint32_t id) {
        m_stale.store(true, std::memory_order_relaxed);
        if (m_dirty[id] != 0) return;
        m_dirty[id] = 1;
        m_dirtyList.push_back(id);
    }
    /// Calls f(id) for each proxy that may be live: m_order, then new ids of the dirty list.
    template <class F>
    void forEachInFilingOrder(F&& f) const;
    /// Calls f(entry) for each filed, still valid entry of cell (x, y).
    template <class F>
    void forEachFiled(std::int32_t x, std::int32_t y, F&& f) const;
    /// Calls f(id) for each live proxy not in the cells: filed overflow, then dirty proxies.
    template <class F>
    void forEachUnfiled(F&& f) const;
    [[nodiscard]] bool isCurrent(std::uint32_t id) const noexcept {
        return m_proxies.isLive(ProxyId{id}) && m_dirty[id] == 0;
    }
    [[nodiscard]] std::size_t cellIndex(std::int32_t x, std::int32_t y) const noexcept {
        return static_cast<std::size_t>(y) * static_cast<std::size_t>(m_columns) +
               static_cast<std::size_t>(x);
    }
    [[nodiscard]] std::size_t cellCount() const noexcept {
        return static_cast<std::size_t>(m_columns) * static_cast<std::size_t>(m_rows);
    }
    /// Budget of cells a query may visit before a plain scan of every proxy is cheaper.
    [[nodiscard]] std::int64_t cellBudget() const noexcept {
        return 4 * static_cast<std::int64_t>(m_proxies.size()) + 64;
    }

    AABB m_bounds;
    std::size_t m_maxCells;
    bool m_fixedCellSize;
    float m_sizeReference = 0.0f; ///< median half extent the automatic cell size came from

    ProxyTable m_proxies;
    CellSizeTracker m_sizes; ///< the boxes of the last filing (move stays a plain store)
    CellMapping m_mapping;
    std::int32_t m_columns = 0;
    std::int32_t m_rows = 0;

    // The filing of the last file(): entries of cell c are m_entries[m_start[c] .. m_start[c+1])
    // for c in [m_firstCell, m_lastCell], the cells between the lowest and highest cell index any
    // filed proxy covers (empty range: first > last); other cells are empty and their offsets,
    // zero past m_lastCell + 2, mean nothing (cellSpan() knows). Past the cells, m_start has
    // kStartPadding + one row of slack for file()'s 2 x 2 fast path.
    static constexpr std::size_t kStartPadding = 4;
    std::vector<std::uint32_t> m_start;
    std::size_t m_firstCell = 1;
    std::size_t m_lastCell = 0;
    struct CellSpan {
        std::uint32_t begin = 0, end = 0;
    };
    [[nodiscard]] CellSpan cellSpan(std::size_t cell) const noexcept {
        if (cell < m_firstCell || cell > m_lastCell) return {};
        return {m_start[cell], m_start[cell + 1]};
    }
    std::vector<CellEntry> m_entries;
    std::vector<std::uint8_t> m_primary; ///< per entry: the proxy's lower-left cell
    struct Visit {
        CellEntry entry;
        CellRange range;
    };
    std::vector<Visit> m_visits; ///< file() scratch: the proxies to scatter, in visiting order
    std::vector<std::uint32_t> m_overflow; ///< live, clean proxies not inside the bounds
    std::size_t m_occupiedCells = 0;
    // Every proxy live at the last file(), in the order of its lower-left cell then; a proxy
    // inserted since is not in it (m_inOrder[id] == 0) and is visited from the dirty list.
    std::vector<std::uint32_t> m_order;
    std::vector<std::uint8_t> m_inOrder;
    // Proxies changed since the last file().
    std::vector<std::uint8_t> m_dirty;
    std::vector<std::uint32_t> m_dirtyList;

    // Set by every change, cleared by file(); fileIfStale() re-files under the mutex.
    mutable std::atomic<bool> m_stale{false};
    mutable std::mutex m_fileMutex;

    std::vector<ProxyPair> m_sortScratch;
    std::size_t m_overlapTests = 0;
};

} // namespace rigid2d::detail
