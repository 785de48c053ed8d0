#pragma once
// Software prefetch of records that a loop will reach a few iterations later. The step's passes
// walk one array in order but read, for each item, records of other arrays that lie anywhere
// (a contact's shapes and bodies, an awake body's record); without a fetch ahead, each item
// waits on memory in turn.
//
// These are inlined by force: GCC judges a function made of prefetches alone free of effects and
// drops its calls before it would inline them (the first version of the contact stage's fetch
// compiled to nothing).

#include <cstddef>

namespace rigid2d::detail {

inline constexpr std::size_t kCacheLine = 64;

/// Fetches the lines of [bytes, bytes + size), for reading (kWrite false) or for writing.
template <bool kWrite = false>
[[gnu::always_inline]] inline void prefetchBytes(const void* bytes, std::size_t size) noexcept {
    const auto* p = static_cast<const char*>(bytes);
    for (std::size_t offset = 0; offset < size; offset += kCacheLine)
        __builtin_prefetch(p + offset, kWrite ? 1 : 0);
    // A record that does not start on a line spans one more.
    __builtin_prefetch(p + size - 1, kWrite ? 1 : 0);
}

/// Fetches every line of `record`.
template <bool kWrite = false, class T>
[[gnu::always_inline]] inline void prefetchRecord(const T& record) noexcept {
    prefetchBytes<kWrite>(&record, sizeof(T));
}

} // namespace rigid2d::detail
