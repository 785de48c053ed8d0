#include "broadphase/uniform_grid.hpp"

#include <algorithm>
#include <cmath>

#include "broadphase/cell_broad_phase_impl.hpp"
#include "core/assert.hpp"

namespace rigid2d::detail {

// Cell edge c: at least the requested one, grown until ceil(W / c) * ceil(H / c) fits in
// maxGridCells (and each axis stays exactly representable as a float cell index).
void DenseCellStore::configure(float cellSize) {
    const double width =
        static_cast<double>(m_bounds.upper.x) - static_cast<double>(m_bounds.lower.x);
    const double height =
        static_cast<double>(m_bounds.upper.y) - static_cast<double>(m_bounds.lower.y);
    const double maxCells = static_cast<double>(m_maxCells);
    constexpr double kMaxAxis = 1 << 24;
    double size = std::max({static_cast<double>(cellSize), std::sqrt(width * height / maxCells),
                            width / kMaxAxis, height / kMaxAxis});
    double columns = 0, rows = 0;
    for (;;) {
        columns = std::max(1.0, std::ceil(width / size));
        rows = std::max(1.0, std::ceil(height / size));
        if (columns * rows <= maxCells && columns <= kMaxAxis && rows <= kMaxAxis) break;
        size *= 1.01;
    }
    m_columns = static_cast<std::int32_t>(columns);
    m_rows = static_cast<std::int32_t>(rows);
    m_mapping =
        CellMapping(m_bounds.lower, static_cast<float>(size), {0, 0, m_columns - 1, m_rows - 1});
    m_cells.assign(static_cast<std::size_t>(m_columns) * static_cast<std::size_t>(m_rows), {});
    m_occupied = 0;
    m_pool.reset();
}

void DenseCellStore::remove(std::int32_t x, std::int32_t y, std::uint32_t id) {
    CellBucket& bucket = m_cells[index(x, y)];
    const bool removed = m_pool.remove(bucket, id);
    R2D_ASSERT(removed, "grid proxy missing from one of its cells");
    (void)removed;
    if (bucket.count == 0) --m_occupied;
}

void DenseCellStore::validate() const {
    R2D_CHECK(m_cells.size() <= m_maxCells, "grid has more cells than maxGridCells");
    std::size_t occupied = 0;
    std::size_t chunks = 0;
    for (const CellBucket& bucket : m_cells) {
        m_pool.validateBucket(bucket);
        if (bucket.count != 0) ++occupied;
        chunks += IdChunkPool::chunksFor(bucket.count);
    }
    R2D_CHECK(occupied == m_occupied, "grid occupied-cell count is stale");
    m_pool.validate(chunks);
}

template class CellBroadPhase<DenseCellStore>;

} // namespace rigid2d::detail
