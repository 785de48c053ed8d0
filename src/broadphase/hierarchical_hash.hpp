#pragma once
// hierarchical_hash: hash levels (cells/hash_level.hpp) whose cell edges double from one level to
// the next (finest * 2^level). Each proxy lives on the finest level whose cell edge is at least
// its larger extent, so it touches at most 2 x 2 cells there whatever its size: a 1000 m ground
// and 0.05 m pebbles coexist without the ground filling millions of small cells or the pebbles
// crowding one big cell. Levels are created on demand.
//
// The spatial hash (spatial_hash.hpp) is this hash held to one level: there a box goes on the
// level unless it spans more than kMaxCellsOnOneLevel cells.
//
// Proxies no level takes (spatial hash: too many cells; hierarchical: an extent beyond every
// level) are "outliers", kept in a list and tested against everything.
//
// findPairs:
//   each level:    the pairs of proxies sharing a cell, each reported by one cell
//   across levels: each proxy looks up the (at most 2 x 2) cells its box covers on every coarser
//                  occupied level; ownership there keeps each pair once, and only the finer
//                  proxy of a pair searches, so no pair is found twice
//   outliers:      each against the cells its box covers on every occupied level, then against
//                  the outliers after it
// The automatic finest cell edge follows the median half extent (CellSizeTracker) and everything
// is re-filed when it drifts by more than 2x.

#include <cstdint>
#include <string_view>
#include <vector>

#include "broadphase/built_in_broad_phase.hpp"
#include "broadphase/cells/cell_coords.hpp"
#include "broadphase/cells/cell_pairs.hpp"
#include "broadphase/cells/cell_size_tracker.hpp"
#include "broadphase/cells/hash_level.hpp"
#include "rigid2d/broad_phase.hpp"

namespace rigid2d::detail {

/// The kind's name and the function names it reports in errors.
struct HashNames {
    std::string_view name, insert, move, remove, query, rayCast, box, userData;
};

class HierarchicalHash : public BuiltInBroadPhase {
public:
    /// The config is checked by makeBroadPhase.
    explicit HierarchicalHash(const BroadPhaseConfig& config);

    ProxyId insert(const AABB& box, std::uint64_t userData) override;
    void reserve(std::size_t proxies) override;
    void move(ProxyId proxy, const AABB& newBox) override;
    void remove(ProxyId proxy) override;
    void collectPairs(std::vector<ProxyPair>& out) override;
    void query(const AABB& region, FunctionRef<bool(ProxyId)> visit) const override;
    void rayCast(Vec2 origin, Vec2 translation, float maxFraction,
                 FunctionRef<float(ProxyId)> visit) const override;
    [[nodiscard]] std::size_t size() const override { return m_proxies.size(); }
    [[nodiscard]] std::string_view name() const override { return m_names.name; }
    [[nodiscard]] BroadPhaseStats stats() const override;
    [[nodiscard]] AABB box(ProxyId proxy) const override;
    [[nodiscard]] std::uint64_t userData(ProxyId proxy) const override;
    void validate() const override;
    void debugDraw(DebugDraw& draw) const override;

    /// Automatic finest cell edge = this many median half extents (twice the median extent).
    static constexpr float kAutoCellFactor = 4.0f;
    /// Enough doublings to go from the smallest automatic cell (1e-3 m) past FLT_MAX.
    static constexpr std::uint32_t kMaxLevels = 140;
    /// With one level, boxes spanning more cells than this are outliers, so that one huge box
    /// cannot allocate millions of cells.
    static constexpr std::int64_t kMaxCellsOnOneLevel = 64;

protected:
    /// A hash of at most `maxLevels` levels (1 or kMaxLevels) of finest cell edge `cellSize`
    /// (0: automatic).
    HierarchicalHash(const HashNames& names, float cellSize, std::uint32_t maxLevels);

private:
    static constexpr std::uint32_t kOutlier = 0xFFFFFFFFu;
    struct Placement {
        CellRange range;                ///< cells on its level
        std::uint32_t level = kOutlier; ///< level index, or kOutlier
        std::uint32_t outlierSlot = 0;  ///< index in m_outliers when level == kOutlier
    };
    /// Where a box goes: its level (kOutlier when none takes it) and its cells there (only when
    /// that level exists already).
    struct Filing {
        std::uint32_t level;
        CellRange range;
    };

    /// Sets the finest cell edge and re-files every proxy.
    void rebuild(float finestCellSize);
    void rebuildIfSizesDrifted();
    // Inline: it runs on every move. With one level, that level unless the box spans too many of
    // its cells; with several, the level of the box's extent.
    [[nodiscard]] Filing filingOf(const AABB& box) const noexcept {
        if (m_maxLevels == 1) {
            const CellRange range = m_levels[0].rangeOf(box);
            return {range.cellCount() <= kMaxCellsOnOneLevel ? 0 : kOutlier, range};
        }
        const std::uint32_t level = levelOfExtent(box);
        return {level, level < m_levels.size() ? m_levels[level].rangeOf(box) : CellRange{}};
    }
    /// The finest level whose cell edge covers the box's larger extent (kOutlier when none).
    [[nodiscard]] std::uint32_t levelOfExtent(const AABB& box) const noexcept;
    void attach(std::uint32_t id, const AABB& box);
    void detach(std::uint32_t id);
    /// The full search's pairs of piece `piece` of `pieces` (each level's cells, the proxies
    /// searching coarser levels and the outliers, each cut into `pieces` runs), appended to `out`.
    /// Returns the box tests done.
    std::size_t collectPairPiece(std::size_t piece, std::size_t pieces,
                                 std::vector<CellEntry>& entries,
                                 std::vector<ProxyPair>& out) const;
    /// Budget of cells a query may visit before a plain scan of every proxy is cheaper.
    [[nodiscard]] std::int64_t cellBudget() const noexcept {
        return 4 * static_cast<std::int64_t>(m_proxies.size()) + 64;
    }

    const HashNames& m_names;
    std::uint32_t m_maxLevels;
    bool m_fixedCellSize;
    float m_finest = 0.0f;        ///< finest cell edge; 0 until the first insert (automatic)
    float m_sizeReference = 0.0f; ///< median half extent the automatic size came from

    CellSizeTracker m_sizes;
    std::vector<HashLevel> m_levels; ///< created up to the highest level used
    std::vector<Placement> m_placement;
    std::vector<std::uint32_t> m_outliers;

    std::vector<CellEntry> m_cellEntries;        ///< findPairs scratch
    std::vector<std::uint32_t> m_occupiedLevels; ///< findPairs scratch
    // findPairs scratch, when in pieces: each piece's pairs, cell entries and box tests.
    std::vector<std::vector<ProxyPair>> m_piecePairs;
    std::vector<std::vector<CellEntry>> m_pieceEntries;
    std::vector<std::size_t> m_pieceTests;
    std::size_t m_overlapTests = 0;
};

} // namespace rigid2d::detail
