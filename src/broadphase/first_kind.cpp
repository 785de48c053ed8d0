#include "broadphase/first_kind.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "broadphase/cells/cell_size_tracker.hpp"
#include "broadphase/uniform_grid.hpp"

namespace rigid2d::detail {

namespace {

// A box whose larger half extent passes this many medians is "big": the grid files it in many
// cells, a hash in many buckets.
constexpr float kBigFactor = 4.0f;
// Big boxes above this share of all: sizes spread too widely for one cell size.
constexpr std::uint32_t kBigShare = 8; // 1 in 8
// The grid's cells (two 4-byte counters each) may number this many per proxy, beyond a floor
// that any world may have: about 128 bytes a proxy, and 2 MB.
constexpr double kCellsPerProxy = 16.0;
constexpr double kCellsFloor = 262144.0;

double widthOf(const AABB& box) { return double{box.upper.x} - double{box.lower.x}; }
double heightOf(const AABB& box) { return double{box.upper.y} - double{box.lower.y}; }

} // namespace

BroadPhaseType firstKind(const ProxyTable& proxies, const BroadPhaseConfig& config) {
    const auto& live = proxies.liveFlags();
    const auto& boxes = proxies.boxes();
    CellSizeTracker sizes;
    AABB all{{0, 0}, {0, 0}};
    bool any = false;
    std::uint32_t outside = 0;
    for (std::uint32_t id = 0; id < proxies.capacity(); ++id) {
        if (live[id] == 0) continue;
        const AABB& box = boxes[id];
        sizes.add(box);
        all = any ? combine(all, box) : box;
        any = true;
        outside += contains(config.worldBounds, box) ? 0u : 1u;
    }
    if (!any) return BroadPhaseType::SpatialHash;
    const float median = sizes.medianHalfExtent();
    std::uint32_t big = 0;
    for (std::uint32_t id = 0; id < proxies.capacity(); ++id) {
        if (live[id] == 0) continue;
        big += largerHalfExtent(boxes[id]) > kBigFactor * median ? 1u : 0u;
    }
    const std::uint32_t count = sizes.total();
    if (big > count / kBigShare) return BroadPhaseType::HierarchicalHash;

    // The grid's region as its first filing lays it out: the world bounds, widened to every
    // proxy when many lie outside them (UniformGrid::growToOutliers).
    const AABB region = UniformGrid::outgrown(outside, count) ? combine(config.worldBounds, all)
                                                              : config.worldBounds;
    const double edge = config.cellSize > 0.0f
                            ? double{config.cellSize}
                            : double{autoCellSize(median, UniformGrid::kAutoCellFactor)};
    const double cells = UniformGrid::cellsAcross(widthOf(region), edge) *
                         UniformGrid::cellsAcross(heightOf(region), edge);
    // Capped, the grid coarsens its cells: past twice the edge, crowded cells cost more than
    // the filing saves.
    const bool coarsened = cells > 4.0 * static_cast<double>(config.maxGridCells);
    const bool modest = cells <= kCellsFloor + kCellsPerProxy * static_cast<double>(count);
    return !coarsened && modest ? BroadPhaseType::Grid : BroadPhaseType::SpatialHash;
}

} // namespace rigid2d::detail
