#include "broadphase/hierarchical_hash.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "broadphase/pair_sort.hpp"
#include "core/assert.hpp"
#include "core/check.hpp"

namespace rigid2d::detail {

HierarchicalHash::HierarchicalHash(const BroadPhaseConfig& config)
    : m_fixedCellSize(config.finestCellSize > 0.0f) {
    if (m_fixedCellSize) rebuild(config.finestCellSize);
}

void HierarchicalHash::rebuild(float finestCellSize) {
    m_finest = finestCellSize;
    m_levels.clear();
    m_pool.reset();
    m_big.clear();
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

// The smallest level whose cell edge (finest * 2^level, exact in float) covers the box's larger
// extent, so the box spans at most 2 cells per axis there.
std::uint32_t HierarchicalHash::levelFor(const AABB& box) const noexcept {
    const float extent = std::max(box.upper.x - box.lower.x, box.upper.y - box.lower.y);
    float size = m_finest;
    for (std::uint32_t l = 0; l < kMaxLevels; ++l, size *= 2.0f) {
        if (extent <= size) return l;
    }
    return kBig;
}

HierarchicalHash::Level& HierarchicalHash::level(std::uint32_t index) {
    while (m_levels.size() <= index) {
        const auto l = static_cast<int>(m_levels.size());
        m_levels.push_back({CellMapping(std::ldexp(m_finest, l)), CellTable{}, 0});
    }
    return m_levels[index];
}

void HierarchicalHash::attach(std::uint32_t id, const AABB& box) {
    Placement& place = m_placement[id];
    place.level = levelFor(box);
    if (place.level == kBig) {
        place.bigSlot = static_cast<std::uint32_t>(m_big.size());
        m_big.push_back(id);
        return;
    }
    Level& lv = level(place.level);
    place.range = lv.mapping.rangeOf(box);
    ++lv.proxies;
    forEachCell(place.range,
                [&](std::int32_t x, std::int32_t y) { lv.table.add(packCell(x, y), id, m_pool); });
}

void HierarchicalHash::detach(std::uint32_t id) {
    const Placement& place = m_placement[id];
    if (place.level == kBig) {
        const std::uint32_t moved = m_big.back();
        m_big[place.bigSlot] = moved;
        m_placement[moved].bigSlot = place.bigSlot;
        m_big.pop_back();
        return;
    }
    Level& lv = m_levels[place.level];
    --lv.proxies;
    forEachCell(place.range, [&](std::int32_t x, std::int32_t y) {
        const bool removed = lv.table.remove(packCell(x, y), id, m_pool);
        R2D_ASSERT(removed, "hierarchical hash proxy missing from one of its cells");
        (void)removed;
    });
}

ProxyId HierarchicalHash::insert(const AABB& box, std::uint64_t userData) {
    const ProxyId proxy = m_proxies.insert("HierarchicalHash::insert", box, userData);
    const std::uint32_t id = toIndex(proxy);
    if (id >= m_placement.size()) m_placement.resize(id + 1);
    m_sizes.add(box);
    if (m_finest == 0.0f) {
        m_sizeReference = m_sizes.medianHalfExtent();
        rebuild(autoCellSize(m_sizeReference, kAutoCellFactor)); // files the new proxy too
        return proxy;
    }
    attach(id, box);
    if (std::has_single_bit(m_proxies.size())) rebuildIfSizesDrifted();
    return proxy;
}

void HierarchicalHash::move(ProxyId proxy, const AABB& box) {
    m_proxies.checkMove("HierarchicalHash::move", proxy, box);
    const std::uint32_t id = toIndex(proxy);
    m_sizes.change(m_proxies.box(proxy), box);
    m_proxies.setBox(proxy, box);
    Placement& place = m_placement[id];
    const std::uint32_t newLevel = levelFor(box);
    if (newLevel != place.level || newLevel == kBig) {
        if (newLevel != place.level) {
            detach(id);
            attach(id, box);
        }
        return;
    }
    Level& lv = m_levels[newLevel];
    const CellRange range = lv.mapping.rangeOf(box);
    if (range == place.range) return;
    forEachCellChange(
        place.range, range,
        [&](std::int32_t x, std::int32_t y) {
            const bool removed = lv.table.remove(packCell(x, y), id, m_pool);
            R2D_ASSERT(removed, "hierarchical hash proxy missing from one of its cells");
            (void)removed;
        },
        [&](std::int32_t x, std::int32_t y) { lv.table.add(packCell(x, y), id, m_pool); });
    place.range = range;
}

void HierarchicalHash::remove(ProxyId proxy) {
    m_proxies.checkLive("HierarchicalHash::remove", proxy);
    m_sizes.remove(m_proxies.box(proxy));
    detach(toIndex(proxy));
    m_proxies.remove(proxy);
}

void HierarchicalHash::collectPairs(std::vector<ProxyPair>& out) {
    out.clear();
    rebuildIfSizesDrifted();
    const auto& boxes = m_proxies.boxes();
    std::size_t tests = 0;
    m_occupiedLevels.clear();
    for (std::uint32_t l = 0; l < m_levels.size(); ++l) {
        const Level& lv = m_levels[l];
        if (lv.proxies == 0) continue;
        m_occupiedLevels.push_back(l);
        lv.table.forEachCell([&](std::uint64_t key, const CellBucket& bucket) {
            if (bucket.count >= 2)
                tests += m_search.cellPairs(m_pool, bucket, cellXOf(key), cellYOf(key), lv.mapping,
                                            boxes, out);
        });
    }
    // Across levels: the finer proxy of each pair looks up the coarser levels.
    if (m_occupiedLevels.size() > 1) {
        const auto& live = m_proxies.liveFlags();
        const std::uint32_t coarsest = m_occupiedLevels.back();
        for (std::uint32_t id = 0; id < m_proxies.capacity(); ++id) {
            if (live[id] == 0 || m_placement[id].level >= coarsest) continue;
            const std::uint32_t own = m_placement[id].level;
            const AABB& box = boxes[id];
            for (std::uint32_t l : m_occupiedLevels) {
                if (l <= own) continue;
                const Level& lv = m_levels[l];
                forEachCell(lv.mapping.rangeOf(box), [&](std::int32_t x, std::int32_t y) {
                    if (const CellBucket* bucket = lv.table.find(packCell(x, y)))
                        tests +=
                            boxAgainstCell(m_pool, *bucket, x, y, lv.mapping, boxes, id, box, out);
                });
            }
        }
    }
    // Big proxies (no level fits them): against everything.
    if (!m_big.empty()) {
        const auto& live = m_proxies.liveFlags();
        for (std::uint32_t big : m_big) {
            for (std::uint32_t id = 0; id < m_proxies.capacity(); ++id) {
                if (live[id] == 0 || id == big) continue;
                if (m_placement[id].level == kBig && id < big) continue; // the other one reports
                ++tests;
                if (overlaps(boxes[big], boxes[id])) out.push_back(orderedPair(big, id));
            }
        }
    }
    m_overlapTests = tests;
}

void HierarchicalHash::query(const AABB& region, FunctionRef<bool(ProxyId)> visit) const {
    requireValidBox("HierarchicalHash::query", "region", region);
    for (const Level& lv : m_levels) {
        if (lv.proxies != 0 && lv.mapping.rangeOf(region).cellCount() > cellBudget())
            return scanQuery(m_proxies, region, visit);
    }
    ScratchIds scratch;
    const auto& boxes = m_proxies.boxes();
    for (const Level& lv : m_levels) {
        if (lv.proxies == 0) continue;
        forEachCell(lv.mapping.rangeOf(region), [&](std::int32_t x, std::int32_t y) {
            const CellBucket* bucket = lv.table.find(packCell(x, y));
            if (bucket == nullptr) return;
            m_pool.forEach(*bucket, [&](std::uint32_t id) {
                if (overlaps(boxes[id], region) && lv.mapping.ownsPair(x, y, boxes[id], region))
                    scratch.ids.push_back(id);
            });
        });
    }
    for (std::uint32_t id : m_big) {
        if (overlaps(boxes[id], region)) scratch.ids.push_back(id);
    }
    visitInIdOrder(scratch.ids, visit);
}

void HierarchicalHash::rayCast(Vec2 origin, Vec2 translation, float maxFraction,
                               FunctionRef<float(ProxyId)> visit) const {
    checkRayArguments("HierarchicalHash::rayCast", origin, translation, maxFraction);
    for (const Level& lv : m_levels) {
        if (lv.proxies == 0) continue;
        const RaySpan ray = raySpan(origin, translation, maxFraction, lv.mapping.size());
        if (rayCellEstimate(lv.mapping, ray) > cellBudget())
            return scanRayCast(m_proxies, origin, translation, maxFraction, visit);
    }
    ScratchIds scratch;
    for (const Level& lv : m_levels) {
        if (lv.proxies == 0) continue;
        const RaySpan ray = raySpan(origin, translation, maxFraction, lv.mapping.size());
        forEachRayCell(lv.mapping, ray, [&](std::int32_t x, std::int32_t y) {
            if (const CellBucket* bucket = lv.table.find(packCell(x, y)))
                m_pool.forEach(*bucket, [&](std::uint32_t id) { scratch.ids.push_back(id); });
        });
    }
    scratch.ids.insert(scratch.ids.end(), m_big.begin(), m_big.end());
    visitRayInIdOrder(scratch.ids, m_proxies.boxes(), origin, translation, maxFraction, visit);
}

BroadPhaseStats HierarchicalHash::stats() const {
    BroadPhaseStats s;
    s.active = name();
    s.proxies = m_proxies.size();
    s.overflow = m_big.size();
    s.overlapTests = m_overlapTests;
    s.memoryBytes = m_proxies.memoryBytes() + m_pool.memoryBytes() +
                    m_placement.capacity() * sizeof(Placement) +
                    m_big.capacity() * sizeof(std::uint32_t) + m_levels.capacity() * sizeof(Level) +
                    pairScratchBytes();
    for (const Level& lv : m_levels) {
        s.cells += lv.table.size();
        s.memoryBytes += lv.table.memoryBytes();
        s.levels += lv.proxies != 0 ? 1 : 0;
    }
    s.cellSize = m_finest;
    return s;
}

AABB HierarchicalHash::box(ProxyId proxy) const {
    m_proxies.checkLive("HierarchicalHash::box", proxy);
    return m_proxies.box(proxy);
}

std::uint64_t HierarchicalHash::userData(ProxyId proxy) const {
    m_proxies.checkLive("HierarchicalHash::userData", proxy);
    return m_proxies.userData(proxy);
}

// Every live proxy is on the level its size asks for, listed in exactly the cells of its range
// there (or in the big list at its slot); tables, chunk pool and per-level counts agree.
void HierarchicalHash::validate() const {
    m_proxies.validate();
    R2D_CHECK(m_sizes.total() == m_proxies.size(), "size histogram out of step with proxies");
    R2D_CHECK(m_finest > 0.0f || m_proxies.size() == 0, "proxies stored without a cell size");
    const auto& boxes = m_proxies.boxes();
    const auto& live = m_proxies.liveFlags();
    std::vector<std::int64_t> expected(m_levels.size(), 0);
    std::vector<std::size_t> perLevel(m_levels.size(), 0);
    for (std::uint32_t id = 0; id < m_proxies.capacity(); ++id) {
        if (live[id] == 0) continue;
        const Placement& place = m_placement[id];
        R2D_CHECK(place.level == levelFor(boxes[id]), "proxy on the wrong level for its size");
        if (place.level == kBig) {
            R2D_CHECK(place.bigSlot < m_big.size() && m_big[place.bigSlot] == id,
                      "big-list slot is stale");
            continue;
        }
        R2D_CHECK(place.level < m_levels.size(), "proxy on a level that does not exist");
        const Level& lv = m_levels[place.level];
        R2D_CHECK(lv.mapping.size() == std::ldexp(m_finest, static_cast<int>(place.level)),
                  "level cell size is not finest * 2^level");
        R2D_CHECK(place.range == lv.mapping.rangeOf(boxes[id]), "proxy cell range is stale");
        expected[place.level] += place.range.cellCount();
        ++perLevel[place.level];
    }
    for (std::uint32_t id : m_big) R2D_CHECK(m_proxies.isLive(ProxyId{id}), "stale big proxy");
    std::size_t chunks = 0;
    std::vector<std::uint32_t> ids;
    for (std::uint32_t l = 0; l < m_levels.size(); ++l) {
        const Level& lv = m_levels[l];
        R2D_CHECK(lv.proxies == perLevel[l], "level proxy count is stale");
        chunks += lv.table.validate(m_pool);
        std::int64_t entries = 0;
        lv.table.forEachCell([&](std::uint64_t key, const CellBucket& bucket) {
            ids.clear();
            m_pool.forEach(bucket, [&](std::uint32_t id) { ids.push_back(id); });
            std::sort(ids.begin(), ids.end());
            R2D_CHECK(std::adjacent_find(ids.begin(), ids.end()) == ids.end(),
                      "cell lists a proxy twice");
            for (std::uint32_t id : ids) {
                R2D_CHECK(m_proxies.isLive(ProxyId{id}), "cell lists a removed proxy");
                R2D_CHECK(m_placement[id].level == l &&
                              m_placement[id].range.contains(cellXOf(key), cellYOf(key)),
                          "cell lists a proxy whose box does not cover it");
            }
            entries += bucket.count;
        });
        R2D_CHECK(entries == expected[l], "proxies missing from cells their box covers");
    }
    m_pool.validate(chunks);
}

void HierarchicalHash::debugDraw(DebugDraw& draw) const {
    const bool cull = draw.useCullRegion;
    for (std::uint32_t l = 0; l < m_levels.size(); ++l) {
        const Level& lv = m_levels[l];
        // Finer levels bluer, coarser greener.
        const float t = std::min(1.0f, static_cast<float>(l) / 8.0f);
        const Color color{0.2f, 0.4f + 0.5f * t, 0.9f - 0.6f * t, 0.6f};
        lv.table.forEachCell([&](std::uint64_t key, const CellBucket&) {
            const AABB cellBox = lv.mapping.cellBox(cellXOf(key), cellYOf(key));
            if (!cull || overlaps(cellBox, draw.cullRegion)) draw.drawAABB(cellBox, color);
        });
    }
    const Color bigFill{1.0f, 0.4f, 0.1f, 0.25f};
    const Color bigOutline{1.0f, 0.4f, 0.1f, 1.0f};
    for (std::uint32_t id : m_big) {
        const AABB& box = m_proxies.boxes()[id];
        if (!cull || overlaps(box, draw.cullRegion)) draw.drawBox(box, bigFill, bigOutline);
    }
}

} // namespace rigid2d::detail
