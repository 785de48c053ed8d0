#pragma once
// The shared body of grid and spatial_hash: proxies listed in every cell their box overlaps,
// plus a list of "outliers" the cell store does not take (grid: boxes not inside the bounds;
// spatial_hash: boxes spanning too many cells), tested against everything.
//
// The cell store (`DenseCellStore` in uniform_grid.hpp, `HashCellStore` in spatial_hash.hpp)
// only maps cell coordinates to buckets; everything else lives here once:
//   move      recompute the cell range; if it changed, leave/enter only the differing cells
//   findPairs for each cell with >= 2 proxies, its pairs owned by that cell
//   (CellMapping::ownsPair);
//             each outlier against the cells its box covers, then outliers against each other;
//             then the canonical sort
//   query/ray gather candidates from the cells covered, visit them in id order
// The automatic cell size follows the median half extent (CellSizeTracker) and everything is
// re-filed when it drifts by more than 2x.

#include <cstdint>
#include <string_view>
#include <vector>

#include "broadphase/built_in_broad_phase.hpp"
#include "broadphase/cell_coords.hpp"
#include "broadphase/cell_lists.hpp"
#include "broadphase/cell_search.hpp"
#include "broadphase/cell_size_tracker.hpp"
#include "rigid2d/broad_phase.hpp"

namespace rigid2d::detail {

/// The function names a cell broad phase reports in errors.
struct CellBroadPhaseNames {
    std::string_view name, insert, move, remove, query, rayCast, box, userData;
};

template <class Store>
class CellBroadPhase final : public BuiltInBroadPhase {
public:
    /// The config is checked by makeBroadPhase.
    explicit CellBroadPhase(const BroadPhaseConfig& config);

    ProxyId insert(const AABB& box, std::uint64_t userData) override;
    void move(ProxyId proxy, const AABB& box) override;
    void remove(ProxyId proxy) override;
    void collectPairs(std::vector<ProxyPair>& out) override;
    void query(const AABB& region, FunctionRef<bool(ProxyId)> visit) const override;
    void rayCast(Vec2 origin, Vec2 translation, float maxFraction,
                 FunctionRef<float(ProxyId)> visit) const override;
    [[nodiscard]] std::size_t size() const override { return m_proxies.size(); }
    [[nodiscard]] std::string_view name() const override { return Store::kNames.name; }
    [[nodiscard]] BroadPhaseStats stats() const override;
    [[nodiscard]] AABB box(ProxyId proxy) const override;
    [[nodiscard]] std::uint64_t userData(ProxyId proxy) const override;
    void validate() const override;
    void debugDraw(DebugDraw& draw) const override;

    /// Automatic cell edge = this many median half extents (i.e. twice the median extent).
    static constexpr float kAutoCellFactor = 4.0f;

private:
    static constexpr std::uint32_t kInCells = 0xFFFFFFFFu;
    struct Placement {
        CellRange range;                      ///< cells listing the proxy (when in cells)
        std::uint32_t outlierSlot = kInCells; ///< index in m_outliers, or kInCells
    };

    /// Sets the cell size and re-files every proxy.
    void rebuild(float cellSize);
    void rebuildIfSizesDrifted();
    void attach(std::uint32_t id, const AABB& box);
    void detach(std::uint32_t id);
    /// Calls f(x, y, bucket) for each occupied cell of `range`, walking the range or the
    /// occupied cells, whichever is shorter.
    template <class F>
    void forEachOccupiedIn(const CellRange& range, F&& f) const;
    /// Budget of cells a query may visit before a plain scan of every proxy is cheaper.
    [[nodiscard]] std::int64_t cellBudget() const noexcept {
        return 4 * static_cast<std::int64_t>(m_proxies.size()) + 64;
    }

    Store m_store;
    bool m_fixedCellSize;
    float m_sizeReference = 0.0f; ///< median half extent the automatic cell size came from

    CellSizeTracker m_sizes;
    std::vector<Placement> m_placement;
    std::vector<std::uint32_t> m_outliers;

    CellPairSearch m_search;
    std::size_t m_overlapTests = 0;
};

} // namespace rigid2d::detail
