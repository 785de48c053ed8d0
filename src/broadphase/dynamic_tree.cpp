#include "broadphase/dynamic_tree.hpp"

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>

#include "broadphase/geometry.hpp"
#include "broadphase/pair_sort.hpp"
#include "core/assert.hpp"
#include "core/check.hpp"
#include "core/float_range.hpp"

namespace rigid2d::detail {

namespace {

// Fat leaf boxes: the margin is this fraction of the box's mean extent (scale-free, so tiny and
// huge proxies are treated alike), and the box is stretched this many displacements ahead, so a
// proxy moving steadily is reinserted only every few frames.
constexpr float kMarginRatio = 0.25f;
constexpr float kPredictionFactor = 4.0f;
// Each new fat box gets its margin scaled by a factor in [1 - kMarginJitter, 1 + kMarginJitter],
// drawn from a hash of the proxy and a running count. Without it, proxies inserted together
// with similar speeds leave their fat boxes in the same frames again and again: reinsertions
// came in waves (100k churning boxes: median 3.5k per frame, p95 34k) instead of a steady
// stream (10.6k / 11.6k with the jitter, the same mean), and the frame time followed.
constexpr float kMarginJitter = 0.25f;

/// A factor in [1 - kMarginJitter, 1 + kMarginJitter) from (proxy, count): splitmix64's mixer.
[[nodiscard]] float marginScale(std::uint32_t proxy, std::uint64_t count) noexcept {
    std::uint64_t z = (std::uint64_t{proxy} << 32) + count + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    const float unit = static_cast<float>(z >> 40) * (1.0f / 16777216.0f); // [0, 1)
    return 1.0f - kMarginJitter + 2.0f * kMarginJitter * unit;
}
// A leaf is also reinserted when its fat box has grown this much larger (in perimeter) than the
// fat box it would get now, so a huge proxy that shrinks does not keep a huge leaf.
constexpr float kShrinkRatio = 4.0f;
// findPairs renumbers the nodes in depth-first order once more than 1/this of them have been
// reinserted since the last time (reinsertion scatters nodes across the array).
constexpr std::size_t kRelayoutFraction = 4;

/// A box's perimeter in double: the tree's costs compare perimeters, and a box near the float's
/// reach has one that overflows a float.
[[nodiscard]] inline double perimeter64(const AABB& b) noexcept {
    return 2.0 *
           ((double{b.upper.x} - double{b.lower.x}) + (double{b.upper.y} - double{b.lower.y}));
}

/// The union of two valid boxes (std::fmin in combine() is a library call; no NaN can occur here).
[[nodiscard]] inline AABB merged(const AABB& a, const AABB& b) noexcept {
    return {{std::min(a.lower.x, b.lower.x), std::min(a.lower.y, b.lower.y)},
            {std::max(a.upper.x, b.upper.x), std::max(a.upper.y, b.upper.y)}};
}

/// overlaps() without short-circuit: one well-hidden branch instead of up to four that
/// mispredict often during tree descents.
[[nodiscard]] inline bool touches(const AABB& a, const AABB& b) noexcept {
    return static_cast<bool>(
        static_cast<int>(a.lower.x <= b.upper.x) & static_cast<int>(b.lower.x <= a.upper.x) &
        static_cast<int>(a.lower.y <= b.upper.y) & static_cast<int>(b.lower.y <= a.upper.y));
}

/// A depth-first stack for const queries: on the C++ stack for any sane tree height, spilling to
/// the heap beyond, so concurrent const queries share nothing.
class NodeStack {
public:
    void push(std::uint32_t node) {
        if (m_size < m_inline.size())
            m_inline[m_size] = node;
        else
            m_spill.push_back(node);
        ++m_size;
    }
    std::uint32_t pop() {
        --m_size;
        if (m_size < m_inline.size()) return m_inline[m_size];
        const std::uint32_t node = m_spill.back();
        m_spill.pop_back();
        return node;
    }
    [[nodiscard]] bool empty() const noexcept { return m_size == 0; }

private:
    std::array<std::uint32_t, 128> m_inline;
    std::vector<std::uint32_t> m_spill;
    std::size_t m_size = 0;
};

} // namespace

std::uint32_t DynamicTree::allocateNode() {
    ++m_nodeCount;
    if (m_freeList != kNull) {
        const std::uint32_t node = m_freeList;
        m_freeList = m_nodes[node].parent;
        return node;
    }
    require(m_nodes.size() < kNull, "DynamicTree::insert", "node count", "exceeds 2^32 - 1");
    m_nodes.push_back({});
    return static_cast<std::uint32_t>(m_nodes.size() - 1);
}

void DynamicTree::freeNode(std::uint32_t node) {
    m_nodes[node].height = -1;
    m_nodes[node].parent = m_freeList;
    m_freeList = node;
    --m_nodeCount;
}

AABB DynamicTree::fatBox(const AABB& box, const AABB& previous, float scale) noexcept {
    // In double: near the float's reach the margin or the fat box overflows a float; the exact
    // box is then the leaf box.
    const double margin = double{scale} * double{kMarginRatio} * 0.25 * perimeter64(box);
    // Ahead along the move of the box's centre (twice the move of its corners' sum).
    const auto moved = [&](float lower, float upper, float lowerBefore, float upperBefore) {
        return 0.5 *
               ((double{lower} + double{upper}) - (double{lowerBefore} + double{upperBefore}));
    };
    const double aheadX = double{kPredictionFactor} *
                          moved(box.lower.x, box.upper.x, previous.lower.x, previous.upper.x);
    const double aheadY = double{kPredictionFactor} *
                          moved(box.lower.y, box.upper.y, previous.lower.y, previous.upper.y);
    const double bounds[4] = {double{box.lower.x} - margin + std::min(aheadX, 0.0),
                              double{box.lower.y} - margin + std::min(aheadY, 0.0),
                              double{box.upper.x} + margin + std::max(aheadX, 0.0),
                              double{box.upper.y} + margin + std::max(aheadY, 0.0)};
    for (const double v : bounds)
        if (!fitsFloat(v)) return box;
    return {{static_cast<float>(bounds[0]), static_cast<float>(bounds[1])},
            {static_cast<float>(bounds[2]), static_cast<float>(bounds[3])}};
}

void DynamicTree::reserve(std::size_t proxies) {
    BuiltInBroadPhase::reserve(proxies);
    m_nodes.reserve(2 * proxies); // a leaf and an inner node each
    m_leafOf.reserve(proxies);
    m_fatOf.reserve(proxies);
}

ProxyId DynamicTree::insert(const AABB& box, std::uint64_t userData) {
    const ProxyId id = m_proxies.insert("DynamicTree::insert", box, userData);
    const auto index = toIndex(id);
    if (index >= m_leafOf.size()) {
        m_leafOf.resize(index + 1, kNull);
        m_fatOf.resize(index + 1);
    }
    const std::uint32_t leaf = allocateNode();
    m_fatOf[index] = fatBox(box, box, marginScale(index, ++m_fattened));
    m_nodes[leaf] = {m_fatOf[index], kNull, kNull, index, 0};
    m_leafOf[index] = leaf;
    insertLeaf(leaf, m_root);
    // Inserted leaves scatter across the node array as reinserted ones do: count them toward
    // the next relayout (after a bulk insert, the first findPairs lays the tree out).
    ++m_movedSinceLayout;
    return id;
}

void DynamicTree::move(ProxyId proxy, const AABB& newBox) {
    AABB previous;
    const AABB& box = m_proxies.move("DynamicTree::move", proxy, newBox, &previous);
    const auto index = toIndex(proxy);
    const AABB& fat = m_fatOf[index]; // the leaf's box, read here without touching the tree
    if (contains(fat, box)) {
        // Still inside its leaf; reinsert only if the leaf has become far too large for it.
        // A fresh fat box (no displacement) adds the margin on all four sides: its perimeter is
        // the box's times (1 + 2 kMarginRatio), without building it.
        if (perimeter64(fat) <=
            double{kShrinkRatio * (1.0f + 2.0f * kMarginRatio)} * perimeter64(box))
            return;
    }
    const AABB newFat = fatBox(box, previous, marginScale(index, ++m_fattened));
    const std::uint32_t leaf = m_leafOf[index];
    // Reinsert from the lowest ancestor that already encloses the new fat box: proxies move a
    // little, so the descent is short and stays in nearby nodes, and no ancestor above grows.
    std::uint32_t start = removeLeaf(leaf);
    while (start != kNull && !contains(m_nodes[start].box, newFat)) start = m_nodes[start].parent;
    m_nodes[leaf].box = newFat;
    m_fatOf[index] = newFat;
    insertLeaf(leaf, start == kNull ? m_root : start);
    ++m_movedSinceLayout;
}

void DynamicTree::remove(ProxyId proxy) {
    m_proxies.checkLive("DynamicTree::remove", proxy);
    const std::uint32_t leaf = m_leafOf[toIndex(proxy)];
    removeLeaf(leaf);
    freeNode(leaf);
    m_leafOf[toIndex(proxy)] = kNull;
    m_proxies.remove(proxy);
}

// Greedy descent by the surface area heuristic (perimeter in 2D). At node N, pairing the leaf
// with N creates a parent of perimeter P(N + leaf); descending instead still enlarges N and all
// its ancestors ("inheritance"), plus the cost of the child chosen. Stop where pairing is
// cheapest.
std::uint32_t DynamicTree::findBestSibling(const AABB& box, std::uint32_t start) const {
    std::uint32_t index = start;
    while (!m_nodes[index].isLeaf()) {
        const Node& node = m_nodes[index];
        const double combined = perimeter64(merged(node.box, box));
        const double pairHere = 2.0 * combined;
        const double inheritance = 2.0 * (combined - perimeter64(node.box));
        const auto descentCost = [&](std::uint32_t child) {
            const Node& c = m_nodes[child];
            const double grown = perimeter64(merged(box, c.box));
            return inheritance + (c.isLeaf() ? grown : grown - perimeter64(c.box));
        };
        const double cost1 = descentCost(node.child1);
        const double cost2 = descentCost(node.child2);
        if (pairHere < cost1 && pairHere < cost2) break;
        index = cost1 < cost2 ? node.child1 : node.child2;
    }
    return index;
}

void DynamicTree::insertLeaf(std::uint32_t leaf, std::uint32_t start) {
    if (m_root == kNull) {
        m_root = leaf;
        m_nodes[leaf].parent = kNull;
        return;
    }
    const AABB leafBox = m_nodes[leaf].box;
    const std::uint32_t sibling = findBestSibling(leafBox, start);
    const std::uint32_t oldParent = m_nodes[sibling].parent;
    const std::uint32_t newParent = allocateNode(); // may grow m_nodes: no references held
    m_nodes[newParent] = {merged(leafBox, m_nodes[sibling].box), oldParent, sibling, leaf,
                          m_nodes[sibling].height + 1};
    if (oldParent == kNull) {
        m_root = newParent;
    } else {
        Node& p = m_nodes[oldParent];
        (p.child1 == sibling ? p.child1 : p.child2) = newParent;
    }
    m_nodes[sibling].parent = newParent;
    m_nodes[leaf].parent = newParent;
    refitUpwards(oldParent);
}

std::uint32_t DynamicTree::removeLeaf(std::uint32_t leaf) {
    if (leaf == m_root) {
        m_root = kNull;
        return kNull;
    }
    const std::uint32_t parent = m_nodes[leaf].parent;
    const std::uint32_t grandParent = m_nodes[parent].parent;
    const std::uint32_t sibling =
        m_nodes[parent].child1 == leaf ? m_nodes[parent].child2 : m_nodes[parent].child1;
    m_nodes[sibling].parent = grandParent;
    freeNode(parent);
    if (grandParent == kNull) {
        m_root = sibling;
        return sibling;
    }
    Node& g = m_nodes[grandParent];
    (g.child1 == parent ? g.child1 : g.child2) = sibling;
    refitUpwards(grandParent);
    return sibling;
}

void DynamicTree::refitUpwards(std::uint32_t node) {
    while (node != kNull) {
        rotate(node);
        Node& n = m_nodes[node];
        const Node& c1 = m_nodes[n.child1];
        const Node& c2 = m_nodes[n.child2];
        const AABB box = merged(c1.box, c2.box);
        const std::int32_t height = 1 + std::max(c1.height, c2.height);
        // Ancestors depend only on this box and height: when neither changed, they are done.
        if (box == n.box && height == n.height) return;
        n.box = box;
        n.height = height;
        node = n.parent;
    }
}

// Rotation at A (children B and C): swap one child with a grandchild under the other child
// when that shrinks the perimeter of the child that changes. A's box is unchanged (same leaves);
// only that child is refit. Of the four candidate swaps the best improving one is applied.
//
//   before: A = (B, C), C = (F, G)      after B <-> F: A = (F, C'), C' = (B, G)
void DynamicTree::rotate(std::uint32_t a) {
    const std::uint32_t b = m_nodes[a].child1;
    const std::uint32_t c = m_nodes[a].child2;
    double bestDelta = 0.0;
    std::uint32_t swapChild = kNull;      // child of A to move down
    std::uint32_t swapGrandchild = kNull; // grandchild of A to move up
    const auto consider = [&](std::uint32_t child, std::uint32_t other) {
        const Node& o = m_nodes[other];
        if (o.isLeaf()) return;
        const double base = perimeter64(o.box);
        const AABB& childBox = m_nodes[child].box;
        const double delta1 =
            perimeter64(merged(childBox, m_nodes[o.child2].box)) - base; // child <-> o.child1
        const double delta2 =
            perimeter64(merged(childBox, m_nodes[o.child1].box)) - base; // child <-> o.child2
        if (delta1 < bestDelta) {
            bestDelta = delta1;
            swapChild = child;
            swapGrandchild = o.child1;
        }
        if (delta2 < bestDelta) {
            bestDelta = delta2;
            swapChild = child;
            swapGrandchild = o.child2;
        }
    };
    consider(b, c);
    consider(c, b);
    if (swapChild == kNull) return;

    const std::uint32_t other = swapChild == b ? c : b; // parent of the grandchild
    Node& nodeA = m_nodes[a];
    (nodeA.child1 == swapChild ? nodeA.child1 : nodeA.child2) = swapGrandchild;
    Node& nodeO = m_nodes[other];
    (nodeO.child1 == swapGrandchild ? nodeO.child1 : nodeO.child2) = swapChild;
    m_nodes[swapGrandchild].parent = a;
    m_nodes[swapChild].parent = other;
    const Node& o1 = m_nodes[nodeO.child1];
    const Node& o2 = m_nodes[nodeO.child2];
    nodeO.box = merged(o1.box, o2.box);
    nodeO.height = 1 + std::max(o1.height, o2.height);
}

// Pairs between two disjoint subtrees, by descending both together:
//   pop (a, b); if their boxes do not overlap: skip
//   both leaves: exact test of the stored boxes
//   else split the one that is an internal node (the larger one when both are)
void DynamicTree::collideSubtrees(std::uint32_t a, std::uint32_t b, std::vector<ProxyPair>& out) {
    const Node* nodes = m_nodes.data();
    const AABB* boxes = m_proxies.boxes().data();
    ++m_overlapTests;
    if (!touches(nodes[a].box, nodes[b].box)) return;
    // Only pairs of nodes known to overlap are stacked: a node's two children are tested when
    // it is split, so their boxes load together rather than one pop after the other. Each pop
    // pushes at most two pairs, so the stack never holds more than the two heights plus one
    // pairs (room made by findPairs).
    std::uint32_t* stack = m_pairStack.data();
    std::size_t top = 0;
    stack[top++] = a;
    stack[top++] = b;
    std::size_t tests = 0;
    while (top != 0) {
        const std::uint32_t nb = stack[--top];
        const std::uint32_t na = stack[--top];
        const Node& x = nodes[na];
        const Node& y = nodes[nb];
        const bool splitX = !x.isLeaf() && (y.isLeaf() || perimeter64(x.box) >= perimeter64(y.box));
        if (!splitX && y.isLeaf()) {
            // Two leaves: the exact test of the stored boxes.
            const std::uint32_t p = x.child2;
            const std::uint32_t q = y.child2;
            if (touches(boxes[p], boxes[q]))
                out.push_back(p < q ? ProxyPair{ProxyId{p}, ProxyId{q}}
                                    : ProxyPair{ProxyId{q}, ProxyId{p}});
            continue;
        }
        const Node& split = splitX ? x : y;
        const std::uint32_t keep = splitX ? nb : na;
        const AABB& keepBox = splitX ? y.box : x.box;
        const std::uint32_t c1 = split.child1;
        const std::uint32_t c2 = split.child2;
        const bool touch1 = touches(nodes[c1].box, keepBox);
        const bool touch2 = touches(nodes[c2].box, keepBox);
        tests += 2;
        // Branch-free pushes: the slot is written either way, kept only on a touch.
        stack[top] = c1;
        stack[top + 1] = keep;
        top += touch1 ? 2 : 0;
        stack[top] = c2;
        stack[top + 1] = keep;
        top += touch2 ? 2 : 0;
    }
    m_overlapTests += tests;
}

// Renumbers the nodes in depth-first pre-order, so that every subtree occupies one contiguous
// range of the array: the descents of findPairs then stay within a few cache lines instead of
// jumping across the whole array. Free nodes go to the end.
void DynamicTree::relayout() {
    if (m_root == kNull) return;
    std::vector<std::uint32_t>& order = m_layoutOrder;
    std::vector<std::uint32_t>& newIndex = m_layoutIndex;
    order.clear();
    newIndex.assign(m_nodes.size(), kNull);
    std::vector<std::uint32_t>& stack = m_pairStack;
    stack.clear();
    stack.push_back(m_root);
    while (!stack.empty()) {
        const std::uint32_t node = stack.back();
        stack.pop_back();
        newIndex[node] = static_cast<std::uint32_t>(order.size());
        order.push_back(node);
        const Node& n = m_nodes[node];
        if (n.isLeaf()) continue;
        stack.push_back(n.child2);
        stack.push_back(n.child1);
    }
    m_layoutNodes.resize(m_nodes.size());
    for (std::uint32_t i = 0; i < order.size(); ++i) {
        Node n = m_nodes[order[i]];
        n.parent = n.parent == kNull ? kNull : newIndex[n.parent];
        if (n.isLeaf()) {
            m_leafOf[n.child2] = i;
        } else {
            n.child1 = newIndex[n.child1];
            n.child2 = newIndex[n.child2];
        }
        m_layoutNodes[i] = n;
    }
    // The free nodes, chained from the first unused slot on.
    m_freeList = kNull;
    for (auto i = static_cast<std::uint32_t>(m_nodes.size()); i-- > order.size();) {
        m_layoutNodes[i].height = -1;
        m_layoutNodes[i].parent = m_freeList;
        m_freeList = i;
    }
    m_nodes.swap(m_layoutNodes);
    m_root = 0;
    m_movedSinceLayout = 0;
}

void DynamicTree::collectPairs(std::vector<ProxyPair>& out) {
    out.clear();
    m_overlapTests = 0;
    if (m_movedSinceLayout * kRelayoutFraction > m_nodeCount) relayout();
    // Every leaf pair has exactly one lowest common ancestor: visiting every internal node and
    // colliding its two subtrees finds each overlapping pair once.
    if (m_root == kNull) return;
    // Room for the deepest traversal (see collideSubtrees), plus the two slots written past the
    // top by its branch-free pushes.
    m_pairStack.resize(4 * (static_cast<std::size_t>(m_nodes[m_root].height) + 2) + 4);
    const Node* nodes = m_nodes.data();
    const AABB* boxes = m_proxies.boxes().data();
    for (const Node& node : m_nodes) {
        if (node.height <= 0) continue;
        const Node& c1 = nodes[node.child1];
        const Node& c2 = nodes[node.child2];
        if (c1.isLeaf() && c2.isLeaf()) {
            // Two sibling leaves (common at the bottom of the tree): their exact boxes directly.
            ++m_overlapTests;
            const std::uint32_t p = c1.child2;
            const std::uint32_t q = c2.child2;
            if (touches(boxes[p], boxes[q]))
                out.push_back(p < q ? ProxyPair{ProxyId{p}, ProxyId{q}}
                                    : ProxyPair{ProxyId{q}, ProxyId{p}});
            continue;
        }
        collideSubtrees(node.child1, node.child2, out);
    }
}

void DynamicTree::query(const AABB& region, FunctionRef<bool(ProxyId)> visit) const {
    requireValidBox("DynamicTree::query", "region", region);
    if (m_root == kNull) return;
    const AABB* boxes = m_proxies.boxes().data();
    NodeStack stack;
    stack.push(m_root);
    while (!stack.empty()) {
        const Node& node = m_nodes[stack.pop()];
        if (!overlaps(node.box, region)) continue;
        if (node.isLeaf()) {
            if (overlaps(boxes[node.child2], region) && !visit(ProxyId{node.child2})) return;
            continue;
        }
        stack.push(node.child1);
        stack.push(node.child2);
    }
}

void DynamicTree::rayCast(Vec2 origin, Vec2 translation, float maxFraction,
                          FunctionRef<float(ProxyId)> visit) const {
    ProxyTable::checkRay("DynamicTree::rayCast", origin, translation, maxFraction);
    if (m_root == kNull) return;
    const AABB* boxes = m_proxies.boxes().data();
    NodeStack stack;
    stack.push(m_root);
    // The segment test is monotone in the box, so a node box that the (clipped) segment misses
    // holds no box it touches.
    while (!stack.empty()) {
        const Node& node = m_nodes[stack.pop()];
        if (!segmentTouchesBox(origin, translation, maxFraction, node.box)) continue;
        if (node.isLeaf()) {
            if (!segmentTouchesBox(origin, translation, maxFraction, boxes[node.child2])) continue;
            maxFraction = visit(ProxyId{node.child2});
            if (maxFraction <= 0.0f) return;
            continue;
        }
        stack.push(node.child1);
        stack.push(node.child2);
    }
}

BroadPhaseStats DynamicTree::stats() const {
    BroadPhaseStats s;
    s.active = name();
    s.proxies = m_proxies.size();
    s.cells = m_nodeCount;
    s.overlapTests = m_overlapTests;
    s.levels = m_root == kNull ? 0 : m_nodes[m_root].height + 1;
    s.memoryBytes = m_proxies.memoryBytes() + m_nodes.capacity() * sizeof(Node) +
                    (m_leafOf.capacity() + m_pairStack.capacity()) * sizeof(std::uint32_t) +
                    pairScratchBytes() + m_fatOf.capacity() * sizeof(AABB) +
                    m_layoutNodes.capacity() * sizeof(Node) +
                    (m_layoutOrder.capacity() + m_layoutIndex.capacity()) * sizeof(std::uint32_t);
    return s;
}

AABB DynamicTree::box(ProxyId proxy) const {
    m_proxies.checkLive("DynamicTree::box", proxy);
    return m_proxies.box(proxy);
}

std::uint64_t DynamicTree::userData(ProxyId proxy) const {
    m_proxies.checkLive("DynamicTree::userData", proxy);
    return m_proxies.userData(proxy);
}

std::size_t DynamicTree::validateSubtree(std::uint32_t node, std::uint32_t parent) const {
    R2D_CHECK(node < m_nodes.size(), "child index out of range");
    const Node& n = m_nodes[node];
    R2D_CHECK(n.parent == parent, "parent link does not match the child link");
    R2D_CHECK(n.height >= 0, "a free node is linked in the tree");
    if (n.isLeaf()) {
        R2D_CHECK(n.height == 0, "leaf height is not 0");
        const ProxyId proxy{n.child2};
        R2D_CHECK(m_proxies.isLive(proxy), "leaf of a dead proxy");
        R2D_CHECK(m_leafOf[n.child2] == node, "proxy does not point back to its leaf");
        R2D_CHECK(m_fatOf[n.child2] == n.box, "per-proxy copy of the fat box is stale");
        R2D_CHECK(contains(n.box, m_proxies.box(proxy)),
                  "fat leaf box does not contain the proxy box");
        return 1;
    }
    const std::size_t leaves = validateSubtree(n.child1, node) + validateSubtree(n.child2, node);
    const Node& c1 = m_nodes[n.child1];
    const Node& c2 = m_nodes[n.child2];
    R2D_CHECK(n.box == merged(c1.box, c2.box), "node box is not the union of its children");
    R2D_CHECK(n.height == 1 + std::max(c1.height, c2.height), "node height is wrong");
    return leaves;
}

void DynamicTree::validate() const {
    m_proxies.validate();
    const std::size_t leaves = m_root == kNull ? 0 : validateSubtree(m_root, kNull);
    R2D_CHECK(leaves == m_proxies.size(), "tree leaves != live proxies");
    R2D_CHECK(m_nodeCount == (leaves == 0 ? 0 : 2 * leaves - 1), "node count != 2 * leaves - 1");
    std::size_t freeCount = 0;
    for (std::uint32_t node = m_freeList; node != kNull; node = m_nodes[node].parent) {
        R2D_CHECK(node < m_nodes.size() && m_nodes[node].height == -1,
                  "free list holds a live node");
        R2D_CHECK(++freeCount <= m_nodes.size(), "free list has a cycle");
    }
    R2D_CHECK(freeCount + m_nodeCount == m_nodes.size(), "nodes neither free nor in the tree");
    R2D_CHECK(m_leafOf.size() == m_proxies.capacity() && m_fatOf.size() == m_proxies.capacity(),
              "leaf tables out of step with the ids");
    for (std::uint32_t i = 0; i < m_proxies.capacity(); ++i) {
        if (m_proxies.isLive(ProxyId{i}))
            R2D_CHECK(m_leafOf[i] < m_nodes.size() && m_nodes[m_leafOf[i]].child2 == i,
                      "live proxy without a leaf");
        else
            R2D_CHECK(m_leafOf[i] == kNull, "removed proxy still has a leaf");
    }
}

void DynamicTree::debugDraw(DebugDraw& draw) const {
    // Node outlines coloured by depth (a repeating palette), skipping subtrees outside the cull
    // region.
    static constexpr Color kPalette[] = {{0.9f, 0.3f, 0.3f, 1.0f}, {0.3f, 0.8f, 0.3f, 1.0f},
                                         {0.3f, 0.5f, 0.9f, 1.0f}, {0.9f, 0.8f, 0.2f, 1.0f},
                                         {0.8f, 0.4f, 0.9f, 1.0f}, {0.3f, 0.8f, 0.8f, 1.0f}};
    if (m_root == kNull) return;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> stack{{m_root, 0}};
    while (!stack.empty()) {
        const auto [index, depth] = stack.back();
        stack.pop_back();
        const Node& node = m_nodes[index];
        if (draw.useCullRegion && !overlaps(node.box, draw.cullRegion)) continue;
        draw.drawAABB(node.box, kPalette[depth % std::size(kPalette)]);
        if (node.isLeaf()) continue;
        stack.push_back({node.child1, depth + 1});
        stack.push_back({node.child2, depth + 1});
    }
}

} // namespace rigid2d::detail
