#include "state/pair_map.hpp"

#include "core/assert.hpp"

namespace rigid2d::detail {

std::uint32_t PairMap::find(std::uint64_t key) const noexcept {
    if (m_slots.empty()) return kMissing;
    for (std::uint64_t i = hash(key) & m_mask;; i = (i + 1) & m_mask) {
        const Slot& slot = m_slots[i];
        if (slot.key == key) return slot.value;
        if (slot.key == kEmptyKey) return kMissing;
    }
}

void PairMap::insert(std::uint64_t key, std::uint32_t value) {
    if ((m_count + 1) * 2 > m_slots.size()) grow();
    std::uint64_t i = hash(key) & m_mask;
    while (m_slots[i].key != kEmptyKey) {
        R2D_ASSERT(m_slots[i].key != key, "PairMap::insert: key already present");
        i = (i + 1) & m_mask;
    }
    m_slots[i] = {key, value};
    ++m_count;
}

void PairMap::erase(std::uint64_t key) {
    std::uint64_t i = hash(key) & m_mask;
    while (m_slots[i].key != key) {
        R2D_ASSERT(m_slots[i].key != kEmptyKey, "PairMap::erase: key not present");
        i = (i + 1) & m_mask;
    }
    // Backward shift: move later entries of the probe run into the hole when their home slot
    // does not lie cyclically in (hole, current].
    std::uint64_t hole = i;
    for (std::uint64_t j = (hole + 1) & m_mask; m_slots[j].key != kEmptyKey; j = (j + 1) & m_mask) {
        const std::uint64_t home = hash(m_slots[j].key) & m_mask;
        const bool homeInRange =
            hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
        if (!homeInRange) {
            m_slots[hole] = m_slots[j];
            hole = j;
        }
    }
    m_slots[hole] = Slot{};
    --m_count;
}

bool PairMap::insertIfAbsent(std::uint64_t key, std::uint32_t value) {
    if ((m_count + 1) * 2 > m_slots.size()) grow();
    std::uint64_t i = hash(key) & m_mask;
    for (; m_slots[i].key != kEmptyKey; i = (i + 1) & m_mask)
        if (m_slots[i].key == key) return false;
    m_slots[i] = {key, value};
    ++m_count;
    return true;
}

bool PairMap::insertAllIfAbsent(std::span<const std::uint64_t> keys,
                                std::span<const std::uint32_t> values) {
    R2D_ASSERT(keys.size() == values.size(), "PairMap::insertAllIfAbsent: one value per key");
    reserve(m_count + keys.size());
    constexpr std::size_t kAhead = 8;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        if (i + kAhead < keys.size()) prefetch(keys[i + kAhead]);
        if (!insertIfAbsent(keys[i], values[i])) return false;
    }
    return true;
}

void PairMap::reserve(std::size_t count) {
    std::size_t capacity = m_slots.empty() ? 64 : m_slots.size();
    while (count * 2 > capacity) capacity *= 2;
    // One rehash to the final size, not one per doubling on the way.
    if (capacity > m_slots.size()) rehash(capacity);
}

void PairMap::grow() { rehash(m_slots.empty() ? 64 : m_slots.size() * 2); }

void PairMap::rehash(std::size_t capacity) {
    std::vector<Slot> old = std::move(m_slots);
    m_slots.assign(capacity, Slot{});
    m_mask = capacity - 1;
    m_count = 0;
    for (const Slot& slot : old)
        if (slot.key != kEmptyKey) insert(slot.key, slot.value);
}

} // namespace rigid2d::detail
