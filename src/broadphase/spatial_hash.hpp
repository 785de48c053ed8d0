#pragma once
// spatial_hash: an unbounded sparse grid. Only occupied cells exist, in an open-addressing table
// keyed by the packed cell coordinates (CellTable); a proxy is listed in every cell its box
// overlaps and `move` touches only the cells entered or left. A box spanning more than
// kMaxCellsPerProxy cells goes to the "big" list (CellBroadPhase's outliers) instead, so one huge
// box cannot allocate millions of cells; big boxes are tested against everything.

#include <cstdint>

#include "broadphase/cell_broad_phase.hpp"
#include "broadphase/cell_table.hpp"

namespace rigid2d::detail {

/// The hashed cell store of `SpatialHash` (see CellBroadPhase for the interface it serves).
class HashCellStore {
public:
    static constexpr CellBroadPhaseNames kNames{
        "spatial_hash",       "SpatialHash::insert",  "SpatialHash::move", "SpatialHash::remove",
        "SpatialHash::query", "SpatialHash::rayCast", "SpatialHash::box",  "SpatialHash::userData"};
    /// Boxes covering more cells than this go to the big list.
    static constexpr std::int64_t kMaxCellsPerProxy = 64;

    explicit HashCellStore(const BroadPhaseConfig& /*config*/) {}

    /// Empties the table and uses cells of edge `cellSize` anchored at the origin.
    void configure(float cellSize) {
        m_mapping = CellMapping(cellSize);
        m_table.clear();
        m_pool.reset();
        m_ready = true;
    }
    [[nodiscard]] bool ready() const noexcept { return m_ready; }
    [[nodiscard]] const CellMapping& mapping() const noexcept { return m_mapping; }
    [[nodiscard]] bool admits(const AABB& /*box*/, const CellRange& range) const noexcept {
        return range.cellCount() <= kMaxCellsPerProxy;
    }

    void add(std::int32_t x, std::int32_t y, std::uint32_t id) {
        m_table.add(packCell(x, y), id, m_pool);
    }
    void remove(std::int32_t x, std::int32_t y, std::uint32_t id);
    [[nodiscard]] const CellBucket* find(std::int32_t x, std::int32_t y) const noexcept {
        return m_table.find(packCell(x, y));
    }
    /// f(x, y, bucket) for each occupied cell, in table order.
    template <class F>
    void forEachOccupied(F&& f) const {
        m_table.forEachCell([&](std::uint64_t key, const CellBucket& bucket) {
            f(cellXOf(key), cellYOf(key), bucket);
        });
    }
    [[nodiscard]] std::size_t occupied() const noexcept { return m_table.size(); }
    [[nodiscard]] const IdChunkPool& pool() const noexcept { return m_pool; }
    [[nodiscard]] std::size_t memoryBytes() const noexcept {
        return m_table.memoryBytes() + m_pool.memoryBytes();
    }
    /// The table's probe invariants, chunk chains and the pool.
    void validate() const { m_pool.validate(m_table.validate(m_pool)); }
    void drawFrame(DebugDraw& /*draw*/) const {}

private:
    CellMapping m_mapping;
    CellTable m_table;
    IdChunkPool m_pool;
    bool m_ready = false;
};

using SpatialHash = CellBroadPhase<HashCellStore>;
extern template class CellBroadPhase<HashCellStore>;

} // namespace rigid2d::detail
