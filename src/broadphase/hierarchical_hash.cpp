#include "broadphase/hierarchical_hash.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <utility>

#include "broadphase/cells/candidates.hpp"
#include "broadphase/cells/cell_ray.hpp"
#include "broadphase/pair_sort.hpp"
#include "core/assert.hpp"
#include "core/check.hpp"
#include "core/parallel_for.hpp"

namespace rigid2d::detail {

namespace {
constexpr HashNames kNames{"hierarchical_hash",       "HierarchicalHash::insert",
                           "HierarchicalHash::move",  "HierarchicalHash::remove",
                           "HierarchicalHash::query", "HierarchicalHash::rayCast",
                           "HierarchicalHash::box",   "HierarchicalHash::userData"};
} // namespace

HierarchicalHash::HierarchicalHash(const BroadPhaseConfig& config)
    : HierarchicalHash(kNames, config.finestCellSize, kMaxLevels) {}

HierarchicalHash::HierarchicalHash(const HashNames& names, float cellSize, std::uint32_t maxLevels)
    : m_names(names), m_maxLevels(maxLevels), m_fixedCellSize(cellSize > 0.0f) {
    if (m_fixedCellSize) rebuild(cellSize);
}

void HierarchicalHash::rebuild(float finestCellSize) {
    m_finest = finestCellSize;
    m_levels.clear();
    m_outliers.clear();
    // One level is always there (filingOf reads it); more are created as boxes need them.
    if (m_maxLevels == 1) m_levels.emplace_back(finestCellSize);
    const auto& live = m_proxies.liveFlags();
    for (std::uint32_t id = 0; id < m_proxies.capacity(); ++id) {
        if (live[id] != 0) attach(id, m_proxies.boxes()[id]);
    }
}

void HierarchicalHash::rebuildIfSizesDrifted() {
    if (m_fixedCellSize || !m_sizes.drifted(m_sizeReference)) return;
    m_sizeReference = m_sizes.medianHalfExtent();
    rebuild(autoCellSize(m_sizeReference, kAutoCellFactor));
}

// The cell edge of level l is finest * 2^l, exact in float; a box no wider than the edge spans
// at most 2 cells per axis there.
std::uint32_t HierarchicalHash::levelOfExtent(const AABB& box) const noexcept {
    const float extent = std::max(box.upper.x - box.lower.x, box.upper.y - box.lower.y);
    float size = m_finest;
    for (std::uint32_t l = 0; l < m_maxLevels; ++l, size *= 2.0f) {
        if (extent <= size) return l;
    }
    return kOutlier;
}

void HierarchicalHash::attach(std::uint32_t id, const AABB& box) {
    Placement& place = m_placement[id];
    Filing filing = filingOf(box);
    place.level = filing.level;
    if (filing.level == kOutlier) {
        place.outlierSlot = static_cast<std::uint32_t>(m_outliers.size());
        m_outliers.push_back(id);
        return;
    }
    if (filing.level >= m_levels.size()) {
        while (m_levels.size() <= filing.level)
            m_levels.emplace_back(std::ldexp(m_finest, static_cast<int>(m_levels.size())));
        filing.range = m_levels[filing.level].rangeOf(box);
    }
    place.range = filing.range;
    m_levels[filing.level].attach(id, filing.range);
}

void HierarchicalHash::detach(std::uint32_t id) {
    const Placement& place = m_placement[id];
    if (place.level != kOutlier) {
        m_levels[place.level].detach(id, place.range);
        return;
    }
    const std::uint32_t moved = m_outliers.back();
    m_outliers[place.outlierSlot] = moved;
    m_placement[moved].outlierSlot = place.outlierSlot;
    m_outliers.pop_back();
}

void HierarchicalHash::reserve(std::size_t proxies) {
    BuiltInBroadPhase::reserve(proxies);
    m_placement.reserve(proxies);
}

ProxyId HierarchicalHash::insert(const AABB& box, std::uint64_t userData) {
    const ProxyId proxy = m_proxies.insert(m_names.insert, box, userData);
    const std::uint32_t id = toIndex(proxy);
    if (id >= m_placement.size()) m_placement.resize(id + 1);
    m_sizes.add(box);
    if (m_finest == 0.0f) {
        m_sizeReference = m_sizes.medianHalfExtent();
        rebuild(autoCellSize(m_sizeReference, kAutoCellFactor)); // files the new proxy too
        return proxy;
    }
    attach(id, box);
    // Check for drift at power-of-two sizes only: amortised O(1) per insert.
    if (std::has_single_bit(m_proxies.size())) rebuildIfSizesDrifted();
    return proxy;
}

void HierarchicalHash::move(ProxyId proxy, const AABB& newBox) {
    AABB previous;
    const AABB& box = m_proxies.move(m_names.move, proxy, newBox, &previous);
    const std::uint32_t id = toIndex(proxy);
    m_sizes.change(previous, box);
    Placement& place = m_placement[id];
    const Filing filing = filingOf(box);
    if (filing.level != place.level) {
        detach(id);
        attach(id, box);
        return;
    }
    if (filing.level == kOutlier || filing.range == place.range) return;
    m_levels[filing.level].move(id, place.range, filing.range);
    place.range = filing.range;
}

void HierarchicalHash::remove(ProxyId proxy) {
    m_proxies.checkLive(m_names.remove, proxy);
    m_sizes.remove(m_proxies.box(proxy));
    detach(toIndex(proxy));
    m_proxies.remove(proxy);
}

void HierarchicalHash::collectPairs(std::vector<ProxyPair>& out) {
    out.clear();
    rebuildIfSizesDrifted();
    m_occupiedLevels.clear();
    for (std::uint32_t l = 0; l < m_levels.size(); ++l)
        if (m_levels[l].proxies() != 0) m_occupiedLevels.push_back(l);
    const std::int32_t pieces = pairSearchPieces();
    if (pieces == 1) {
        m_overlapTests = collectPairPiece(0, 1, m_cellEntries, out);
        return;
    }
    // Each piece into its own list; the order they are joined in does not matter, as the pairs
    // are sorted before anyone sees them.
    const auto count = static_cast<std::size_t>(pieces);
    if (m_piecePairs.size() < count) {
        m_piecePairs.resize(count);
        m_pieceEntries.resize(count);
        m_pieceTests.resize(count);
    }
    parallelFor(*m_workers, pieces, 1, [&](std::int32_t begin, std::int32_t end, std::int32_t) {
        for (auto p = static_cast<std::size_t>(begin); p < static_cast<std::size_t>(end); ++p) {
            m_piecePairs[p].clear();
            m_pieceTests[p] = collectPairPiece(p, count, m_pieceEntries[p], m_piecePairs[p]);
        }
    });
    joinPieces(std::span(m_piecePairs).first(count), out);
    m_overlapTests = 0;
    for (std::size_t p = 0; p < count; ++p) m_overlapTests += m_pieceTests[p];
}

std::size_t HierarchicalHash::collectPairPiece(std::size_t piece, std::size_t pieces,
                                               std::vector<CellEntry>& entries,
                                               std::vector<ProxyPair>& out) const {
    const auto& boxes = m_proxies.boxes();
    const auto slice = [&](std::size_t n) {
        return std::pair{n * piece / pieces, n * (piece + 1) / pieces};
    };
    std::size_t tests = 0;
    for (const std::uint32_t l : m_occupiedLevels)
        tests += m_levels[l].collectPairs(boxes, entries, out, piece, pieces);
    // Across levels: the finer proxy of each pair looks up the coarser levels.
    if (m_occupiedLevels.size() > 1) {
        const auto& live = m_proxies.liveFlags();
        const std::uint32_t coarsest = m_occupiedLevels.back();
        const auto [first, last] = slice(m_proxies.capacity());
        for (std::size_t id = first; id < last; ++id) {
            if (live[id] == 0 || m_placement[id].level >= coarsest) continue;
            const std::uint32_t own = m_placement[id].level;
            for (const std::uint32_t l : m_occupiedLevels) {
                if (l > own)
                    tests += m_levels[l].pairsWith(static_cast<std::uint32_t>(id), boxes[id], boxes,
                                                   out);
            }
        }
    }
    const auto [first, last] = slice(m_outliers.size());
    for (std::size_t i = first; i < last; ++i) {
        const std::uint32_t id = m_outliers[i];
        const AABB& box = boxes[id];
        for (const std::uint32_t l : m_occupiedLevels)
            tests += m_levels[l].pairsWith(id, box, boxes, out);
        for (std::size_t j = i + 1; j < m_outliers.size(); ++j) {
            ++tests;
            if (overlaps(box, boxes[m_outliers[j]])) out.push_back(orderedPair(id, m_outliers[j]));
        }
    }
    return tests;
}

void HierarchicalHash::query(const AABB& region, FunctionRef<bool(ProxyId)> visit) const {
    requireValidBox(m_names.query, "region", region);
    const auto& boxes = m_proxies.boxes();
    ScratchIds scratch;
    for (const HashLevel& level : m_levels) {
        if (level.proxies() == 0) continue;
        const CellRange range = level.rangeOf(region);
        if (range.cellCount() > cellBudget()) return m_proxies.queryAll(region, visit);
        level.collectOverlapping(range, region, boxes, scratch.ids);
    }
    for (std::uint32_t id : m_outliers) {
        if (overlaps(boxes[id], region)) scratch.ids.push_back(id);
    }
    visitInIdOrder(scratch.ids, visit);
}

void HierarchicalHash::rayCast(Vec2 origin, Vec2 translation, float maxFraction,
                               FunctionRef<float(ProxyId)> visit) const {
    ProxyTable::checkRay(m_names.rayCast, origin, translation, maxFraction);
    ScratchIds scratch;
    for (const HashLevel& level : m_levels) {
        if (level.proxies() == 0) continue;
        const RaySpan ray = raySpan(origin, translation, maxFraction, level.mapping().size());
        if (rayCellEstimate(level.mapping(), ray) > cellBudget())
            return m_proxies.rayCastAll(origin, translation, maxFraction, visit);
        level.collectAlongRay(ray, scratch.ids);
    }
    scratch.ids.insert(scratch.ids.end(), m_outliers.begin(), m_outliers.end());
    visitRayInIdOrder(scratch.ids, m_proxies.boxes(), origin, translation, maxFraction, visit);
}

BroadPhaseStats HierarchicalHash::stats() const {
    BroadPhaseStats s;
    s.active = name();
    s.proxies = m_proxies.size();
    s.outliers = m_outliers.size();
    s.overlapTests = m_overlapTests;
    s.memoryBytes = m_proxies.memoryBytes() + m_placement.capacity() * sizeof(Placement) +
                    m_outliers.capacity() * sizeof(std::uint32_t) +
                    m_levels.capacity() * sizeof(HashLevel) +
                    m_cellEntries.capacity() * sizeof(CellEntry) + pairScratchBytes();
    for (std::size_t p = 0; p < m_piecePairs.size(); ++p)
        s.memoryBytes += m_pieceEntries[p].capacity() * sizeof(CellEntry) +
                         m_piecePairs[p].capacity() * sizeof(ProxyPair);
    for (const HashLevel& level : m_levels) {
        s.cells += level.occupied();
        s.memoryBytes += level.memoryBytes();
        s.levels += level.proxies() != 0 ? 1 : 0;
    }
    s.cellSize = m_finest;
    return s;
}

AABB HierarchicalHash::box(ProxyId proxy) const {
    m_proxies.checkLive(m_names.box, proxy);
    return m_proxies.box(proxy);
}

std::uint64_t HierarchicalHash::userData(ProxyId proxy) const {
    m_proxies.checkLive(m_names.userData, proxy);
    return m_proxies.userData(proxy);
}

// Every live proxy is on the level its box asks for, listed in exactly the cells of its range
// there (or in the outlier list at its slot); each level's cells and counts agree.
void HierarchicalHash::validate() const {
    m_proxies.validate();
    R2D_CHECK(m_sizes.total() == m_proxies.size(), "size histogram out of step with proxies");
    R2D_CHECK(m_finest > 0.0f || m_proxies.size() == 0, "proxies stored without a cell size");
    R2D_CHECK(m_levels.size() <= m_maxLevels, "more levels than the hash may have");
    const auto& boxes = m_proxies.boxes();
    const auto& live = m_proxies.liveFlags();
    std::vector<std::int64_t> expected(m_levels.size(), 0);
    std::vector<std::size_t> perLevel(m_levels.size(), 0);
    for (std::uint32_t id = 0; id < m_proxies.capacity(); ++id) {
        if (live[id] == 0) continue;
        const Placement& place = m_placement[id];
        R2D_CHECK(place.level == filingOf(boxes[id]).level, "proxy on the wrong level for its box");
        if (place.level == kOutlier) {
            R2D_CHECK(place.outlierSlot < m_outliers.size() && m_outliers[place.outlierSlot] == id,
                      "outlier slot is stale");
            continue;
        }
        R2D_CHECK(place.level < m_levels.size(), "proxy on a level that does not exist");
        const HashLevel& level = m_levels[place.level];
        R2D_CHECK(level.mapping().size() == std::ldexp(m_finest, static_cast<int>(place.level)),
                  "level cell size is not finest * 2^level");
        R2D_CHECK(place.range == level.rangeOf(boxes[id]), "proxy cell range is stale");
        expected[place.level] += place.range.cellCount();
        ++perLevel[place.level];
    }
    for (std::uint32_t id : m_outliers) R2D_CHECK(m_proxies.isLive(ProxyId{id}), "stale outlier");
    for (std::uint32_t l = 0; l < m_levels.size(); ++l) {
        const HashLevel& level = m_levels[l];
        R2D_CHECK(level.proxies() == perLevel[l], "level proxy count is stale");
        const std::int64_t listings =
            level.validate([&](std::uint32_t id, std::int32_t x, std::int32_t y) {
                return m_proxies.isLive(ProxyId{id}) && m_placement[id].level == l &&
                       m_placement[id].range.contains(x, y);
            });
        R2D_CHECK(listings == expected[l], "proxies missing from cells their box covers");
    }
}

void HierarchicalHash::debugDraw(DebugDraw& draw) const {
    const AABB* region = draw.useCullRegion ? &draw.cullRegion : nullptr;
    for (std::uint32_t l = 0; l < m_levels.size(); ++l) {
        // Finer levels bluer, coarser greener.
        const float t = std::min(1.0f, static_cast<float>(l) / 8.0f);
        m_levels[l].draw(draw, region, Color{0.2f, 0.4f + 0.5f * t, 0.9f - 0.6f * t, 0.6f});
    }
    const Color outlierFill{1.0f, 0.4f, 0.1f, 0.25f};
    const Color outlierOutline{1.0f, 0.4f, 0.1f, 1.0f};
    for (std::uint32_t id : m_outliers) {
        const AABB& box = m_proxies.boxes()[id];
        if (region == nullptr || overlaps(box, *region))
            draw.drawBox(box, outlierFill, outlierOutline);
    }
}

} // namespace rigid2d::detail
