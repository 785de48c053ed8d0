// The grid's region and cell layout: choosing the cell edge and the array for the region,
// widening the region to outliers, and the counters it reports.

#include <algorithm>
#include <cmath>

#include "broadphase/uniform_grid.hpp"

namespace rigid2d::detail {

// Cell edge c: at least the requested one, grown until ceil(W / c) * ceil(H / c) fits in
// maxGridCells (and each axis stays exactly representable as a float cell index).
void UniformGrid::configure(float cellSize) {
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
        columns = cellsAcross(width, size);
        rows = cellsAcross(height, size);
        if (columns * rows <= maxCells && columns <= kMaxAxis && rows <= kMaxAxis) break;
        // At most one cell over the longer side (always few enough): a float, however wide.
        size = std::min(size * 1.01, std::max(width, height));
    }
    m_columns = static_cast<std::int32_t>(columns);
    m_rows = static_cast<std::int32_t>(rows);
    m_mapping =
        CellMapping(m_bounds.lower, static_cast<float>(size), {0, 0, m_columns - 1, m_rows - 1});
    // Nothing is filed under the new layout yet: every live proxy is dirty until file().
    const std::size_t slots = cellCount() + kCellPadding + static_cast<std::size_t>(m_columns);
    // Zeros that are written only where cells fill: a region much larger than the world's
    // content (the default bounds) costs memory only where proxies are filed.
    assignZeros(m_begin, slots);
    assignZeros(m_count, slots);
    assignZeros(m_free, slots);
    m_occupied.clear();
    m_entries.assign(kEntrySlack, CellEntry{});
    m_flags.assign(kEntrySlack, 0);
    m_outliers.clear();
    const auto& live = m_proxies.liveFlags();
    for (std::uint32_t id = 0; id < m_proxies.capacity(); ++id) {
        if (live[id] != 0) markDirty(id);
    }
}

// Many proxies outside the region would leave the grid doing the work of a sweep: the region
// grows to hold them all instead (never shrinks, so it does not oscillate), the cells coarsening
// if maxGridCells demands it. Regions wider than a float can hold are left as they are.
bool UniformGrid::growToOutliers() {
    if (!outgrown(m_outliers.size(), m_proxies.size())) return false;
    // (called from file() after counting: m_outliers is this filing's)
    AABB all = m_bounds;
    const auto& live = m_proxies.liveFlags();
    const auto& boxes = m_proxies.boxes();
    for (std::uint32_t id = 0; id < m_proxies.capacity(); ++id)
        if (live[id] != 0) all = combine(all, boxes[id]);
    const double width = double{all.upper.x} - double{all.lower.x};
    const double height = double{all.upper.y} - double{all.lower.y};
    if (!(width <= 1e30 && height <= 1e30) || all == m_bounds) return false;
    m_bounds = all;
    return true;
}

BroadPhaseStats UniformGrid::stats() const {
    BroadPhaseStats s;
    s.active = name();
    s.proxies = m_proxies.size();
    s.cells = m_occupied.size();
    s.outliers = m_outliers.size();
    s.overlapTests = m_overlapTests;
    s.memoryBytes = m_proxies.memoryBytes() +
                    (m_begin.capacity() + m_count.capacity() + m_free.capacity() +
                     m_occupied.capacity() + m_touched.capacity() + m_cellSortScratch.capacity()) *
                        sizeof(std::uint32_t) +
                    m_visits.capacity() * sizeof(Visit) + m_flags.capacity() +
                    m_moved.capacity() * sizeof(Move) +
                    m_candidates.capacity() * sizeof(ProxyPair) +
                    m_entries.capacity() * sizeof(CellEntry) +
                    (m_outliers.capacity() + m_dirty.capacity() + m_inserted.capacity() +
                     m_removed.capacity()) *
                        sizeof(std::uint32_t) +
                    m_dirtyList.capacity() * sizeof(std::uint32_t) + pairScratchBytes();
    s.cellSize = m_mapping.size();
    s.levels = 1;
    return s;
}

} // namespace rigid2d::detail
