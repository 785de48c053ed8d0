#include "broadphase/cells/cell_pairs.hpp"

#include <algorithm>

#include "broadphase/cells/cell_sweep.hpp"
#include "broadphase/pair_sort.hpp"

namespace rigid2d::detail {

// Every overlapping pair (p, q) of the cell is kept only if this cell owns the intersection's
// lower-left corner (the same pair in other shared cells is dropped there), decided by flags
// worked out once an entry rather than two cell lookups a pair. Crowded cells are sorted by
// lower x and swept, so a cluster costs about its overlaps.
std::size_t pairsInCell(CellEntry* entries, std::size_t count, std::int32_t x, std::int32_t y,
                        const CellMapping& mapping, std::vector<ProxyPair>& out) {
    if (count > kSweepThreshold)
        std::sort(entries, entries + count, [](const CellEntry& a, const CellEntry& b) {
            return a.box.lower.x < b.box.lower.x;
        });
    // ownsPair as flags: the intersection's lower-left corner is in this cell unless both boxes
    // start in an earlier column, or both in an earlier row (the mapping is monotonic, and every
    // entry's range of cells holds this one). Per thread: the hash kinds search their slices of
    // the table on several workers.
    thread_local std::vector<std::uint8_t> flags;
    flags.resize(std::max(count, kRegisterCell));
    for (std::size_t k = 0; k < count; ++k) {
        const AABB& box = entries[k].box;
        flags[k] = static_cast<std::uint8_t>((mapping.column(box.lower.x) != x ? kLaterColumn : 0) |
                                             (mapping.row(box.lower.y) != y ? kLaterRow : 0));
    }
    const auto keep = [&](std::uint32_t a, std::uint32_t b) { out.push_back(orderedPair(a, b)); };
    if (count <= kRegisterCell) {
        forEachOwnedPairOfFew(entries, flags.data(), count, keep);
        return count < 2 ? 0 : count * (count - 1) / 2;
    }
    const auto keepOwned = [&](std::size_t i, std::size_t j) {
        if ((flags[i] & flags[j]) == 0) keep(entries[i].id, entries[j].id);
    };
    const auto boxOf = [&](std::size_t k) -> const AABB& { return entries[k].box; };
    if (count <= kSweepThreshold) {
        SmallCellColumns columns;
        columns.fill(count, boxOf);
        forEachOverlap(columns.view(), count, keepOwned);
        return count * (count - 1) / 2;
    }
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
