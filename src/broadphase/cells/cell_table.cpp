#include "broadphase/cells/cell_table.hpp"

#include "core/assert.hpp"

namespace rigid2d::detail {

namespace {
constexpr int kInitialBits = 4;
}

CellTable::CellTable() : m_slots(std::size_t{1} << kInitialBits) {
    m_mask = m_slots.size() - 1;
    m_shift = 64 - kInitialBits;
}

void CellTable::add(std::uint64_t key, std::uint32_t id, IdChunkPool& pool) {
    if (2 * (m_size + 1) > m_slots.size()) grow();
    std::size_t i = home(key);
    while (m_slots[i].bucket.count != 0 && m_slots[i].key != key) i = (i + 1) & m_mask;
    Slot& s = m_slots[i];
    if (s.bucket.count == 0) {
        s.key = key;
        s.bucket.chunk = kNoChunk;
        ++m_size;
    }
    pool.add(s.bucket, id);
}

bool CellTable::remove(std::uint64_t key, std::uint32_t id, IdChunkPool& pool) {
    std::size_t i = home(key);
    while (m_slots[i].bucket.count != 0) {
        if (m_slots[i].key == key) {
            if (!pool.remove(m_slots[i].bucket, id)) return false;
            if (m_slots[i].bucket.count == 0) erase(i);
            return true;
        }
        i = (i + 1) & m_mask;
    }
    return false;
}

const CellBucket* CellTable::find(std::uint64_t key) const noexcept {
    std::size_t i = home(key);
    while (m_slots[i].bucket.count != 0) {
        if (m_slots[i].key == key) return &m_slots[i].bucket;
        i = (i + 1) & m_mask;
    }
    return nullptr;
}

// Backward-shift deletion: walk the probe run after the hole and pull back every entry whose home
// is not inside (hole, j]; it would otherwise become unreachable.
void CellTable::erase(std::size_t hole) {
    --m_size;
    std::size_t j = hole;
    for (;;) {
        j = (j + 1) & m_mask;
        if (m_slots[j].bucket.count == 0) break;
        const std::size_t h = home(m_slots[j].key);
        const bool homeInRun = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j);
        if (homeInRun) continue;
        m_slots[hole] = m_slots[j];
        hole = j;
    }
    m_slots[hole].bucket.count = 0;
    m_slots[hole].bucket.chunk = kNoChunk;
}

void CellTable::grow() {
    std::vector<Slot> old(m_slots.size() * 2);
    old.swap(m_slots);
    m_mask = m_slots.size() - 1;
    --m_shift;
    for (const Slot& s : old) {
        if (s.bucket.count == 0) continue;
        std::size_t i = home(s.key);
        while (m_slots[i].bucket.count != 0) i = (i + 1) & m_mask;
        m_slots[i] = s;
    }
}

std::size_t CellTable::validate(const IdChunkPool& pool) const {
    std::size_t occupied = 0;
    std::size_t chunks = 0;
    for (std::size_t i = 0; i < m_slots.size(); ++i) {
        const Slot& s = m_slots[i];
        if (s.bucket.count == 0) {
            R2D_CHECK(s.bucket.chunk == kNoChunk, "empty hash slot holds a chunk");
            continue;
        }
        ++occupied;
        pool.validateBucket(s.bucket);
        chunks += IdChunkPool::chunksFor(s.bucket.count);
        for (std::size_t k = home(s.key); k != i; k = (k + 1) & m_mask) {
            R2D_CHECK(m_slots[k].bucket.count != 0, "hash cell unreachable from its home slot");
            R2D_CHECK(m_slots[k].key != s.key, "hash cell key stored twice");
        }
    }
    R2D_CHECK(occupied == m_size, "hash table size does not match its occupied slots");
    R2D_CHECK(2 * m_size <= m_slots.size(), "hash table load above 1/2");
    return chunks;
}

} // namespace rigid2d::detail
