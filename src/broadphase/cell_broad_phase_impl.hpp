#pragma once
// Member definitions of CellBroadPhase, included by the .cpp of each cell store, which
// instantiates it explicitly (uniform_grid.cpp, spatial_hash.cpp).

#include <algorithm>
#include <bit>

#include "broadphase/cell_broad_phase.hpp"
#include "broadphase/pair_sort.hpp"
#include "core/assert.hpp"
#include "core/check.hpp"

namespace rigid2d::detail {

template <class Store>
CellBroadPhase<Store>::CellBroadPhase(const BroadPhaseConfig& config)
    : m_store(config), m_fixedCellSize(config.cellSize > 0.0f) {
    if (m_fixedCellSize) rebuild(config.cellSize);
}

template <class Store>
void CellBroadPhase<Store>::rebuild(float cellSize) {
    m_store.configure(cellSize);
    m_outliers.clear();
    const auto& live = m_proxies.liveFlags();
    for (std::uint32_t id = 0; id < m_proxies.capacity(); ++id) {
        if (live[id] != 0) attach(id, m_proxies.boxes()[id]);
    }
}

template <class Store>
void CellBroadPhase<Store>::rebuildIfSizesDrifted() {
    if (m_fixedCellSize || !m_sizes.drifted(m_sizeReference)) return;
    m_sizeReference = m_sizes.medianHalfExtent();
    rebuild(autoCellSize(m_sizeReference, kAutoCellFactor));
}

template <class Store>
void CellBroadPhase<Store>::attach(std::uint32_t id, const AABB& box) {
    Placement& place = m_placement[id];
    const CellRange range = m_store.mapping().rangeOf(box);
    if (m_store.admits(box, range)) {
        place.range = range;
        place.outlierSlot = kInCells;
        forEachCell(range, [&](std::int32_t x, std::int32_t y) { m_store.add(x, y, id); });
    } else {
        place.outlierSlot = static_cast<std::uint32_t>(m_outliers.size());
        m_outliers.push_back(id);
    }
}

template <class Store>
void CellBroadPhase<Store>::detach(std::uint32_t id) {
    const Placement& place = m_placement[id];
    if (place.outlierSlot == kInCells) {
        forEachCell(place.range, [&](std::int32_t x, std::int32_t y) { m_store.remove(x, y, id); });
        return;
    }
    const std::uint32_t moved = m_outliers.back();
    m_outliers[place.outlierSlot] = moved;
    m_placement[moved].outlierSlot = place.outlierSlot;
    m_outliers.pop_back();
}

template <class Store>
ProxyId CellBroadPhase<Store>::insert(const AABB& box, std::uint64_t userData) {
    const ProxyId proxy = m_proxies.insert(Store::kNames.insert, box, userData);
    const std::uint32_t id = toIndex(proxy);
    if (id >= m_placement.size()) m_placement.resize(id + 1);
    m_sizes.add(box);
    if (!m_store.ready()) {
        m_sizeReference = m_sizes.medianHalfExtent();
        rebuild(autoCellSize(m_sizeReference, kAutoCellFactor)); // files the new proxy too
        return proxy;
    }
    attach(id, box);
    // Check for drift at power-of-two sizes only: amortised O(1) per insert.
    if (std::has_single_bit(m_proxies.size())) rebuildIfSizesDrifted();
    return proxy;
}

template <class Store>
void CellBroadPhase<Store>::move(ProxyId proxy, const AABB& box) {
    m_proxies.checkMove(Store::kNames.move, proxy, box);
    const std::uint32_t id = toIndex(proxy);
    m_sizes.change(m_proxies.box(proxy), box);
    m_proxies.setBox(proxy, box);
    Placement& place = m_placement[id];
    const CellRange range = m_store.mapping().rangeOf(box);
    const bool admitted = m_store.admits(box, range);
    if (place.outlierSlot == kInCells && admitted) {
        if (range == place.range) return;
        forEachCellChange(
            place.range, range, [&](std::int32_t x, std::int32_t y) { m_store.remove(x, y, id); },
            [&](std::int32_t x, std::int32_t y) { m_store.add(x, y, id); });
        place.range = range;
    } else if (place.outlierSlot == kInCells || admitted) {
        detach(id);
        attach(id, box);
    }
}

template <class Store>
void CellBroadPhase<Store>::remove(ProxyId proxy) {
    m_proxies.checkLive(Store::kNames.remove, proxy);
    m_sizes.remove(m_proxies.box(proxy));
    detach(toIndex(proxy));
    m_proxies.remove(proxy);
}

template <class Store>
template <class F>
void CellBroadPhase<Store>::forEachOccupiedIn(const CellRange& range, F&& f) const {
    if (range.cellCount() <= static_cast<std::int64_t>(m_store.occupied())) {
        forEachCell(range, [&](std::int32_t x, std::int32_t y) {
            if (const CellBucket* bucket = m_store.find(x, y)) f(x, y, *bucket);
        });
    } else {
        m_store.forEachOccupied([&](std::int32_t x, std::int32_t y, const CellBucket& bucket) {
            if (range.contains(x, y)) f(x, y, bucket);
        });
    }
}

template <class Store>
void CellBroadPhase<Store>::collectPairs(std::vector<ProxyPair>& out) {
    out.clear();
    rebuildIfSizesDrifted();
    const auto& boxes = m_proxies.boxes();
    const CellMapping& mapping = m_store.mapping();
    std::size_t tests = 0;
    m_store.forEachOccupied([&](std::int32_t x, std::int32_t y, const CellBucket& bucket) {
        if (bucket.count >= 2)
            tests += m_search.cellPairs(m_store.pool(), bucket, x, y, mapping, boxes, out);
    });
    for (std::size_t i = 0; i < m_outliers.size(); ++i) {
        const std::uint32_t id = m_outliers[i];
        const AABB& box = boxes[id];
        if (m_store.ready()) {
            forEachOccupiedIn(mapping.rangeOf(box), [&](std::int32_t x, std::int32_t y,
                                                        const CellBucket& bucket) {
                tests += boxAgainstCell(m_store.pool(), bucket, x, y, mapping, boxes, id, box, out);
            });
        }
        for (std::size_t j = i + 1; j < m_outliers.size(); ++j) {
            ++tests;
            if (overlaps(box, boxes[m_outliers[j]])) out.push_back(orderedPair(id, m_outliers[j]));
        }
    }
    m_overlapTests = tests;
}

template <class Store>
void CellBroadPhase<Store>::query(const AABB& region, FunctionRef<bool(ProxyId)> visit) const {
    requireValidBox(Store::kNames.query, "region", region);
    ScratchIds scratch;
    if (m_store.ready()) {
        const CellMapping& mapping = m_store.mapping();
        const CellRange range = mapping.rangeOf(region);
        if (range.cellCount() > cellBudget()) return scanQuery(m_proxies, region, visit);
        const auto& boxes = m_proxies.boxes();
        forEachOccupiedIn(range, [&](std::int32_t x, std::int32_t y, const CellBucket& bucket) {
            m_store.pool().forEach(bucket, [&](std::uint32_t id) {
                const AABB& box = boxes[id];
                if (overlaps(box, region) && mapping.ownsPair(x, y, box, region))
                    scratch.ids.push_back(id);
            });
        });
    }
    for (std::uint32_t id : m_outliers) {
        if (overlaps(m_proxies.boxes()[id], region)) scratch.ids.push_back(id);
    }
    visitInIdOrder(scratch.ids, visit);
}

template <class Store>
void CellBroadPhase<Store>::rayCast(Vec2 origin, Vec2 translation, float maxFraction,
                                    FunctionRef<float(ProxyId)> visit) const {
    checkRayArguments(Store::kNames.rayCast, origin, translation, maxFraction);
    ScratchIds scratch;
    if (m_store.ready()) {
        const RaySpan ray = raySpan(origin, translation, maxFraction, m_store.mapping().size());
        if (rayCellEstimate(m_store.mapping(), ray) > cellBudget())
            return scanRayCast(m_proxies, origin, translation, maxFraction, visit);
        forEachRayCell(m_store.mapping(), ray, [&](std::int32_t x, std::int32_t y) {
            if (const CellBucket* bucket = m_store.find(x, y))
                m_store.pool().forEach(*bucket,
                                       [&](std::uint32_t id) { scratch.ids.push_back(id); });
        });
    }
    scratch.ids.insert(scratch.ids.end(), m_outliers.begin(), m_outliers.end());
    visitRayInIdOrder(scratch.ids, m_proxies.boxes(), origin, translation, maxFraction, visit);
}

template <class Store>
BroadPhaseStats CellBroadPhase<Store>::stats() const {
    BroadPhaseStats s;
    s.active = name();
    s.proxies = m_proxies.size();
    s.cells = m_store.occupied();
    s.overflow = m_outliers.size();
    s.overlapTests = m_overlapTests;
    s.memoryBytes = m_proxies.memoryBytes() + m_store.memoryBytes() +
                    m_placement.capacity() * sizeof(Placement) +
                    m_outliers.capacity() * sizeof(std::uint32_t) + pairScratchBytes();
    s.cellSize = m_store.ready() ? m_store.mapping().size() : 0.0f;
    s.levels = 1;
    return s;
}

template <class Store>
AABB CellBroadPhase<Store>::box(ProxyId proxy) const {
    m_proxies.checkLive(Store::kNames.box, proxy);
    return m_proxies.box(proxy);
}

template <class Store>
std::uint64_t CellBroadPhase<Store>::userData(ProxyId proxy) const {
    m_proxies.checkLive(Store::kNames.userData, proxy);
    return m_proxies.userData(proxy);
}

// Every live proxy is either listed in exactly the cells of its box's range (and nowhere else)
// or in the outlier list at its recorded slot; the store's own structure is consistent.
template <class Store>
void CellBroadPhase<Store>::validate() const {
    m_proxies.validate();
    m_store.validate();
    R2D_CHECK(m_sizes.total() == m_proxies.size(), "size histogram out of step with proxies");
    R2D_CHECK(m_store.ready() || m_proxies.size() == 0, "proxies stored without a cell size");
    const auto& boxes = m_proxies.boxes();
    const auto& live = m_proxies.liveFlags();
    std::int64_t expectedEntries = 0;
    for (std::uint32_t id = 0; id < m_proxies.capacity(); ++id) {
        if (live[id] == 0) continue;
        const Placement& place = m_placement[id];
        const CellRange range = m_store.mapping().rangeOf(boxes[id]);
        const bool admitted = m_store.admits(boxes[id], range);
        if (place.outlierSlot == kInCells) {
            R2D_CHECK(admitted, "proxy in cells that the store does not admit");
            R2D_CHECK(place.range == range, "proxy cell range is stale");
            expectedEntries += range.cellCount();
        } else {
            R2D_CHECK(!admitted, "outlier proxy that belongs in cells");
            R2D_CHECK(place.outlierSlot < m_outliers.size() && m_outliers[place.outlierSlot] == id,
                      "outlier slot is stale");
        }
    }
    for (std::uint32_t id : m_outliers) R2D_CHECK(m_proxies.isLive(ProxyId{id}), "stale outlier");
    std::int64_t entries = 0;
    std::vector<std::uint32_t> ids;
    m_store.forEachOccupied([&](std::int32_t x, std::int32_t y, const CellBucket& bucket) {
        ids.clear();
        m_store.pool().forEach(bucket, [&](std::uint32_t id) { ids.push_back(id); });
        std::sort(ids.begin(), ids.end());
        R2D_CHECK(std::adjacent_find(ids.begin(), ids.end()) == ids.end(),
                  "cell lists a proxy twice");
        for (std::uint32_t id : ids) {
            R2D_CHECK(m_proxies.isLive(ProxyId{id}), "cell lists a removed proxy");
            R2D_CHECK(m_placement[id].outlierSlot == kInCells &&
                          m_placement[id].range.contains(x, y),
                      "cell lists a proxy whose box does not cover it");
        }
        entries += bucket.count;
    });
    R2D_CHECK(entries == expectedEntries, "proxies missing from cells their box covers");
}

template <class Store>
void CellBroadPhase<Store>::debugDraw(DebugDraw& draw) const {
    const Color cellColor{0.3f, 0.6f, 0.9f, 0.6f};
    const Color outlierFill{1.0f, 0.4f, 0.1f, 0.25f};
    const Color outlierOutline{1.0f, 0.4f, 0.1f, 1.0f};
    const bool cull = draw.useCullRegion;
    m_store.drawFrame(draw);
    if (m_store.ready()) {
        const CellMapping& mapping = m_store.mapping();
        const CellRange range = cull ? mapping.rangeOf(draw.cullRegion) : mapping.clampRange();
        forEachOccupiedIn(range, [&](std::int32_t x, std::int32_t y, const CellBucket&) {
            const AABB cellBox = mapping.cellBox(x, y);
            if (!cull || overlaps(cellBox, draw.cullRegion)) draw.drawAABB(cellBox, cellColor);
        });
    }
    for (std::uint32_t id : m_outliers) {
        const AABB& box = m_proxies.boxes()[id];
        if (!cull || overlaps(box, draw.cullRegion)) draw.drawBox(box, outlierFill, outlierOutline);
    }
}

} // namespace rigid2d::detail
