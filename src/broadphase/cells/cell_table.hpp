#pragma once
// The sparse cell store of a hash level (hash_level.hpp): an open-addressing table (linear
// probing, load <= 1/2) from a packed 64-bit cell key to that cell's `CellBucket`. Only occupied
// cells exist: a cell is erased when its last id leaves, by backward-shift deletion, so the table
// never holds tombstones or empty cells.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "broadphase/cells/cell_lists.hpp"

namespace rigid2d::detail {

class CellTable {
public:
    CellTable();

    /// Adds `id` to cell `key`, creating the cell.
    void add(std::uint64_t key, std::uint32_t id, IdChunkPool& pool);
    /// Removes `id` from cell `key`, erasing the cell when it empties; false when absent.
    bool remove(std::uint64_t key, std::uint32_t id, IdChunkPool& pool);
    /// The cell's bucket, or nullptr when the cell is empty.
    [[nodiscard]] const CellBucket* find(std::uint64_t key) const noexcept;

    /// Calls f(key, bucket) for every occupied cell, in table order.
    template <class F>
    void forEachCell(F&& f) const {
        forEachCellOfSlice(0, 1, f);
    }
    /// forEachCell over slice `slice` of `slices` equal runs of the table's slots: the slices
    /// together visit every occupied cell once.
    template <class F>
    void forEachCellOfSlice(std::size_t slice, std::size_t slices, F&& f) const {
        const std::size_t end = m_slots.size() * (slice + 1) / slices;
        for (std::size_t i = m_slots.size() * slice / slices; i < end; ++i)
            if (m_slots[i].bucket.count != 0) f(m_slots[i].key, m_slots[i].bucket);
    }

    [[nodiscard]] std::size_t size() const noexcept { return m_size; }
    [[nodiscard]] std::size_t memoryBytes() const noexcept {
        return m_slots.capacity() * sizeof(Slot);
    }
    /// Every occupied slot reachable from its home slot without crossing an empty one, the count
    /// right, each bucket's chain consistent. Returns the chunks the buckets use.
    std::size_t validate(const IdChunkPool& pool) const;

private:
    struct Slot {
        std::uint64_t key = 0;
        CellBucket bucket; ///< count == 0 marks an empty slot
    };
    [[nodiscard]] std::size_t home(std::uint64_t key) const noexcept {
        return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> m_shift);
    }
    void grow();
    void erase(std::size_t index);

    std::vector<Slot> m_slots;
    std::size_t m_mask = 0;
    int m_shift = 64;
    std::size_t m_size = 0;
};

} // namespace rigid2d::detail
