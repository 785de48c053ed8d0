#pragma once
// The counting-sort grid ("hash vector"): no cell lists at all. The first update (or pair search)
// after a change files every proxy under the cell of its lower corner, hashed into a table: cells
// are counted, the counts prefix-summed, and the proxies scattered into one dense array ordered by
// bucket, so a cell and its neighbours are scanned in memory order. A proxy that spans at most two
// cells per axis meets only proxies filed in its own cell and the 8 around it; each neighbouring
// pair of cells is scanned from one side (the "forward" half of the 8). Proxies wider than that are
// outliers, few by the cell size's choice (4 x the median half extent), tested against the cells
// they cover. Unbounded: cell coordinates are hashed, never used as array indices.

#include <cstdint>
#include <vector>

#include "broadphase/built_in_broad_phase.hpp"
#include "broadphase/cells/cell_coords.hpp"
#include "broadphase/cells/cell_size_tracker.hpp"
#include "rigid2d/broad_phase.hpp"

namespace rigid2d::detail {

class SortedGrid final : public BuiltInBroadPhase {
public:
    explicit SortedGrid(const BroadPhaseConfig& config) : m_fixedCellSize(config.cellSize) {}

    ProxyId insert(const AABB& box, std::uint64_t userData) override;
    void move(ProxyId proxy, const AABB& box) override;
    void moveChecked(std::span<const ProxyId> proxies, std::span<const AABB> boxes) override;
    void remove(ProxyId proxy) override;
    void collectPairs(std::vector<ProxyPair>& out) override;
    void query(const AABB& region, FunctionRef<bool(ProxyId)> visit) const override;
    void rayCast(Vec2 origin, Vec2 translation, float maxFraction,
                 FunctionRef<float(ProxyId)> visit) const override;
    [[nodiscard]] std::size_t size() const override { return m_proxies.size(); }
    [[nodiscard]] std::string_view name() const override { return "sorted_grid"; }
    [[nodiscard]] BroadPhaseStats stats() const override;
    [[nodiscard]] AABB box(ProxyId proxy) const override;
    [[nodiscard]] std::uint64_t userData(ProxyId proxy) const override;
    void validate() const override;
    void debugDraw(DebugDraw& draw) const override;
    void update() override;
    /// One findPairs over the filing costs about what a query per proxy would: findPairsOf
    /// always searches in full.
    [[nodiscard]] std::size_t fullSearchFrom() const override { return 0; }

private:
    /// One filed proxy, its box copied so the scans read one dense array.
    struct Entry {
        AABB box;
        std::int32_t x = 0, y = 0; ///< the cell of its lower corner
        std::uint32_t id = 0;
    };

    void file();
    /// Notes that `proxy`'s filing is stale (moved or inserted since): searches between two
    /// filings test such proxies on their own.
    void markChanged(ProxyId proxy);
    [[nodiscard]] std::uint32_t bucketOf(std::int32_t x, std::int32_t y) const noexcept;
    /// Calls f(entry) for every filed entry of cell (x, y).
    template <class F>
    void forEachInCell(std::int32_t x, std::int32_t y, F&& f) const;

    CellSizeTracker m_sizes;
    float m_fixedCellSize = 0.0f;
    CellMapping m_mapping{1.0f};
    bool m_filed = false; ///< a filing exists (update ran); changes since are in m_changed
    bool m_stale = true;  ///< a proxy was inserted, moved or removed since the filing
    std::vector<std::uint32_t> m_changed;  ///< proxies inserted or moved since the filing
    std::vector<std::uint8_t> m_isChanged; ///< by proxy id: in m_changed

    std::vector<Entry> m_entries;          ///< small proxies, by bucket
    std::vector<std::uint32_t> m_starts;   ///< bucket b holds m_entries[m_starts[b], m_starts[b+1])
    std::vector<std::uint32_t> m_outliers; ///< proxies spanning more than 2 cells on an axis
    std::vector<std::uint32_t> m_bucketOf; ///< scratch: bucket of each small proxy
    std::uint32_t m_mask = 0;
    std::size_t m_overlapTests = 0;
};

} // namespace rigid2d::detail
