#pragma once
// The proxy lists of hash cells, without a heap allocation per cell.
//
// A cell is a small `CellBucket`: a count, the first ids inline and a chain of 7-id chunks from
// its level's pool for the rest. The newest chunk is at the head of the chain and is the only one
// that may be partly filled, so an append is O(1); a removal finds the id (cells are short) and
// moves the last id into its place. Empty chunks go back to the pool's free list.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rigid2d::detail {

inline constexpr std::uint32_t kNoChunk = 0xFFFFFFFFu;

struct CellBucket {
    static constexpr std::uint32_t kInline = 2;
    std::uint32_t count = 0;
    std::uint32_t chunk = kNoChunk; ///< head of the chain (the newest, maybe partial, chunk)
    std::uint32_t ids[kInline] = {};
};

class IdChunkPool {
public:
    static constexpr std::uint32_t kChunkIds = 7;

    void add(CellBucket& bucket, std::uint32_t id);
    /// Removes `id` from the bucket; false when it is not there.
    bool remove(CellBucket& bucket, std::uint32_t id);

    /// Calls f(id) for each id of the bucket; the order is unspecified.
    template <class F>
    void forEach(const CellBucket& bucket, F&& f) const {
        const std::uint32_t inlineCount =
            bucket.count < CellBucket::kInline ? bucket.count : CellBucket::kInline;
        for (std::uint32_t i = 0; i < inlineCount; ++i) f(bucket.ids[i]);
        if (bucket.count <= CellBucket::kInline) return;
        std::uint32_t inHead = (bucket.count - CellBucket::kInline - 1) % kChunkIds + 1;
        for (std::uint32_t c = bucket.chunk; c != kNoChunk; c = m_chunks[c].next) {
            for (std::uint32_t i = 0; i < inHead; ++i) f(m_chunks[c].ids[i]);
            inHead = kChunkIds;
        }
    }

    [[nodiscard]] std::size_t memoryBytes() const noexcept {
        return m_chunks.capacity() * sizeof(Chunk);
    }
    /// Number of chunks the bucket's count implies (for validate()).
    [[nodiscard]] static std::uint32_t chunksFor(std::uint32_t count) noexcept {
        return count <= CellBucket::kInline
                   ? 0
                   : (count - CellBucket::kInline + kChunkIds - 1) / kChunkIds;
    }
    /// Checks that the bucket's chain has the length its count implies.
    void validateBucket(const CellBucket& bucket) const;
    /// Checks that the free list and `used` (the chunks counted over all buckets) cover the pool.
    void validate(std::size_t used) const;

private:
    struct Chunk {
        std::uint32_t ids[kChunkIds];
        std::uint32_t next;
    };
    std::uint32_t allocate();
    std::uint32_t& slot(CellBucket& bucket, std::uint32_t position);

    std::vector<Chunk> m_chunks;
    std::uint32_t m_free = kNoChunk;
    std::size_t m_inUse = 0;
};

} // namespace rigid2d::detail
