#include "broadphase/cells/cell_lists.hpp"

#include "core/assert.hpp"

namespace rigid2d::detail {

std::uint32_t IdChunkPool::allocate() {
    ++m_inUse;
    if (m_free != kNoChunk) {
        const std::uint32_t c = m_free;
        m_free = m_chunks[c].next;
        return c;
    }
    m_chunks.push_back({});
    return static_cast<std::uint32_t>(m_chunks.size() - 1);
}

// Position p (0-based) of a bucket: inline below kInline; beyond, positions come in chunks of 7
// and the head chunk holds the last (highest) ones, so walk from the head backwards.
std::uint32_t& IdChunkPool::slot(CellBucket& bucket, std::uint32_t position) {
    if (position < CellBucket::kInline) return bucket.ids[position];
    const std::uint32_t chunkOfPosition = (position - CellBucket::kInline) / kChunkIds;
    std::uint32_t c = bucket.chunk;
    for (std::uint32_t k = chunksFor(bucket.count) - 1; k > chunkOfPosition; --k)
        c = m_chunks[c].next;
    return m_chunks[c].ids[(position - CellBucket::kInline) % kChunkIds];
}

void IdChunkPool::add(CellBucket& bucket, std::uint32_t id) {
    const std::uint32_t position = bucket.count;
    if (position < CellBucket::kInline) {
        bucket.ids[position] = id;
    } else {
        const std::uint32_t inChunk = (position - CellBucket::kInline) % kChunkIds;
        if (inChunk == 0) {
            const std::uint32_t c = allocate();
            m_chunks[c].next = bucket.chunk;
            bucket.chunk = c;
        }
        m_chunks[bucket.chunk].ids[inChunk] = id;
    }
    ++bucket.count;
}

bool IdChunkPool::remove(CellBucket& bucket, std::uint32_t id) {
    const std::uint32_t last = bucket.count - 1;
    std::uint32_t* found = nullptr;
    for (std::uint32_t i = 0; i < bucket.count && i < CellBucket::kInline; ++i) {
        if (bucket.ids[i] == id) found = &bucket.ids[i];
    }
    if (found == nullptr && bucket.count > CellBucket::kInline) {
        std::uint32_t inHead = (bucket.count - CellBucket::kInline - 1) % kChunkIds + 1;
        for (std::uint32_t c = bucket.chunk; c != kNoChunk && found == nullptr;
             c = m_chunks[c].next) {
            for (std::uint32_t i = 0; i < inHead; ++i) {
                if (m_chunks[c].ids[i] == id) found = &m_chunks[c].ids[i];
            }
            inHead = kChunkIds;
        }
    }
    if (found == nullptr) return false;
    *found = slot(bucket, last);
    if (last >= CellBucket::kInline && (last - CellBucket::kInline) % kChunkIds == 0) {
        const std::uint32_t c = bucket.chunk;
        bucket.chunk = m_chunks[c].next;
        m_chunks[c].next = m_free;
        m_free = c;
        --m_inUse;
    }
    bucket.count = last;
    return true;
}

void IdChunkPool::validateBucket(const CellBucket& bucket) const {
    std::uint32_t chain = 0;
    for (std::uint32_t c = bucket.chunk; c != kNoChunk; c = m_chunks[c].next) {
        R2D_CHECK(c < m_chunks.size(), "cell chunk index out of range");
        R2D_CHECK(++chain <= m_chunks.size(), "cell chunk chain has a cycle");
    }
    R2D_CHECK(chain == chunksFor(bucket.count), "cell chunk chain length does not match its count");
}

void IdChunkPool::validate(std::size_t used) const {
    R2D_CHECK(used == m_inUse, "chunks in use do not match the cells' counts");
    std::size_t freeCount = 0;
    for (std::uint32_t c = m_free; c != kNoChunk; c = m_chunks[c].next) {
        R2D_CHECK(c < m_chunks.size(), "free chunk index out of range");
        R2D_CHECK(++freeCount <= m_chunks.size(), "free chunk list has a cycle");
    }
    R2D_CHECK(freeCount + m_inUse == m_chunks.size(), "chunk pool leaks chunks");
}

} // namespace rigid2d::detail
