#pragma once
// The pair tests of one cell, shared by the grid (its contiguous entries) and the hash levels
// (a bucket's entries gathered first). A pair of boxes sharing several cells is reported only by
// the cell that holds the lower-left corner of their intersection (CellMapping::ownsPair), so
// every pair comes out once without a set.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "broadphase/cells/cell_coords.hpp"
#include "broadphase/cells/cell_sweep.hpp"
#include "rigid2d/broad_phase.hpp"

namespace rigid2d::detail {

/// A proxy's box and id side by side, so that a cell's pair search reads contiguous memory.
struct CellEntry {
    AABB box;
    std::uint32_t id;
};

/// Where an entry's cell lies in its proxy's range of cells: not in its first column, not in its
/// first row (0: the proxy's lower-left cell). A pair of entries whose flags share a bit is
/// owned by another cell (both boxes start left of this cell, or both below it).
inline constexpr std::uint8_t kLaterColumn = 1;
inline constexpr std::uint8_t kLaterRow = 2;

/// Calls emit(id, id) for each pair of `count` <= kRegisterCell entries whose boxes overlap and
/// whose flags[k] (kLaterColumn, kLaterRow) share no bit, by the first entry, then the second.
/// Both arrays hold kRegisterCell readable slots (the extra ones finite and ignored).
template <class Emit>
RIGID2D_ALWAYS_INLINE void forEachOwnedPairOfFew(const CellEntry* entries,
                                                 const std::uint8_t* flags, std::size_t count,
                                                 Emit&& emit) {
    const auto pairs = [&]<int kGroups>() {
        overlapMatrix<kGroups>(reinterpret_cast<const unsigned char*>(&entries[0].box),
                               sizeof(CellEntry), flags, count)
            .forEachPair([&](int i, int j) { emit(entries[i].id, entries[j].id); });
    };
    // Three sizes of kernel: most cells hold four boxes or fewer, for which the twelve-box one
    // would do several times the work.
    if (count <= 4)
        pairs.template operator()<1>();
    else if (count <= 8)
        pairs.template operator()<2>();
    else
        pairs.template operator()<3>();
}

/// Appends to `out` the pairs of the cell's entries whose boxes overlap and that cell (x, y)
/// owns. May reorder the entries; `entries` has room for kRegisterCell of them whatever the
/// count. Returns the box tests done.
std::size_t pairsInCell(CellEntry* entries, std::size_t count, std::int32_t x, std::int32_t y,
                        const CellMapping& mapping, std::vector<ProxyPair>& out);

/// Appends the pairs between proxy `id` (box `box`, not among the entries) and the entries of
/// cell (x, y), with the same ownership rule. Returns the box tests done.
std::size_t boxAgainstEntries(const CellEntry* entries, std::size_t count, std::int32_t x,
                              std::int32_t y, const CellMapping& mapping, std::uint32_t id,
                              const AABB& box, std::vector<ProxyPair>& out);

} // namespace rigid2d::detail
