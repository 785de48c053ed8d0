#pragma once
// hierarchical_hash: spatial-hash levels whose cell edges double from one level to the next
// (finest * 2^level). Each proxy lives on the finest level whose cell edge is at least its larger
// extent, so it touches at most 2 x 2 cells there whatever its size: a 1000 m ground and 0.05 m
// pebbles coexist without the ground filling millions of small cells or the pebbles crowding
// one big cell. Levels are created on demand and only occupied cells exist (CellTable).
//
// findPairs:
//   same level:   for each occupied cell, its pairs owned by that cell (CellMapping::ownsPair)
//   across levels: each proxy looks up the (at most 2 x 2) cells its box covers on every coarser
//                 occupied level; ownership on that level keeps each pair once, and only the
//                 finer proxy of a pair searches, so no pair is found twice
// Boxes too large for any level (an infinite extent) are "big" and tested against everything.

#include <cstdint>
#include <vector>

#include "broadphase/built_in_broad_phase.hpp"
#include "broadphase/cell_coords.hpp"
#include "broadphase/cell_lists.hpp"
#include "broadphase/cell_search.hpp"
#include "broadphase/cell_size_tracker.hpp"
#include "broadphase/cell_table.hpp"
#include "rigid2d/broad_phase.hpp"

namespace rigid2d::detail {

class HierarchicalHash final : public BuiltInBroadPhase {
public:
    /// The config is checked by makeBroadPhase.
    explicit HierarchicalHash(const BroadPhaseConfig& config);

    ProxyId insert(const AABB& box, std::uint64_t userData) override;
    void move(ProxyId proxy, const AABB& box) override;
    void remove(ProxyId proxy) override;
    void collectPairs(std::vector<ProxyPair>& out) override;
    void query(const AABB& region, FunctionRef<bool(ProxyId)> visit) const override;
    void rayCast(Vec2 origin, Vec2 translation, float maxFraction,
                 FunctionRef<float(ProxyId)> visit) const override;
    [[nodiscard]] std::size_t size() const override { return m_proxies.size(); }
    [[nodiscard]] std::string_view name() const override { return "hierarchical_hash"; }
    [[nodiscard]] BroadPhaseStats stats() const override;
    [[nodiscard]] AABB box(ProxyId proxy) const override;
    [[nodiscard]] std::uint64_t userData(ProxyId proxy) const override;
    void validate() const override;
    void debugDraw(DebugDraw& draw) const override;

    /// Automatic finest cell edge = this many median half extents (twice the median extent).
    static constexpr float kAutoCellFactor = 4.0f;
    /// Enough doublings to go from the smallest automatic cell (1e-3 m) past FLT_MAX.
    static constexpr std::uint32_t kMaxLevels = 140;

private:
    static constexpr std::uint32_t kBig = 0xFFFFFFFFu;
    struct Placement {
        CellRange range;            ///< cells on its level
        std::uint32_t level = kBig; ///< level index, or kBig
        std::uint32_t bigSlot = 0;  ///< index in m_big when level == kBig
    };
    struct Level {
        CellMapping mapping;
        CellTable table;
        std::size_t proxies = 0;
    };

    /// Sets the finest cell edge and re-files every proxy.
    void rebuild(float finestCellSize);
    void rebuildIfSizesDrifted();
    /// The level a box belongs on (kBig when none fits).
    [[nodiscard]] std::uint32_t levelFor(const AABB& box) const noexcept;
    Level& level(std::uint32_t index);
    void attach(std::uint32_t id, const AABB& box);
    void detach(std::uint32_t id);
    /// Budget of cells a query may visit before a plain scan of every proxy is cheaper.
    [[nodiscard]] std::int64_t cellBudget() const noexcept {
        return 4 * static_cast<std::int64_t>(m_proxies.size()) + 64;
    }

    bool m_fixedCellSize;
    float m_finest = 0.0f;        ///< finest cell edge; 0 until the first insert (automatic)
    float m_sizeReference = 0.0f; ///< median half extent the automatic size came from

    CellSizeTracker m_sizes;
    std::vector<Level> m_levels; ///< created up to the highest level used
    IdChunkPool m_pool;          ///< the cell lists of every level
    std::vector<Placement> m_placement;
    std::vector<std::uint32_t> m_big;

    CellPairSearch m_search;
    std::vector<std::uint32_t> m_occupiedLevels; ///< findPairs scratch
    std::size_t m_overlapTests = 0;
};

} // namespace rigid2d::detail
