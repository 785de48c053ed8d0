#include "broadphase/cells/cell_pairs.hpp"

#include <algorithm>

#include "broadphase/cells/cell_sweep.hpp"
#include "broadphase/pair_sort.hpp"

namespace rigid2d::detail {

// Every overlapping pair (p, q) of the cell is kept only if this cell owns the intersection's
// lower-left corner (the same pair in other shared cells is dropped there). Crowded cells are
// sorted by lower x and swept, so a cluster costs about its overlaps.
std::size_t pairsInCell(CellEntry* entries, std::size_t count, std::int32_t x, std::int32_t y,
                        const CellMapping& mapping, std::vector<ProxyPair>& out) {
    const auto keepOwned = [&](std::size_t i, std::size_t j) {
        if (mapping.ownsPair(x, y, entries[i].box, entries[j].box))
            out.push_back(orderedPair(entries[i].id, entries[j].id));
    };
    const auto boxOf = [&](std::size_t k) -> const AABB& { return entries[k].box; };
    if (count <= kSweepThreshold) {
        SmallCellColumns columns;
        columns.fill(count, boxOf);
        forEachOverlap(columns.view(), count, keepOwned);
        return count < 2 ? 0 : count * (count - 1) / 2;
    }
    std::sort(entries, entries + count,
              [](const CellEntry& a, const CellEntry& b) { return a.box.lower.x < b.box.lower.x; });
    // Per thread: the hash kinds search their slices of the table on several workers.
    thread_local CellColumns columns;
    columns.fill(count, boxOf);
    return forEachOverlapSorted(columns.view(), count, keepOwned);
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
