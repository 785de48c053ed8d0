#pragma once
// Vectors of plain values that come out of a fresh allocation as zeros without being written:
// the block is calloc's, which the system hands out as zero pages, each faulted in on its first
// touch. An array indexed by cell over a whole region (a grid over the default world bounds has
// four million cells) is then paid for only where something is filed: zeroing it all up front
// wrote 50 MB and faulted in every page of it for a scene that covers a fortieth of the region.

#include <cstddef>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace rigid2d::detail {

/// calloc's blocks; an element made with no arguments is left as the block's zeros.
template <class T>
struct ZeroingAllocator {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
    using value_type = T;

    ZeroingAllocator() noexcept = default;
    template <class U>
    explicit ZeroingAllocator(const ZeroingAllocator<U>&) noexcept {}

    [[nodiscard]] T* allocate(std::size_t count) {
        void* block = std::calloc(count, sizeof(T));
        if (block == nullptr) throw std::bad_alloc();
        return static_cast<T*>(block);
    }
    void deallocate(T* block, std::size_t) noexcept { std::free(block); }

    template <class U>
    void construct(U*) noexcept {} // calloc's zeros are the value
    template <class U, class... Args>
    void construct(U* at, Args&&... args) {
        ::new (static_cast<void*>(at)) U(std::forward<Args>(args)...);
    }

    friend bool operator==(const ZeroingAllocator&, const ZeroingAllocator&) noexcept {
        return true;
    }
};

/// Zeros only through assignZeros: a resize within the capacity leaves what the slots held.
template <class T>
using ZeroedVector = std::vector<T, ZeroingAllocator<T>>;

/// `values` as `count` zeros in a block of its own: the old one is freed first, not cleared.
template <class T>
void assignZeros(ZeroedVector<T>& values, std::size_t count) {
    ZeroedVector<T>().swap(values);
    values.resize(count);
}

} // namespace rigid2d::detail
