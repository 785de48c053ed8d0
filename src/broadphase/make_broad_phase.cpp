#include <array>
#include <string>

#include "broadphase/auto_broad_phase.hpp"
#include "broadphase/brute_force.hpp"
#include "broadphase/dynamic_tree.hpp"
#include "broadphase/hierarchical_hash.hpp"
#include "broadphase/quadtree.hpp"
#include "broadphase/sorted_grid.hpp"
#include "broadphase/spatial_hash.hpp"
#include "broadphase/sweep_and_prune.hpp"
#include "broadphase/uniform_grid.hpp"
#include "core/check.hpp"
#include "core/float_range.hpp"
#include "rigid2d/broad_phase.hpp"

namespace rigid2d {

namespace {
struct NamedType {
    BroadPhaseType type;
    std::string_view name;
};
constexpr std::array kNames{
    NamedType{BroadPhaseType::BruteForce, "brute_force"},
    NamedType{BroadPhaseType::Grid, "grid"},
    NamedType{BroadPhaseType::SpatialHash, "spatial_hash"},
    NamedType{BroadPhaseType::SweepAndPrune, "sap"},
    NamedType{BroadPhaseType::Tree, "tree"},
    NamedType{BroadPhaseType::HierarchicalHash, "hierarchical_hash"},
    NamedType{BroadPhaseType::Quadtree, "quadtree"},
    NamedType{BroadPhaseType::SortedGrid, "sorted_grid"},
    NamedType{BroadPhaseType::Auto, "auto"},
};
} // namespace

std::string_view toString(BroadPhaseType type) noexcept {
    for (const auto& entry : kNames)
        if (entry.type == type) return entry.name;
    return "unknown";
}

BroadPhaseType broadPhaseTypeFromString(std::string_view name) {
    for (const auto& entry : kNames)
        if (entry.name == name) return entry.type;
    // The list comes from the table, so a new kind cannot be left out of the message.
    std::string known;
    for (const auto& entry : kNames) {
        if (!known.empty()) known += ", ";
        known += entry.name;
    }
    detail::refuse("broadPhaseTypeFromString", "name",
                   "must be one of " + known + ", got '" + std::string(name) + "'");
}

std::unique_ptr<BroadPhase> makeBroadPhase(BroadPhaseType type, const BroadPhaseConfig& config) {
    constexpr std::string_view fn = "makeBroadPhase";
    detail::requireValidBox(fn, "config.worldBounds", config.worldBounds);
    detail::require(config.worldBounds.lower.x < config.worldBounds.upper.x &&
                        config.worldBounds.lower.y < config.worldBounds.upper.y,
                    fn, "config.worldBounds", "must have a positive area", config.worldBounds);
    // A cell below kMinShapeSize means nothing for shapes at least that large, and one near the
    // float's smallest values has no finite inverse.
    const auto cellSizeOk = [](float size) {
        return size == 0.0f || (isFinite(size) && size >= kMinShapeSize);
    };
    detail::require(cellSizeOk(config.cellSize), fn, "config.cellSize",
                    "must be 0 (automatic) or finite and >= kMinShapeSize = 1e-6 m",
                    config.cellSize);
    detail::require(cellSizeOk(config.finestCellSize), fn, "config.finestCellSize",
                    "must be 0 (automatic) or finite and >= kMinShapeSize = 1e-6 m",
                    config.finestCellSize);
    detail::require(config.maxGridCells > 0 && config.maxGridCells <= kMaxGridCells, fn,
                    "config.maxGridCells", "must be in [1, kMaxGridCells = 2^26]",
                    static_cast<float>(config.maxGridCells));
    if (type == BroadPhaseType::Grid) {
        // The grid maps (x - lower) / cellSize to cells: the span must be a finite float.
        const AABB& b = config.worldBounds;
        const double width = double{b.upper.x} - double{b.lower.x};
        const double height = double{b.upper.y} - double{b.lower.y};
        detail::require(detail::fitsFloat(width) && detail::fitsFloat(height), fn,
                        "config.worldBounds", "must span at most FLT_MAX m on each axis", b);
    }
    switch (type) {
    case BroadPhaseType::BruteForce: return std::make_unique<detail::BruteForce>();
    case BroadPhaseType::Grid: return std::make_unique<detail::UniformGrid>(config);
    case BroadPhaseType::SpatialHash: return std::make_unique<detail::SpatialHash>(config);
    case BroadPhaseType::HierarchicalHash:
        return std::make_unique<detail::HierarchicalHash>(config);
    case BroadPhaseType::SweepAndPrune: return std::make_unique<detail::SweepAndPrune>();
    case BroadPhaseType::Tree: return std::make_unique<detail::DynamicTree>();
    case BroadPhaseType::Quadtree: return std::make_unique<detail::Quadtree>();
    case BroadPhaseType::SortedGrid: return std::make_unique<detail::SortedGrid>(config);
    case BroadPhaseType::Auto: return std::make_unique<detail::AutoBroadPhase>(config);
    default: break;
    }
    // Only a value cast from outside the enum gets here.
    detail::refuse(fn, "type",
                   "is not a BroadPhaseType: " + std::to_string(static_cast<int>(type)));
}

} // namespace rigid2d
