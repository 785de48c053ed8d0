#include "broadphase/cells/hash_level.hpp"

#include <algorithm>

namespace rigid2d::detail {

// Two proxies (the common case in sparse scenes) are tested straight from the bucket; more are
// gathered with their boxes first, so that pairsInCell reads contiguous memory.
std::size_t HashLevel::collectPairs(const std::vector<AABB>& boxes, std::vector<CellEntry>& entries,
                                    std::vector<ProxyPair>& out, std::size_t slice,
                                    std::size_t slices) const {
    std::size_t tests = 0;
    m_table.forEachCellOfSlice(slice, slices, [&](std::uint64_t key, const CellBucket& bucket) {
        if (bucket.count < 2) return;
        const std::int32_t x = cellXOf(key);
        const std::int32_t y = cellYOf(key);
        if (bucket.count == 2) {
            const AABB& boxA = boxes[bucket.ids[0]];
            const AABB& boxB = boxes[bucket.ids[1]];
            if (overlaps(boxA, boxB) && m_mapping.ownsPair(x, y, boxA, boxB))
                out.push_back(orderedPair(bucket.ids[0], bucket.ids[1]));
            ++tests;
            return;
        }
        entries.clear();
        m_pool.forEach(bucket, [&](std::uint32_t id) { entries.push_back({boxes[id], id}); });
        const std::size_t count = entries.size();
        entries.resize(count + kRegisterCell); // pairsInCell's room
        tests += pairsInCell(entries.data(), count, x, y, m_mapping, out);
    });
    return tests;
}

std::size_t HashLevel::pairsInBucket(const CellBucket& bucket, std::int32_t x, std::int32_t y,
                                     std::uint32_t id, const AABB& box,
                                     const std::vector<AABB>& boxes,
                                     std::vector<ProxyPair>& out) const {
    std::size_t tests = 0;
    m_pool.forEach(bucket, [&](std::uint32_t other) {
        if (other == id) return;
        ++tests;
        const AABB& otherBox = boxes[other];
        if (overlaps(box, otherBox) && m_mapping.ownsPair(x, y, box, otherBox))
            out.push_back(orderedPair(id, other));
    });
    return tests;
}

void HashLevel::remove(std::int32_t x, std::int32_t y, std::uint32_t id) {
    const bool removed = m_table.remove(packCell(x, y), id, m_pool);
    R2D_ASSERT(removed, "hashed proxy missing from one of its cells");
    (void)removed;
}

void HashLevel::sortedIds(const CellBucket& bucket, std::vector<std::uint32_t>& ids) const {
    ids.clear();
    m_pool.forEach(bucket, [&](std::uint32_t id) { ids.push_back(id); });
    std::sort(ids.begin(), ids.end());
}

void HashLevel::draw(DebugDraw& draw, const AABB* region, Color color) const {
    const CellRange range = region != nullptr ? m_mapping.rangeOf(*region) : m_mapping.clampRange();
    forEachOccupiedIn(range, [&](std::int32_t x, std::int32_t y, const CellBucket&) {
        const AABB cellBox = m_mapping.cellBox(x, y);
        if (region == nullptr || overlaps(cellBox, *region)) draw.drawAABB(cellBox, color);
    });
}

} // namespace rigid2d::detail
