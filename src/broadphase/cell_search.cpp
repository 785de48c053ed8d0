#include "broadphase/cell_search.hpp"

#include <algorithm>
#include <cmath>

#include "core/check.hpp"

namespace rigid2d::detail {

namespace {
// Above this many proxies in one cell, sort the cell by lower x and sweep instead of testing
// every pair (clustered scenes).
constexpr std::size_t kSweepThreshold = 16;
} // namespace

// For each pair (p, q) of the cell: test overlap, then keep it only if this cell owns the
// intersection's lower-left corner (the same pair in other shared cells is dropped there).
// Crowded cells are sorted by lower x and swept, so a cluster costs about its overlaps.
std::size_t pairsInCell(CellEntry* entries, std::size_t count, std::int32_t x, std::int32_t y,
                        const CellMapping& mapping, std::vector<ProxyPair>& out) {
    std::size_t tests = 0;
    if (count <= kSweepThreshold) {
        for (std::size_t i = 0; i + 1 < count; ++i) {
            const CellEntry& p = entries[i];
            for (std::size_t j = i + 1; j < count; ++j) {
                const CellEntry& q = entries[j];
                ++tests;
                if (overlaps(p.box, q.box) && mapping.ownsPair(x, y, p.box, q.box))
                    out.push_back(orderedPair(p.id, q.id));
            }
        }
        return tests;
    }
    std::sort(entries, entries + count,
              [](const CellEntry& a, const CellEntry& b) { return a.box.lower.x < b.box.lower.x; });
    for (std::size_t i = 0; i + 1 < count; ++i) {
        const CellEntry& p = entries[i];
        for (std::size_t j = i + 1; j < count && entries[j].box.lower.x <= p.box.upper.x; ++j) {
            const CellEntry& q = entries[j];
            ++tests;
            if (q.box.lower.y <= p.box.upper.y && p.box.lower.y <= q.box.upper.y &&
                mapping.ownsPair(x, y, p.box, q.box))
                out.push_back(orderedPair(p.id, q.id));
        }
    }
    return tests;
}

std::size_t boxAgainstEntries(const CellEntry* entries, std::size_t count, std::int32_t x,
                              std::int32_t y, const CellMapping& mapping, std::uint32_t id,
                              const AABB& box, std::vector<ProxyPair>& out) {
    for (std::size_t i = 0; i < count; ++i) {
        if (overlaps(box, entries[i].box) && mapping.ownsPair(x, y, box, entries[i].box))
            out.push_back(orderedPair(id, entries[i].id));
    }
    return count;
}

std::size_t CellPairSearch::cellPairs(const IdChunkPool& pool, const CellBucket& bucket,
                                      std::int32_t x, std::int32_t y, const CellMapping& mapping,
                                      const std::vector<AABB>& boxes, std::vector<ProxyPair>& out) {
    if (bucket.count < 2) return 0;
    if (bucket.count == 2) {
        const AABB& boxA = boxes[bucket.ids[0]];
        const AABB& boxB = boxes[bucket.ids[1]];
        if (overlaps(boxA, boxB) && mapping.ownsPair(x, y, boxA, boxB))
            out.push_back(orderedPair(bucket.ids[0], bucket.ids[1]));
        return 1;
    }
    m_entries.clear();
    pool.forEach(bucket, [&](std::uint32_t id) { m_entries.push_back({boxes[id], id}); });
    return pairsInCell(m_entries.data(), m_entries.size(), x, y, mapping, out);
}

std::size_t boxAgainstCell(const IdChunkPool& pool, const CellBucket& bucket, std::int32_t x,
                           std::int32_t y, const CellMapping& mapping,
                           const std::vector<AABB>& boxes, std::uint32_t id, const AABB& box,
                           std::vector<ProxyPair>& out) {
    std::size_t tests = 0;
    pool.forEach(bucket, [&](std::uint32_t other) {
        if (other == id) return;
        ++tests;
        const AABB& otherBox = boxes[other];
        if (overlaps(box, otherBox) && mapping.ownsPair(x, y, box, otherBox))
            out.push_back(orderedPair(id, other));
    });
    return tests;
}

namespace {
std::vector<std::uint32_t>& threadScratch() {
    thread_local std::vector<std::uint32_t> scratch;
    return scratch;
}
} // namespace

ScratchIds::ScratchIds() {
    ids.swap(threadScratch());
    ids.clear();
}

ScratchIds::~ScratchIds() { threadScratch().swap(ids); }

void visitInIdOrder(std::vector<std::uint32_t>& candidates, FunctionRef<bool(ProxyId)> visit) {
    std::sort(candidates.begin(), candidates.end());
    const auto end = std::unique(candidates.begin(), candidates.end());
    for (auto it = candidates.begin(); it != end; ++it) {
        if (!visit(ProxyId{*it})) return;
    }
}

void visitRayInIdOrder(std::vector<std::uint32_t>& candidates, const std::vector<AABB>& boxes,
                       Vec2 origin, Vec2 translation, float maxFraction,
                       FunctionRef<float(ProxyId)> visit) {
    std::sort(candidates.begin(), candidates.end());
    const auto end = std::unique(candidates.begin(), candidates.end());
    for (auto it = candidates.begin(); it != end; ++it) {
        if (!segmentTouchesBox(origin, translation, maxFraction, boxes[*it])) continue;
        maxFraction = visit(ProxyId{*it});
        if (maxFraction <= 0.0f) return;
    }
}

void scanQuery(const ProxyTable& proxies, const AABB& region, FunctionRef<bool(ProxyId)> visit) {
    const auto& boxes = proxies.boxes();
    const auto& live = proxies.liveFlags();
    for (std::uint32_t i = 0; i < proxies.capacity(); ++i) {
        if (live[i] != 0 && overlaps(boxes[i], region) && !visit(ProxyId{i})) return;
    }
}

void scanRayCast(const ProxyTable& proxies, Vec2 origin, Vec2 translation, float maxFraction,
                 FunctionRef<float(ProxyId)> visit) {
    const auto& boxes = proxies.boxes();
    const auto& live = proxies.liveFlags();
    for (std::uint32_t i = 0; i < proxies.capacity(); ++i) {
        if (live[i] == 0 || !segmentTouchesBox(origin, translation, maxFraction, boxes[i]))
            continue;
        maxFraction = visit(ProxyId{i});
        if (maxFraction <= 0.0f) return;
    }
}

void checkRayArguments(std::string_view function, Vec2 origin, Vec2 translation,
                       float maxFraction) {
    requireFinite(function, "origin", origin);
    requireFinite(function, "translation", translation);
    require(isFinite(maxFraction) && maxFraction >= 0.0f, function, "maxFraction",
            "must be finite and >= 0", maxFraction);
}

RaySpan raySpan(Vec2 origin, Vec2 translation, float maxFraction, float cellSize) {
    const Vec2 end = origin + translation * maxFraction;
    // The exact test works in floats; its rounding is relative to the coordinates and the
    // translation, so widen by that much beyond one cell.
    const float scale =
        std::max({std::abs(origin.x), std::abs(origin.y), std::abs(end.x), std::abs(end.y),
                  std::abs(translation.x) * maxFraction, std::abs(translation.y) * maxFraction});
    const float pad = cellSize + scale * 1e-5f;
    const AABB bounds{{std::min(origin.x, end.x) - pad, std::min(origin.y, end.y) - pad},
                      {std::max(origin.x, end.x) + pad, std::max(origin.y, end.y) + pad}};
    return {origin, translation, maxFraction, bounds, pad};
}

std::int64_t rayCellEstimate(const CellMapping& mapping, const RaySpan& ray) {
    const CellRange all = mapping.rangeOf(ray.bounds);
    const std::int64_t w = all.width();
    const std::int64_t h = all.height();
    // Along the major axis about (2 pads + 1 cell + slope) minor cells per step.
    // Written so that an infinite or NaN ratio (a ray whose end overflows) also gives the cap.
    const float ratio = 2.0f * ray.pad / mapping.size();
    const float padRatio = ratio < 1e9f ? ratio : 1e9f;
    const std::int64_t padCells = static_cast<std::int64_t>(padRatio) + 2;
    return std::min(w * h, std::max(w, h) * (padCells + 1) + std::min(w, h));
}

} // namespace rigid2d::detail
