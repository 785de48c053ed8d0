#pragma once
// The one slot allocation of bodies, shapes, chains, contacts and joints. Objects live in a
// vector of slots; a new object takes the most recently freed slot, else a new one at the end
// (the lowest never used). A slot's generation only grows: a freed slot carries the generation
// its next object will have, 0 is never issued (a new slot's first object gets 1), and a slot
// whose generation would wrap to 0 is retired for good, so an id never names two objects.
// Snapshots write the free list as it is, in its order, and restore it the same way.

#include <cstdint>
#include <vector>

namespace rigid2d::detail {

class SlotPool {
public:
    /// The slot take() would give when there are `slotCount` slots, without taking it: for a
    /// caller that must check everything before it changes anything.
    [[nodiscard]] std::uint32_t peek(std::size_t slotCount) const noexcept {
        return m_free.empty() ? static_cast<std::uint32_t>(slotCount) : m_free.back();
    }
    /// Takes slot `index` from peek(): off the free list, or (a new slot) appended to `slots`
    /// unless the caller already did.
    template <class T>
    void claim(std::uint32_t index, std::vector<T>& slots) {
        if (!m_free.empty() && m_free.back() == index)
            m_free.pop_back();
        else if (index == slots.size())
            slots.emplace_back();
    }
    /// peek() then claim(): the slot for a new object, holding what release() left in it.
    template <class T>
    [[nodiscard]] std::uint32_t take(std::vector<T>& slots) {
        const std::uint32_t index = peek(slots.size());
        claim(index, slots);
        return index;
    }
    /// The generation of a new object in a slot whose stored generation is `slotGeneration`
    /// (release() stored the next one; a new slot holds 0 and its first object gets 1).
    [[nodiscard]] static std::uint32_t generationFor(std::uint32_t slotGeneration) noexcept {
        return slotGeneration != 0 ? slotGeneration : 1u;
    }
    /// Empties slot `index` of `slots` (to T{} holding the next generation) and frees it, unless
    /// that generation wrapped to 0: then the slot is retired.
    template <class T>
    void release(std::vector<T>& slots, std::uint32_t index) {
        const std::uint32_t next = slots[index].generation + 1u;
        slots[index] = T{};
        slots[index].generation = next;
        if (next != 0) m_free.push_back(index);
    }
    /// Frees slot `index` of a kind without generations (contacts: their ids never leave the
    /// world), leaving its contents to the caller.
    void free(std::uint32_t index) { m_free.push_back(index); }

    /// The free slots, the most recently freed last: what snapshots write and restore.
    [[nodiscard]] std::vector<std::uint32_t>& freeList() noexcept { return m_free; }
    [[nodiscard]] const std::vector<std::uint32_t>& freeList() const noexcept { return m_free; }

private:
    std::vector<std::uint32_t> m_free;
};

} // namespace rigid2d::detail
