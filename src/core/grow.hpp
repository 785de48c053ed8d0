#pragma once
// Growing the buffers that passes refill every step. Their counts creep up and down from step to
// step (entries, pairs, ids): sized exactly, each new high reallocates, copies and touches fresh
// pages, and a page fault costs some 10 microseconds on the machines we measure (a whole frame
// of churn at 10k is 250). So a buffer that must grow takes a quarter more room than asked.

#include <cstddef>
#include <vector>

namespace rigid2d::detail {

/// Makes room for `count` elements, with a quarter more when it must reallocate.
template <class T>
void reserveWithRoom(std::vector<T>& buffer, std::size_t count) {
    if (count > buffer.capacity()) buffer.reserve(count + count / 4);
}

/// Resizes to `count` elements, reserving as reserveWithRoom does.
template <class T>
void resizeWithRoom(std::vector<T>& buffer, std::size_t count) {
    reserveWithRoom(buffer, count);
    buffer.resize(count);
}

} // namespace rigid2d::detail
