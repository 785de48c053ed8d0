#pragma once
// grid: a bounded uniform grid. A dense array of cells covers `BroadPhaseConfig::worldBounds`;
// each proxy inside the bounds is listed in every cell its box overlaps. Proxies not entirely
// inside the bounds go to the overflow list (CellBroadPhase's outliers) and are tested against
// everything, so nothing is lost. `maxGridCells` caps the array: the cell edge grows to fit.

#include <cstdint>
#include <vector>

#include "broadphase/cell_broad_phase.hpp"

namespace rigid2d::detail {

/// The dense cell store of `UniformGrid` (see CellBroadPhase for the interface it serves).
class DenseCellStore {
public:
    static constexpr CellBroadPhaseNames kNames{"grid",
                                                "UniformGrid::insert",
                                                "UniformGrid::move",
                                                "UniformGrid::remove",
                                                "UniformGrid::query",
                                                "UniformGrid::rayCast",
                                                "UniformGrid::box",
                                                "UniformGrid::userData"};

    explicit DenseCellStore(const BroadPhaseConfig& config)
        : m_bounds(config.worldBounds), m_maxCells(config.maxGridCells) {}

    /// Empties the grid and lays out cells of at least `cellSize` (grown to fit maxGridCells).
    void configure(float cellSize);
    [[nodiscard]] bool ready() const noexcept { return !m_cells.empty(); }
    [[nodiscard]] const CellMapping& mapping() const noexcept { return m_mapping; }
    /// Only boxes entirely inside the bounds are filed in cells.
    [[nodiscard]] bool admits(const AABB& box, const CellRange& /*range*/) const noexcept {
        return contains(m_bounds, box);
    }

    void add(std::int32_t x, std::int32_t y, std::uint32_t id) {
        CellBucket& bucket = m_cells[index(x, y)];
        if (bucket.count == 0) ++m_occupied;
        m_pool.add(bucket, id);
    }
    void remove(std::int32_t x, std::int32_t y, std::uint32_t id);
    [[nodiscard]] const CellBucket* find(std::int32_t x, std::int32_t y) const noexcept {
        const CellBucket& bucket = m_cells[index(x, y)];
        return bucket.count != 0 ? &bucket : nullptr;
    }
    /// f(x, y, bucket) for each occupied cell, row by row.
    template <class F>
    void forEachOccupied(F&& f) const {
        std::size_t i = 0;
        for (std::int32_t y = 0; y < m_rows; ++y) {
            for (std::int32_t x = 0; x < m_columns; ++x, ++i) {
                if (m_cells[i].count != 0) f(x, y, m_cells[i]);
            }
        }
    }
    [[nodiscard]] std::size_t occupied() const noexcept { return m_occupied; }
    [[nodiscard]] const IdChunkPool& pool() const noexcept { return m_pool; }
    [[nodiscard]] std::size_t memoryBytes() const noexcept {
        return m_cells.capacity() * sizeof(CellBucket) + m_pool.memoryBytes();
    }
    /// Chunk chains, the pool and the occupied count.
    void validate() const;
    /// Outlines the bounds.
    void drawFrame(DebugDraw& draw) const {
        draw.drawAABB(m_bounds, Color{0.5f, 0.5f, 0.5f, 1.0f});
    }

private:
    [[nodiscard]] std::size_t index(std::int32_t x, std::int32_t y) const noexcept {
        return static_cast<std::size_t>(y) * static_cast<std::size_t>(m_columns) +
               static_cast<std::size_t>(x);
    }

    AABB m_bounds;
    std::size_t m_maxCells;
    CellMapping m_mapping;
    std::int32_t m_columns = 0;
    std::int32_t m_rows = 0;
    std::vector<CellBucket> m_cells;
    std::size_t m_occupied = 0;
    IdChunkPool m_pool;
};

using UniformGrid = CellBroadPhase<DenseCellStore>;
extern template class CellBroadPhase<DenseCellStore>;

} // namespace rigid2d::detail
