#include "broadphase/cells/cell_pairs.hpp"

#include <algorithm>

#include "broadphase/pair_sort.hpp"

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

} // namespace rigid2d::detail
