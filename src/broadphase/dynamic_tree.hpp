#pragma once
// Dynamic AABB tree: a binary tree of boxes whose leaves are the proxies, every internal box
// enclosing its two children. Nodes live in one array with a free list.
//
// - insert: walk down choosing the child whose enlargement costs least in perimeter (surface
//   area heuristic in 2D), pair the new leaf with the node where stopping is cheapest, then walk
//   back up refitting boxes and rotating grandchildren when that shrinks a node.
// - Leaves hold a "fat" box: the proxy's box grown by a margin and stretched along its last
//   displacement (the margin jittered per fat box, so escapes do not come in waves). move()
//   only stores the new box when it still fits inside; otherwise the leaf
//   is removed and reinserted. The fat box is internal: the contract's exact box (kept in the
//   ProxyTable) decides every reported overlap, query and ray hit.
// - findPairs: for every internal node, the pairs between its two subtrees, found by descending
//   both together (each leaf pair is reached once, at its lowest common ancestor).

#include <cstdint>
#include <vector>

#include "broadphase/built_in_broad_phase.hpp"
#include "rigid2d/broad_phase.hpp"

namespace rigid2d::detail {

class DynamicTree final : public BuiltInBroadPhase {
public:
    ProxyId insert(const AABB& box, std::uint64_t userData) override;
    void reserve(std::size_t proxies) override;
    void move(ProxyId proxy, const AABB& newBox) override;
    void remove(ProxyId proxy) override;
    void collectPairs(std::vector<ProxyPair>& out) override;
    void query(const AABB& region, FunctionRef<bool(ProxyId)> visit) const override;
    void rayCast(Vec2 origin, Vec2 translation, float maxFraction,
                 FunctionRef<float(ProxyId)> visit) const override;
    [[nodiscard]] std::size_t size() const override { return m_proxies.size(); }
    [[nodiscard]] std::string_view name() const override { return "tree"; }
    [[nodiscard]] BroadPhaseStats stats() const override;
    [[nodiscard]] AABB box(ProxyId proxy) const override;
    [[nodiscard]] std::uint64_t userData(ProxyId proxy) const override;
    void validate() const override;
    void debugDraw(DebugDraw& draw) const override;

private:
    static constexpr std::uint32_t kNull = 0xFFFFFFFFu;

    /// 32 bytes. A leaf has child1 == kNull and its proxy index in child2. A free node has
    /// height -1 and the next free node in parent.
    struct Node {
        AABB box;
        std::uint32_t parent;
        std::uint32_t child1;
        std::uint32_t child2;
        std::int32_t height; // leaves 0

        [[nodiscard]] bool isLeaf() const noexcept { return child1 == kNull; }
    };

    std::uint32_t allocateNode();
    void freeNode(std::uint32_t node);
    /// The leaf's enlarged box for a proxy now at `box` that was at `previous` (stretched ahead
    /// along the move), its margin scaled by `scale` (see kMarginJitter).
    [[nodiscard]] static AABB fatBox(const AABB& box, const AABB& previous, float scale) noexcept;
    /// Links `leaf` into the tree, searching for its sibling from `start` down (the root, or an
    /// ancestor whose box already encloses the leaf's).
    void insertLeaf(std::uint32_t leaf, std::uint32_t start);
    /// Unlinks `leaf`; returns the node that took its parent's place (kNull if the tree is empty).
    std::uint32_t removeLeaf(std::uint32_t leaf);
    [[nodiscard]] std::uint32_t findBestSibling(const AABB& box, std::uint32_t start) const;
    /// Refits boxes and heights from `node` up to the root, rotating where it helps.
    void refitUpwards(std::uint32_t node);
    void rotate(std::uint32_t node);
    /// Pairs between the subtrees `a` and `b` (disjoint), exact test at the leaves.
    void collideSubtrees(std::uint32_t a, std::uint32_t b, std::vector<ProxyPair>& out);
    void relayout();
    /// Checks the subtree at `node`; returns its leaf count.
    std::size_t validateSubtree(std::uint32_t node, std::uint32_t parent) const;

    std::vector<Node> m_nodes;
    std::vector<std::uint32_t> m_leafOf; // per proxy: its leaf node
    std::vector<AABB> m_fatOf; // per proxy: its leaf's fat box (move() reads it in id order)
    std::uint32_t m_root = kNull;
    std::uint32_t m_freeList = kNull;
    std::size_t m_nodeCount = 0; // nodes in the tree (not free)
    std::vector<std::uint32_t> m_pairStack;
    std::size_t m_overlapTests = 0;
    std::size_t m_movedSinceLayout = 0; // insertions and reinsertions since the last relayout
    std::uint64_t m_fattened = 0;       // fat boxes made so far (seeds their margin jitter)
    std::vector<Node> m_layoutNodes;    // relayout scratch
    std::vector<std::uint32_t> m_layoutOrder;
    std::vector<std::uint32_t> m_layoutIndex;
};

} // namespace rigid2d::detail
