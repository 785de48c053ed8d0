#include "broadphase/quadtree.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "broadphase/geometry.hpp"
#include "broadphase/pair_sort.hpp"
#include "core/assert.hpp"
#include "core/check.hpp"

namespace rigid2d::detail {

namespace {

// The root stops doubling here: its loose bounds (centre +- 4 half) stay finite floats. A proxy
// that still does not fit is kept at the root, which searches never prune.
constexpr float kMaxHalf = 0x1p124f;
// Below the root, cells stop splitting this many levels down (points would split forever).
constexpr int kMaxDepth = 40;

struct Shape {
    Vec2 center;
    float extent; ///< larger half extent
};

Shape shapeOf(const AABB& box) noexcept {
    // Halves first: lower + upper may overflow for boxes near the float range.
    return {0.5f * box.lower + 0.5f * box.upper, std::max(0.5f * box.upper.x - 0.5f * box.lower.x,
                                                          0.5f * box.upper.y - 0.5f * box.lower.y)};
}

int quadrant(Vec2 center, Vec2 point) noexcept {
    return (point.x >= center.x ? 1 : 0) + (point.y >= center.y ? 2 : 0);
}

Vec2 quadrantCenter(Vec2 center, float half, int q) noexcept {
    const float h = 0.5f * half;
    return {center.x + ((q & 1) != 0 ? h : -h), center.y + ((q & 2) != 0 ? h : -h)};
}

} // namespace

AABB Quadtree::looseBounds(const Cell& cell) noexcept {
    const float reach = 2.0f * cell.half;
    return {cell.center - Vec2{reach, reach}, cell.center + Vec2{reach, reach}};
}

// The proxy fits when it is no bigger than the cell and lies inside the cell's loose bounds, so
// pruning a cell by its loose bounds never loses one of its proxies.
bool Quadtree::fits(const Cell& cell, Vec2 center, float extent) noexcept {
    const AABB loose = looseBounds(cell);
    return extent <= cell.half && std::fabs(center.x - cell.center.x) <= cell.half &&
           std::fabs(center.y - cell.center.y) <= cell.half && center.x - extent >= loose.lower.x &&
           center.x + extent <= loose.upper.x && center.y - extent >= loose.lower.y &&
           center.y + extent <= loose.upper.y;
}

std::uint32_t Quadtree::newCell(Vec2 center, float half, std::uint32_t parent) {
    std::uint32_t index;
    if (!m_freeCells.empty()) {
        index = m_freeCells.back();
        m_freeCells.pop_back();
    } else {
        index = static_cast<std::uint32_t>(m_cells.size());
        m_cells.emplace_back();
    }
    Cell& cell = m_cells[index];
    cell.center = center;
    cell.half = half;
    cell.parent = parent;
    std::fill(std::begin(cell.children), std::end(cell.children), kNone);
    cell.proxies.clear();
    cell.live = true;
    return index;
}

void Quadtree::growToHold(Vec2 center, float extent) {
    if (m_root == kNone) {
        // A power-of-two square around the origin: cell centres and sides stay exact floats.
        float half = 1.0f;
        while (half < extent && half < kMaxHalf) half *= 2.0f;
        m_root = newCell({0.0f, 0.0f}, half, kNone);
    }
    while (!fits(m_cells[m_root], center, extent) && m_cells[m_root].half < kMaxHalf) {
        // Double toward the proxy; the old root becomes the opposite quadrant of the new one.
        const Cell old = m_cells[m_root];
        const Vec2 step{center.x >= old.center.x ? old.half : -old.half,
                        center.y >= old.center.y ? old.half : -old.half};
        const std::uint32_t oldRoot = m_root;
        const bool empty =
            old.proxies.empty() && std::all_of(std::begin(old.children), std::end(old.children),
                                               [](std::uint32_t child) { return child == kNone; });
        if (empty) { // nothing to keep: no empty cell is left behind in the tree
            m_cells[oldRoot].live = false;
            m_freeCells.push_back(oldRoot);
        }
        m_root = newCell(old.center + step, 2.0f * old.half, kNone);
        if (!empty) {
            m_cells[m_root].children[quadrant(m_cells[m_root].center, old.center)] = oldRoot;
            m_cells[oldRoot].parent = m_root;
        }
    }
}

std::uint32_t Quadtree::cellFor(Vec2 center, float extent) {
    growToHold(center, extent);
    std::uint32_t cell = m_root;
    for (int depth = 0; depth < kMaxDepth; ++depth) {
        const Cell& parent = m_cells[cell];
        const int q = quadrant(parent.center, center);
        const float half = 0.5f * parent.half;
        if (parent.children[q] != kNone) {
            if (!fits(m_cells[parent.children[q]], center, extent)) break;
            cell = parent.children[q];
            continue;
        }
        Cell candidate;
        candidate.center = quadrantCenter(parent.center, parent.half, q);
        candidate.half = half;
        if (!fits(candidate, center, extent)) break;
        const std::uint32_t child = newCell(candidate.center, half, cell);
        m_cells[cell].children[q] = child; // newCell may have moved m_cells
        cell = child;
    }
    return cell;
}

void Quadtree::attach(std::uint32_t proxy, std::uint32_t cell) {
    if (proxy >= m_places.size()) m_places.resize(proxy + 1);
    auto& list = m_cells[cell].proxies;
    m_places[proxy] = {cell, static_cast<std::uint32_t>(list.size())};
    list.push_back(proxy);
}

void Quadtree::detach(std::uint32_t proxy) {
    const Place place = m_places[proxy];
    auto& list = m_cells[place.cell].proxies;
    const std::uint32_t last = list.back();
    list[place.slot] = last;
    m_places[last].slot = place.slot;
    list.pop_back();
    m_places[proxy] = {};
}

void Quadtree::prune(std::uint32_t cell) {
    while (cell != kNone && cell != m_root) {
        Cell& c = m_cells[cell];
        if (!c.proxies.empty() || std::any_of(std::begin(c.children), std::end(c.children),
                                              [](std::uint32_t child) { return child != kNone; }))
            return;
        const std::uint32_t parent = c.parent;
        for (std::uint32_t& child : m_cells[parent].children)
            if (child == cell) child = kNone;
        c.live = false;
        c.proxies.shrink_to_fit();
        m_freeCells.push_back(cell);
        cell = parent;
    }
}

void Quadtree::reserve(std::size_t proxies) {
    BuiltInBroadPhase::reserve(proxies);
    m_places.reserve(proxies);
}

ProxyId Quadtree::insert(const AABB& box, std::uint64_t userData) {
    const ProxyId id = m_proxies.insert("Quadtree::insert", box, userData);
    const Shape s = shapeOf(box);
    attach(toIndex(id), cellFor(s.center, s.extent));
    return id;
}

void Quadtree::move(ProxyId proxy, const AABB& box) {
    const Shape s = shapeOf(m_proxies.move("Quadtree::move", proxy, box));
    const std::uint32_t index = toIndex(proxy);
    const std::uint32_t current = m_places[index].cell;
    // Most moves stay in their cell: a proxy may stay wherever it still fits (the searches need
    // no more), and leaves for the deepest cell that holds it only when it no longer does.
    if (fits(m_cells[current], s.center, s.extent)) return;
    detach(index);
    attach(index, cellFor(s.center, s.extent));
    prune(current);
}

void Quadtree::remove(ProxyId proxy) {
    m_proxies.checkLive("Quadtree::remove", proxy);
    const std::uint32_t cell = m_places[toIndex(proxy)].cell;
    detach(toIndex(proxy));
    m_proxies.remove(proxy);
    prune(cell);
}

// Every pair once, by walking the tree against itself: a cell's own proxies with each other and
// with everything below it, each child's subtree on its own, and every two subtrees whose
// contents' bounds meet. Lists of proxies carried down a subtree keep only those whose box meets
// what the subtree holds, so a search stops where nothing can overlap. The bounds of each
// subtree's contents are gathered first, in one pass: much tighter than the loose bounds.
void Quadtree::collectPairs(std::vector<ProxyPair>& out) {
    out.clear();
    m_overlapTests = 0;
    m_filtered.clear();
    if (m_root == kNone) return;
    m_contents.resize(m_cells.size());
    gatherContents(m_root);
    pairsWithin(m_root, out);
}

AABB Quadtree::gatherContents(std::uint32_t cell) {
    constexpr float inf = std::numeric_limits<float>::infinity();
    AABB bounds{{inf, inf}, {-inf, -inf}}; // empty: overlaps nothing
    const auto& boxes = m_proxies.boxes();
    for (const std::uint32_t p : m_cells[cell].proxies) bounds = combine(bounds, boxes[p]);
    for (const std::uint32_t child : m_cells[cell].children)
        if (child != kNone) bounds = combine(bounds, gatherContents(child));
    m_contents[cell] = bounds;
    return bounds;
}

void Quadtree::test(std::uint32_t a, std::uint32_t b, std::vector<ProxyPair>& out) {
    ++m_overlapTests;
    const auto& boxes = m_proxies.boxes();
    if (overlaps(boxes[a], boxes[b]))
        out.push_back({ProxyId{std::min(a, b)}, ProxyId{std::max(a, b)}});
}

void Quadtree::pairsWithin(std::uint32_t cell, std::vector<ProxyPair>& out) {
    const std::vector<std::uint32_t>& own = m_cells[cell].proxies;
    for (std::size_t i = 0; i < own.size(); ++i)
        for (std::size_t j = i + 1; j < own.size(); ++j) test(own[i], own[j], out);
    const std::uint32_t* children = m_cells[cell].children;
    for (int k = 0; k < 4; ++k) {
        if (children[k] == kNone) continue;
        ownAgainst(cell, children[k], out);
        pairsWithin(children[k], out);
    }
    for (int a = 0; a < 4; ++a)
        for (int b = a + 1; b < 4; ++b)
            if (children[a] != kNone && children[b] != kNone)
                pairsBetween(children[a], children[b], out);
}

void Quadtree::pairsBetween(std::uint32_t x, std::uint32_t y, std::vector<ProxyPair>& out) {
    if (!overlaps(m_contents[x], m_contents[y])) return;
    // x's own proxies against all of y's subtree (y's own included), y's own against what lies
    // below x, then the children of both, pairwise.
    ownAgainst(x, y, out);
    for (const std::uint32_t child : m_cells[x].children)
        if (child != kNone) ownAgainst(y, child, out);
    for (int a = 0; a < 4; ++a) {
        const std::uint32_t childX = m_cells[x].children[a];
        if (childX == kNone) continue;
        for (int b = 0; b < 4; ++b) {
            const std::uint32_t childY = m_cells[y].children[b];
            if (childY != kNone) pairsBetween(childX, childY, out);
        }
    }
}

void Quadtree::ownAgainst(std::uint32_t owner, std::uint32_t subtree, std::vector<ProxyPair>& out) {
    const std::vector<std::uint32_t>& own = m_cells[owner].proxies;
    if (own.empty()) return;
    const std::size_t begin = m_filtered.size();
    m_filtered.insert(m_filtered.end(), own.begin(), own.end());
    listAgainst(begin, m_filtered.size(), subtree, out);
    m_filtered.resize(begin);
}

// Proxies m_filtered[begin, end) against every proxy stored in the subtree of `cell`.
void Quadtree::listAgainst(std::size_t begin, std::size_t end, std::uint32_t cell,
                           std::vector<ProxyPair>& out) {
    const AABB contents = m_contents[cell];
    const auto& boxes = m_proxies.boxes();
    const std::size_t kept = m_filtered.size();
    for (std::size_t i = begin; i < end; ++i)
        if (overlaps(boxes[m_filtered[i]], contents)) m_filtered.push_back(m_filtered[i]);
    const std::size_t keptEnd = m_filtered.size();
    if (keptEnd == kept) return;
    for (const std::uint32_t q : m_cells[cell].proxies)
        for (std::size_t i = kept; i < keptEnd; ++i) test(m_filtered[i], q, out);
    for (const std::uint32_t child : m_cells[cell].children)
        if (child != kNone) listAgainst(kept, keptEnd, child, out);
    m_filtered.resize(kept);
}

void Quadtree::query(const AABB& region, FunctionRef<bool(ProxyId)> visit) const {
    requireValidBox("Quadtree::query", "region", region);
    if (m_root == kNone) return;
    std::vector<std::uint32_t> stack{m_root};
    const auto& boxes = m_proxies.boxes();
    while (!stack.empty()) {
        const Cell& cell = m_cells[stack.back()];
        stack.pop_back();
        for (const std::uint32_t q : cell.proxies)
            if (overlaps(boxes[q], region) && !visit(ProxyId{q})) return;
        for (const std::uint32_t child : cell.children)
            if (child != kNone && overlaps(looseBounds(m_cells[child]), region))
                stack.push_back(child);
    }
}

void Quadtree::rayCast(Vec2 origin, Vec2 translation, float maxFraction,
                       FunctionRef<float(ProxyId)> visit) const {
    ProxyTable::checkRay("Quadtree::rayCast", origin, translation, maxFraction);
    if (m_root == kNone) return;
    std::vector<std::uint32_t> stack{m_root};
    const auto& boxes = m_proxies.boxes();
    while (!stack.empty()) {
        const Cell& cell = m_cells[stack.back()];
        stack.pop_back();
        for (const std::uint32_t q : cell.proxies) {
            if (!segmentTouchesBox(origin, translation, maxFraction, boxes[q])) continue;
            maxFraction = visit(ProxyId{q});
            if (maxFraction <= 0.0f) return;
        }
        for (const std::uint32_t child : cell.children)
            if (child != kNone &&
                segmentTouchesBox(origin, translation, maxFraction, looseBounds(m_cells[child])))
                stack.push_back(child);
    }
}

BroadPhaseStats Quadtree::stats() const {
    BroadPhaseStats s;
    s.active = name();
    s.proxies = m_proxies.size();
    s.cells = m_cells.size() - m_freeCells.size();
    s.overlapTests = m_overlapTests;
    std::size_t bytes = m_proxies.memoryBytes() + m_places.capacity() * sizeof(Place) +
                        m_cells.capacity() * sizeof(Cell) +
                        m_freeCells.capacity() * sizeof(std::uint32_t);
    for (const Cell& cell : m_cells) bytes += cell.proxies.capacity() * sizeof(std::uint32_t);
    s.memoryBytes = bytes;
    if (m_root != kNone) {
        s.cellSize = 2.0f * m_cells[m_root].half;
        // Height: the deepest cell below the root.
        std::vector<std::pair<std::uint32_t, int>> stack{{m_root, 1}};
        while (!stack.empty()) {
            const auto [c, depth] = stack.back();
            stack.pop_back();
            s.levels = std::max(s.levels, depth);
            for (const std::uint32_t child : m_cells[c].children)
                if (child != kNone) stack.push_back({child, depth + 1});
        }
    }
    return s;
}

AABB Quadtree::box(ProxyId proxy) const {
    m_proxies.checkLive("Quadtree::box", proxy);
    return m_proxies.box(proxy);
}

std::uint64_t Quadtree::userData(ProxyId proxy) const {
    m_proxies.checkLive("Quadtree::userData", proxy);
    return m_proxies.userData(proxy);
}

std::size_t Quadtree::validateCell(std::uint32_t index, std::uint32_t parent) const {
    R2D_CHECK(index < m_cells.size(), "cell index out of range");
    const Cell& cell = m_cells[index];
    R2D_CHECK(cell.live, "a freed cell is linked in the tree");
    R2D_CHECK(cell.parent == parent, "parent link does not match the child link");
    std::size_t count = cell.proxies.size();
    for (std::uint32_t slot = 0; slot < cell.proxies.size(); ++slot) {
        const std::uint32_t p = cell.proxies[slot];
        R2D_CHECK(m_proxies.isLive(ProxyId{p}), "a cell lists a dead proxy");
        R2D_CHECK(m_places[p].cell == index && m_places[p].slot == slot, "proxy place is stale");
        const Shape s = shapeOf(m_proxies.box(ProxyId{p}));
        R2D_CHECK(fits(cell, s.center, s.extent) || (index == m_root && cell.half >= kMaxHalf),
                  "a proxy does not fit its cell");
    }
    bool hasChild = false;
    for (int q = 0; q < 4; ++q) {
        const std::uint32_t child = cell.children[q];
        if (child == kNone) continue;
        hasChild = true;
        R2D_CHECK(m_cells[child].half == 0.5f * cell.half, "a child is not half its parent");
        R2D_CHECK(m_cells[child].center == quadrantCenter(cell.center, cell.half, q),
                  "a child is not in its quadrant");
        count += validateCell(child, index);
    }
    R2D_CHECK(index == m_root || hasChild || !cell.proxies.empty(), "an empty leaf cell was kept");
    return count;
}

void Quadtree::validate() const {
    m_proxies.validate();
    const std::size_t stored = m_root == kNone ? 0 : validateCell(m_root, kNone);
    R2D_CHECK(stored == m_proxies.size(), "cells list a different number of proxies than are live");
    std::size_t live = 0;
    for (const Cell& cell : m_cells) live += cell.live ? 1 : 0;
    R2D_CHECK(live + m_freeCells.size() == m_cells.size(), "free cell list does not match");
}

void Quadtree::debugDraw(DebugDraw& draw) const {
    // Each cell's square (not its loose bounds), coloured by depth.
    static constexpr Color kPalette[] = {{0.9f, 0.3f, 0.3f, 1.0f}, {0.3f, 0.8f, 0.3f, 1.0f},
                                         {0.3f, 0.5f, 0.9f, 1.0f}, {0.9f, 0.8f, 0.2f, 1.0f},
                                         {0.8f, 0.4f, 0.9f, 1.0f}, {0.3f, 0.8f, 0.8f, 1.0f}};
    if (m_root == kNone) return;
    std::vector<std::pair<std::uint32_t, std::size_t>> stack{{m_root, 0}};
    while (!stack.empty()) {
        const auto [index, depth] = stack.back();
        stack.pop_back();
        const Cell& cell = m_cells[index];
        if (draw.useCullRegion && !overlaps(looseBounds(cell), draw.cullRegion)) continue;
        const Vec2 half{cell.half, cell.half};
        draw.drawAABB({cell.center - half, cell.center + half},
                      kPalette[depth % std::size(kPalette)]);
        for (const std::uint32_t child : cell.children)
            if (child != kNone) stack.push_back({child, depth + 1});
    }
}

} // namespace rigid2d::detail
