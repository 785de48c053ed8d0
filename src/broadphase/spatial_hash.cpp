#include "broadphase/spatial_hash.hpp"

#include "broadphase/cell_broad_phase_impl.hpp"
#include "core/assert.hpp"

namespace rigid2d::detail {

void HashCellStore::remove(std::int32_t x, std::int32_t y, std::uint32_t id) {
    const bool removed = m_table.remove(packCell(x, y), id, m_pool);
    R2D_ASSERT(removed, "spatial hash proxy missing from one of its cells");
    (void)removed;
}

template class CellBroadPhase<HashCellStore>;

} // namespace rigid2d::detail
