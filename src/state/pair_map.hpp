#pragma once
// Open-addressing hash map from a shape pair key to its contact id. The world asks it whether a
// candidate pair already has a contact; it must be fast and must not allocate once grown.

#include <cstdint>
#include <span>
#include <vector>

namespace rigid2d::detail {

class PairMap {
public:
    static constexpr std::uint32_t kMissing = 0xFFFFFFFFu;

    [[nodiscard]] std::uint32_t find(std::uint64_t key) const noexcept;
    /// Fetches the slot where find(key) starts from memory: a caller with many keys asks for the
    /// slot of a key some keys ahead, so a large map does not wait on one cache miss per key.
    void prefetch(std::uint64_t key) const noexcept {
        // Pointer arithmetic, not operator[]: an empty map has no slot (null data, mask 0).
        __builtin_prefetch(m_slots.data() + (hash(key) & m_mask));
    }
    /// Inserts a key that is not present.
    void insert(std::uint64_t key, std::uint32_t value);
    /// Inserts the key unless it is present (one probe run for both: restore checks every
    /// contact's pair this way). Returns false, changing nothing, when it was present.
    [[nodiscard]] bool insertIfAbsent(std::uint64_t key, std::uint32_t value);
    /// insertIfAbsent for each keys[i] -> values[i] in order, until a key is present (returns
    /// false; the keys before it stay inserted). Each key's slot is fetched from memory some keys
    /// ahead, so a large map does not wait on one cache miss per key.
    [[nodiscard]] bool insertAllIfAbsent(std::span<const std::uint64_t> keys,
                                         std::span<const std::uint32_t> values);
    /// Makes room for `count` keys at once (no rehash while they are inserted).
    void reserve(std::size_t count);
    /// Removes a present key (backward-shift deletion keeps probes short without tombstones).
    void erase(std::uint64_t key);
    [[nodiscard]] std::size_t size() const noexcept { return m_count; }

private:
    struct Slot {
        std::uint64_t key = kEmptyKey;
        std::uint32_t value = 0;
    };
    static constexpr std::uint64_t kEmptyKey = ~std::uint64_t{0};

    [[nodiscard]] static std::uint64_t hash(std::uint64_t key) noexcept {
        key ^= key >> 33;
        key *= 0xff51afd7ed558ccdULL;
        key ^= key >> 33;
        return key;
    }
    void grow();
    void rehash(std::size_t capacity);

    std::vector<Slot> m_slots;
    std::size_t m_count = 0;
    std::uint64_t m_mask = 0;
};

} // namespace rigid2d::detail
