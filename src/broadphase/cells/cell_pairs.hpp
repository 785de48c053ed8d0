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

/// Appends to `out` the pairs of the cell's entries whose boxes overlap and that cell (x, y)
/// owns. May reorder the entries. Returns the box tests done.
std::size_t pairsInCell(CellEntry* entries, std::size_t count, std::int32_t x, std::int32_t y,
                        const CellMapping& mapping, std::vector<ProxyPair>& out);

/// Appends the pairs between proxy `id` (box `box`, not among the entries) and the entries of
/// cell (x, y), with the same ownership rule. Returns the box tests done.
std::size_t boxAgainstEntries(const CellEntry* entries, std::size_t count, std::int32_t x,
                              std::int32_t y, const CellMapping& mapping, std::uint32_t id,
                              const AABB& box, std::vector<ProxyPair>& out);

} // namespace rigid2d::detail
