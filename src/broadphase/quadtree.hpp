#pragma once
// A loose quadtree: square cells that split in four, where each proxy lives in the deepest cell
// whose square contains its centre and whose half side is at least the proxy's larger half
// extent. A cell's proxies then lie within the cell's square grown by its half side on every side
// (its "loose" bounds), so a search prunes a whole subtree with one box test, and a proxy is
// stored exactly once, at a depth set by its size: big and small proxies mix without a cell-size
// choice. Cells are created on demand and freed when empty; the root grows (doubling, the old
// root becoming one of its quadrants) until it holds every proxy, so the world is unbounded.

#include <cstdint>
#include <vector>

#include "broadphase/built_in_broad_phase.hpp"
#include "rigid2d/broad_phase.hpp"

namespace rigid2d::detail {

class Quadtree final : public BuiltInBroadPhase {
public:
    ProxyId insert(const AABB& box, std::uint64_t userData) override;
    void reserve(std::size_t proxies) override;
    void move(ProxyId proxy, const AABB& box) override;
    void remove(ProxyId proxy) override;
    void collectPairs(std::vector<ProxyPair>& out) override;
    void query(const AABB& region, FunctionRef<bool(ProxyId)> visit) const override;
    void rayCast(Vec2 origin, Vec2 translation, float maxFraction,
                 FunctionRef<float(ProxyId)> visit) const override;
    [[nodiscard]] std::size_t size() const override { return m_proxies.size(); }
    [[nodiscard]] std::string_view name() const override { return "quadtree"; }
    [[nodiscard]] BroadPhaseStats stats() const override;
    [[nodiscard]] AABB box(ProxyId proxy) const override;
    [[nodiscard]] std::uint64_t userData(ProxyId proxy) const override;
    void validate() const override;
    void debugDraw(DebugDraw& draw) const override;

private:
    static constexpr std::uint32_t kNone = 0xFFFFFFFFu;

    struct Cell {
        Vec2 center{};
        float half = 0.0f; ///< half side of the square; the loose bounds reach twice as far
        std::uint32_t parent = kNone;
        std::uint32_t children[4] = {kNone, kNone, kNone, kNone}; ///< by (x >= cx) + 2 (y >= cy)
        std::vector<std::uint32_t> proxies;
        bool live = false;
    };
    /// Where a proxy is stored: its cell and its slot in the cell's list.
    struct Place {
        std::uint32_t cell = kNone;
        std::uint32_t slot = 0;
    };

    [[nodiscard]] static AABB looseBounds(const Cell& cell) noexcept;
    [[nodiscard]] static bool fits(const Cell& cell, Vec2 center, float extent) noexcept;
    /// Grows the root until it holds a proxy of this centre and extent.
    void growToHold(Vec2 center, float extent);
    /// The deepest cell (created as needed) that holds a proxy of this centre and extent.
    [[nodiscard]] std::uint32_t cellFor(Vec2 center, float extent);
    void attach(std::uint32_t proxy, std::uint32_t cell);
    void detach(std::uint32_t proxy);
    /// Frees `cell` and its empty ancestors that have no children left.
    void prune(std::uint32_t cell);
    [[nodiscard]] std::uint32_t newCell(Vec2 center, float half, std::uint32_t parent);
    // findPairs' walk: pairs inside a subtree, between two subtrees, and of a list of proxies
    // (a range of m_filtered) with a subtree.
    void pairsWithin(std::uint32_t cell, std::vector<ProxyPair>& out);
    void pairsBetween(std::uint32_t x, std::uint32_t y, std::vector<ProxyPair>& out);
    /// The proxies stored in `owner` itself against every proxy of `subtree`.
    void ownAgainst(std::uint32_t owner, std::uint32_t subtree, std::vector<ProxyPair>& out);
    void listAgainst(std::size_t begin, std::size_t end, std::uint32_t cell,
                     std::vector<ProxyPair>& out);
    void test(std::uint32_t a, std::uint32_t b, std::vector<ProxyPair>& out);
    /// Fills m_contents for the subtree of `cell`; returns the cell's.
    AABB gatherContents(std::uint32_t cell);
    [[nodiscard]] std::size_t validateCell(std::uint32_t cell, std::uint32_t parent) const;

    std::vector<Place> m_places; ///< by proxy id
    std::vector<Cell> m_cells;
    std::vector<std::uint32_t> m_freeCells;
    std::uint32_t m_root = kNone;
    std::vector<std::uint32_t> m_filtered; ///< stacked lists of proxies carried down the walk
    std::vector<AABB> m_contents;          ///< by cell: bounds of its subtree's proxies (findPairs)
    std::size_t m_overlapTests = 0;
};

} // namespace rigid2d::detail
