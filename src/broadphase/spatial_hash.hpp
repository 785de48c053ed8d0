#pragma once
// spatial_hash: an unbounded sparse grid, a hierarchical hash held to one level
// (hierarchical_hash.hpp). Only occupied cells exist, in an open-addressing table keyed by the
// packed cell coordinates (cells/hash_level.hpp); a proxy is listed in every cell its box overlaps
// and `move` touches only the cells entered or left. A box spanning more than
// kMaxCellsOnOneLevel cells is an outlier instead, so that one huge box cannot allocate millions
// of cells; outliers are tested against everything.

#include "broadphase/hierarchical_hash.hpp"

namespace rigid2d::detail {

class SpatialHash final : public HierarchicalHash {
public:
    /// The config is checked by makeBroadPhase.
    explicit SpatialHash(const BroadPhaseConfig& config)
        : HierarchicalHash(kNames, config.cellSize, 1) {}

private:
    static constexpr HashNames kNames{
        "spatial_hash",       "SpatialHash::insert",  "SpatialHash::move", "SpatialHash::remove",
        "SpatialHash::query", "SpatialHash::rayCast", "SpatialHash::box",  "SpatialHash::userData"};
};

} // namespace rigid2d::detail
