#pragma once
// grid: a bounded uniform grid over `BroadPhaseConfig::worldBounds`, re-filed by a counting sort
// at every findPairs.
//
// Why a rebuild and not incremental cell lists: `move` is called for every proxy every frame,
// in id order, which is random in space; updating cell lists there costs random memory accesses
// per move. Here `move` only stores the box (sequential) and marks the proxy dirty, and
// findPairs files all proxies at once into one contiguous array sorted by cell:
//
//   count:   for each live proxy inside the bounds, ++count[cell] for every cell its box overlaps;
//            in a sparse world also noting each cell that becomes occupied
//   offsets: begin[cell] = sum of the counts of the occupied cells before it, walking the span
//            of cells the proxies cover when it holds few cells per proxy (as in a world that
//            fills the bounds), else only the sorted noted cells, so a large sparse grid costs
//            no more per frame than a small full one
//   scatter: entries[begin[cell]++] = {box, id}          (entries of a cell are contiguous)
//   pairs:   for each occupied cell with >= 2 entries, test its pairs; keep those whose
//            intersection's lower-left corner lies in this cell (each pair once, no set)
//   outliers: proxies not entirely inside the bounds, against the cells their box covers, and
//             against each other by a sweep along x (no all-pairs cliff when many are outside)
//
// Memory stays in spatial order between frames: file() visits the proxies in the order of the
// previous filing (by the cell of their lower-left corner), not by id, so its counting and
// scattering walk the cell array almost sequentially; the box reads that jump are prefetched.
//
// Most moves keep a box in the cells it was in (a cell is four median extents wide), so a batch
// of moves without insertions or removals refreshes the filing in place instead (refresh()):
// each entry takes its proxy's new box, and a proxy whose cells changed leaves the cells it left
// (its entry swapped with the cell's last) and enters the new ones in the free slots that each
// occupied cell keeps after its entries (slackFor). The count, the offsets and the scatter, most
// of a filing, are skipped; the result is a filing like file()'s, up to the order of entries in
// a cell, and for the proxies that left the bounds or found no free slot (a cell full, or empty
// at the filing), which wait among the outliers. Many of those, relocations through crowded
// cells, or kRefreshesPerFiling refreshes in a row bring back the full filing.
//
// Between filings the entries of moved, removed or re-inserted proxies are stale: those proxies
// are "dirty". update() files once after a batch of changes: the world queries once per moved
// proxy when few moved, and testing every dirty proxy in each of those queries was O(moved^2)
// per step (5 ms of pairs stage in a 10000-circle rain), a filing is O(proxies + occupied cells)
// once. A query before update() skips the stale entries and tests the dirty proxies one by one:
// right, only slower. findPairs files only when something changed since. After a filing or a
// refresh every live proxy is in exactly the cells its box overlaps, or an outlier (validate()
// checks it).
// `maxGridCells` caps the cell array: the cell edge grows to respect it.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "broadphase/built_in_broad_phase.hpp"
#include "broadphase/cells/candidates.hpp"
#include "broadphase/cells/cell_coords.hpp"
#include "broadphase/cells/cell_pairs.hpp"
#include "broadphase/cells/cell_ray.hpp"
#include "broadphase/cells/cell_size_tracker.hpp"
#include "broadphase/cells/cell_sweep.hpp"
#include "broadphase/cells/cell_sweep_avx2.hpp"
#include "core/zeroed_vector.hpp"
#include "rigid2d/broad_phase.hpp"

namespace rigid2d::detail {

class UniformGrid final : public BuiltInBroadPhase {
public:
    /// The config is checked by makeBroadPhase.
    explicit UniformGrid(const BroadPhaseConfig& config);

    ProxyId insert(const AABB& box, std::uint64_t userData) override;
    void reserve(std::size_t proxies) override;
    void move(ProxyId proxy, const AABB& box) override;
    void moveChecked(std::span<const ProxyId> proxies, std::span<const AABB> boxes) override;
    void remove(ProxyId proxy) override;
    /// Files the changes since the last filing, if any.
    void update() override;
    void collectPairs(std::vector<ProxyPair>& out) override;
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

    /// Automatic cell edge = this many median half extents (four median extents): most boxes
    /// then sit in one or two cells, and the extra pairs a larger cell holds are tested
    /// branch-free, which costs less than filing more entries.
    static constexpr float kAutoCellFactor = 8.0f;
    /// A dense pile fills such cells with many entries each, which are sorted and swept
    /// (v3_joint_grid's equal circles: sixteen and more). When a filing averages more than
    /// kDenseEntries entries per occupied cell, the edge becomes kDenseCellFactor median half
    /// extents, until a filing averages fewer than kSparseEntries.
    static constexpr float kDenseCellFactor = 4.0f;
    static constexpr std::size_t kDenseEntries = 12;
    static constexpr std::size_t kSparseEntries = 2;
    /// The size histogram is refilled at every this many filings (or when the proxy count has
    /// changed by more than an eighth since): sizes drift slowly, and filling it cost about a
    /// seventh of a filing.
    static constexpr std::uint32_t kSizeSampleInterval = 8;
    /// Free entry slots after the `entries` of a cell at a filing, for the proxies a refresh moves
    /// in: about as many as cross its borders in a few frames, in proportion to its entries (a
    /// fixed number would multiply the memory of a sparse world's entries). None when empty.
    [[nodiscard]] static std::uint32_t slackFor(std::uint32_t entries) noexcept {
        return entries == 0 ? 0 : entries / 2 + 1;
    }
    /// A batch of moves is filed in full after this many refreshes in a row: the size sample and
    /// the dense-cell rule run at filings.
    static constexpr std::uint32_t kRefreshesPerFiling = 16;
    /// Up to this many bytes of proxy boxes (16,384 boxes) a refresh reads them by id without
    /// fetching ahead: they stay in the second-level cache from frame to frame.
    static constexpr std::size_t kUnfetchedBoxBytes = 256 * 1024;
    /// ... or as soon as more than 1 / kDisplacedShare of the proxies have become outliers in
    /// refreshes (they left the bounds, or found no free slot).
    static constexpr std::size_t kDisplacedShare = 64;

    /// Whether `outliers` of `proxies` lie outside the region, enough that it grows to hold
    /// them all (growToOutliers).
    [[nodiscard]] static bool outgrown(std::size_t outliers, std::size_t proxies) noexcept {
        return outliers > std::max<std::size_t>(256, proxies / 8);
    }
    /// Cells of edge `edge` across `length`: at least one.
    [[nodiscard]] static double cellsAcross(double length, double edge) noexcept {
        return std::max(1.0, std::ceil(length / edge));
    }

private:
    /// Lays out cells of at least `cellSize` (grown to fit maxGridCells); entries become stale
    /// until the next file().
    void configure(float cellSize);
    /// Widens m_bounds to every proxy when too many lie outside it (file() then reconfigures);
    /// true if it did.
    bool growToOutliers();
    /// countCells' answer when it did not note the cells that became occupied: they lie in
    /// [m_walkBegin, m_walkEnd) then.
    static constexpr std::size_t kNotNoted = ~std::size_t{0};
    /// Pass 1 of file(): counts per cell, outlier list, visits and, when `sampleSizes`, the size
    /// histogram. Returns how many cells of m_touched became occupied, or kNotNoted.
    std::size_t countCells(bool sampleSizes);
    template <bool kTrackOccupied, bool kSampleSizes>
    std::size_t countCellsWith();
    /// Pass 2 of file(): m_occupied, m_begin and m_free from the counts. Returns the entries
    /// the cells take, their free slots included.
    std::size_t assignOffsets(std::size_t touched);
    /// Files the changes since the last filing: refresh() when it may, else file().
    void fileChanges();
    /// Updates the last filing in place (see the header comment). False when it gave up (too
    /// many outliers, or crowded cells): file() must follow (the filing is valid but stale).
    [[nodiscard]] bool refresh();
    /// A proxy whose cells changed: the box it was filed with, its box now.
    struct Move {
        AABB was, box;
        std::uint32_t id;
    };
    /// Moves a proxy from the cells of `was` to those of `box`, or to the outliers when it left
    /// the bounds or a cell it enters has no free slot. Returns the entries it read to find its
    /// own in its old cells.
    std::size_t relocate(const Move& move);
    /// The proxies clean again after a filing or refresh.
    void cleanDirty();
    struct SweepEntry {
        CellEntry entry;
        std::uint8_t flags;
    };
    /// A crowded cell's scratch: its entries sorted by lower x, then their boxes as columns.
    struct SweepScratch {
        std::vector<SweepEntry> entries;
        CellColumns columns;
    };
    /// Where the pair search of a run of cells writes: its pairs, the next filing order's ids
    /// (the cells' primary entries), and its scratch for crowded cells.
    struct PairCursor {
        ProxyPair* pairs;
        std::uint32_t* order;
        SweepScratch* sweep;
    };
    /// Writes the pairs of the entries of cell `cell` (owned by it) and its primary ids at `at`,
    /// advancing it. Returns the box tests done.
    std::size_t cellPairs(std::uint32_t cell, PairCursor& at) const;
    /// cellPairs for the cells m_occupied[first, last), in order.
    std::size_t cellRunPairs(std::size_t first, std::size_t last, PairCursor& at) const;
#if RIGID2D_CELL_AVX2
    /// cellRunPairs on a CPU with AVX2 (m_avx2): the same pairs, ids and tests.
    RIGID2D_TARGET_AVX2 std::size_t cellRunPairsAvx2(std::size_t first, std::size_t last,
                                                     PairCursor& at) const;
#endif
    /// The cells' pairs (to `out`) and the filing order (to m_order) on m_workers, in `pieces`
    /// runs of cells; both come out as one run would write them. Returns the box tests done.
    std::size_t cellPairsInPieces(std::int32_t pieces, std::vector<ProxyPair>& out);
    /// The counting sort of every live proxy into the cells (see the header comment).
    void file();
    /// The filing order of the last file(): its primary entries in cell order, then the outliers.
    void writeFilingOrder(std::vector<std::uint32_t>& out) const;
    void markDirty(std::uint32_t id) {
        if (isDirty(id)) return;
        m_dirty[id] = m_dirtyMark;
        // The growth out of line: inlined, its register needs made every move save and restore
        // six registers (move runs for every proxy every frame).
        if (m_dirtyList.size() == m_dirtyList.capacity()) [[unlikely]]
            return appendDirtyGrowing(id);
        m_dirtyList.emplace_back(id);
    }
    [[gnu::noinline]] void appendDirtyGrowing(std::uint32_t id);
    /// Calls f(entry) for each current entry of cell (x, y): all of them after update(), else
    /// those whose proxy is not dirty.
    template <class F>
    void forEachFiled(std::int32_t x, std::int32_t y, F&& f) const;
    /// Calls f(id) for each live proxy not in the cells: filed outliers, then dirty proxies.
    template <class F>
    void forEachUnfiled(F&& f) const;
    [[nodiscard]] bool isDirty(std::uint32_t id) const noexcept {
        return m_dirty[id] == m_dirtyMark;
    }
    [[nodiscard]] bool isCurrent(std::uint32_t id) const noexcept {
        return m_proxies.isLive(ProxyId{id}) && !isDirty(id);
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
    bool m_avx2;                          ///< the CPU runs AVX2: cells take the eight-lane kernel
    float m_sizeReference = 0.0f;         ///< median half extent the automatic cell size came from
    float m_cellFactor = kAutoCellFactor; ///< kAutoCellFactor or kDenseCellFactor
    bool m_refactor = false; ///< m_cellFactor changed: the next filing lays the cells out anew

    CellSizeTracker m_sizes;          ///< the boxes of the last sampled filing (move stays a store)
    std::uint32_t m_filings = 0;      ///< filings since the last size sample
    std::size_t m_sampledProxies = 0; ///< live proxies at the last size sample
    CellMapping m_mapping;
    std::int32_t m_columns = 0;
    std::int32_t m_rows = 0;

    // The filing of the last file() or refresh(): entries of cell c are m_entries[m_begin[c] ..
    // m_begin[c] + m_count[c]); m_begin is meaningful only for the cells of m_occupied (whose
    // count may have fallen to 0 in a refresh). Past the
    // cells both arrays have kCellPadding + one row of slack for the 2 x 2 fast paths.
    static constexpr std::size_t kCellPadding = 2;
    ZeroedVector<std::uint32_t> m_begin;
    ZeroedVector<std::uint32_t> m_count;
    /// Free slots after each cell's entries: slackFor(its entries) at a filing, then what
    /// refreshes leave. A cell spans m_count + m_free entries.
    ZeroedVector<std::uint32_t> m_free;
    std::uint32_t m_refreshes = 0; ///< refreshes since the last filing
    std::size_t m_displaced = 0;   ///< proxies refreshes have made outliers since the filing
    std::vector<Move> m_moved;     ///< refresh() scratch: the proxies whose cells changed
    std::vector<std::uint32_t> m_occupied; ///< the cells with entries at the filing, ascending
    std::vector<std::uint32_t> m_touched;  ///< file() scratch: cells as they become occupied
    std::uint32_t m_walkBegin = 0;         ///< file() scratch: see kNotNoted
    std::uint32_t m_walkEnd = 0;
    std::vector<std::uint32_t> m_cellSortScratch;
    /// The entries of the cells, then kEntrySlack more: the first takes the filing's writes
    /// that no cell keeps, and the register tests of a cell read up to kRegisterCell entries
    /// from its first whatever its count.
    static constexpr std::size_t kEntrySlack = kRegisterCell;
    std::vector<CellEntry> m_entries;
    /// Per entry: kLaterColumn / kLaterRow (cell_pairs.hpp).
    std::vector<std::uint8_t> m_flags;
    SweepScratch m_sweep; ///< findPairs scratch for crowded cells
    /// findPairs scratch when in pieces: a run of cells, where it writes, how far it got.
    struct CellRun {
        std::size_t firstCell = 0, lastCell = 0;
        std::size_t pairsAt = 0, orderAt = 0;
        PairCursor end{};
        std::size_t tests = 0;
        SweepScratch sweep;
    };
    std::vector<CellRun> m_runs;
    struct Visit {
        CellEntry entry;
        std::uint32_t cell;          ///< index of the lower-left cell
        std::uint32_t width, height; ///< cells spanned beyond the first, per axis
    };
    std::vector<Visit> m_visits;  ///< file() scratch: the proxies to scatter, in visiting order
    std::size_t m_visitCount = 0; ///< the part of m_visits the last count filled
    std::vector<std::uint32_t> m_outliers;     ///< live, clean proxies not inside the bounds
    std::vector<std::uint32_t> m_outlierSweep; ///< findPairs scratch: outliers by lower x
    // Every proxy live at the last file(), in the order of its lower-left cell then; a proxy
    // inserted since is not in it (m_inOrder[id] == 0): file() appends m_inserted before it
    // counts.
    std::vector<std::uint32_t> m_order;
    std::vector<std::uint8_t> m_inOrder;
    // Proxies changed since the last file(): those whose m_dirty is the current mark, so that a
    // filing cleans them all by changing the mark, not by a store per proxy.
    std::vector<std::uint32_t> m_dirty;
    std::uint32_t m_dirtyMark = 1;
    std::vector<std::uint32_t> m_dirtyList;
    std::vector<std::uint32_t> m_inserted; ///< ids inserted outside the filing order since
    std::vector<std::uint32_t> m_removed;  ///< ids removed since the last file()

    std::vector<ProxyPair> m_candidates; ///< findPairs scratch: room for every cell's pairs
    bool m_orderPending = false; ///< m_order is the filing's before last: file() rewrites it first
    std::size_t m_overlapTests = 0;
};

} // namespace rigid2d::detail
