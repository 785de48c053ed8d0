#include "broadphase/pair_sort.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

#include "core/grow.hpp"

namespace rigid2d::detail {

namespace {

// Below this, std::sort beats the histogram set-up of the radix sort.
constexpr std::size_t kRadixMinimum = 256;
constexpr int kDigitBits = 11;
constexpr std::uint32_t kDigitCount = 1u << kDigitBits;
// Pair keys use digits of up to this many bits, as evenly split as possible: 34-bit keys (ids
// below 2^17) then take three passes rather than four.
constexpr int kPairDigitBits = 12;

// Turns counts into where each bucket starts: the exclusive prefix sum, in place.
void countsToStarts(std::uint32_t* counts, std::size_t size) {
    std::uint32_t offset = 0;
    for (std::size_t c = 0; c < size; ++c) {
        const std::uint32_t k = counts[c];
        counts[c] = offset;
        offset += k;
    }
}

// A pair's sort key, (a << idBits) | b: ordering keys orders pairs by (a, b). Stored in place of
// the pair (both are 8 bytes), so the sort needs no memory beyond `scratch`.
std::uint64_t keyOf(const ProxyPair& p, int idBits) {
    return (std::uint64_t{toIndex(p.a)} << idBits) | toIndex(p.b);
}

// Past this many keys (1 MB, and as much again for the ping-pong buffer) the radix sort's first
// pass splits them by their top bits into buckets of about kBucketKeys (64 KB: a bucket is then
// sorted within the second-level cache).
constexpr std::size_t kSplitKeys = std::size_t{1} << 17;
constexpr std::size_t kBucketKeys = 8192;
// The first pass makes at most 2^this buckets.
constexpr int kMaxTopBits = 16;
// A bucket this small is sorted by insertion.
constexpr std::size_t kInsertionBucket = 32;

// Keys are written over the pairs' bytes (memcpy keeps this free of aliasing trouble).
std::uint64_t loadKey(const unsigned char* base, std::size_t i) {
    std::uint64_t key;
    std::memcpy(&key, base + i * sizeof key, sizeof key);
    return key;
}
void storeKey(unsigned char* base, std::size_t i, std::uint64_t key) {
    std::memcpy(base + i * sizeof key, &key, sizeof key);
}

// Sorts n keys by their low `bits`: key i is keyAt(i), stored to keys[i] as the counters are
// taken (keyAt may read keys[i] itself); then LSD passes of digits of up to kPairDigitBits
// scatter them between `keys` and `other`, a digit that is the same for every key skipped.
// Returns the buffer the sorted keys ended in (keys or other).
template <class KeyAt>
unsigned char* sortKeys(KeyAt keyAt, unsigned char* keys, unsigned char* other, std::size_t n,
                        int bits) {
    if (n <= kInsertionBucket) {
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint64_t key = keyAt(i);
            std::size_t j = i;
            for (; j > 0 && loadKey(keys, j - 1) > key; --j)
                storeKey(keys, j, loadKey(keys, j - 1));
            storeKey(keys, j, key);
        }
        return keys;
    }
    // As few passes as kPairDigitBits allows, the bits split evenly between them; every pass's
    // counters from the one read of the keys.
    const int passes = std::max(1, (bits + kPairDigitBits - 1) / kPairDigitBits);
    const int digitBits = (bits + passes - 1) / passes;
    const std::uint64_t digitMask = (std::uint64_t{1} << digitBits) - 1;
    const std::size_t digitCount = std::size_t{1} << digitBits;
    // Per thread, off the stack (up to 6 x 4096 counters).
    thread_local std::vector<std::uint32_t> histograms;
    histograms.assign(static_cast<std::size_t>(passes) * digitCount, 0);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t key = keyAt(i);
        storeKey(keys, i, key);
        for (int d = 0; d < passes; ++d)
            ++histograms[static_cast<std::size_t>(d) * digitCount +
                         ((key >> (d * digitBits)) & digitMask)];
    }
    for (int d = 0; d < passes; ++d) {
        std::uint32_t* count = histograms.data() + static_cast<std::size_t>(d) * digitCount;
        const int shift = d * digitBits;
        if (count[(loadKey(keys, 0) >> shift) & digitMask] == n) continue; // a plain copy
        countsToStarts(count, digitCount);
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint64_t key = loadKey(keys, i);
            storeKey(other, count[(key >> shift) & digitMask]++, key);
        }
        std::swap(keys, other);
    }
    return keys;
}

// Radix sort on the packed key (a << idBits) | b, whose order is the pairs' (a, b) order. One
// pass splits many keys by their top bits into buckets of about kBucketKeys; each bucket is then
// sorted on its own, in cache. Sorting all the keys digit by digit scattered each pass over the
// whole array: past the second-level cache (a million proxies' pairs), that cost a miss per key
// and pass. `maxId` bounds every id of the pairs.
void radixSortPairs(std::vector<ProxyPair>& pairs, std::vector<ProxyPair>& scratch,
                    std::uint32_t maxId) {
    static_assert(sizeof(ProxyPair) == sizeof(std::uint64_t));
    const std::size_t n = pairs.size();
    const int idBits = std::max(1, static_cast<int>(std::bit_width(maxId)));
    const int keyBits = 2 * idBits;
    resizeWithRoom(scratch, n);
    unsigned char* const keys = reinterpret_cast<unsigned char*>(pairs.data());
    unsigned char* const other = reinterpret_cast<unsigned char*>(scratch.data());
    const std::uint64_t lowMask = (std::uint64_t{1} << idBits) - 1;
    const auto decode = [&](const unsigned char* sorted, std::size_t first, std::size_t size) {
        for (std::size_t i = 0; i < size; ++i) {
            const std::uint64_t key = loadKey(sorted, i);
            pairs[first + i] = {ProxyId{static_cast<std::uint32_t>(key >> idBits)},
                                ProxyId{static_cast<std::uint32_t>(key & lowMask)}};
        }
    };
    if (n <= kSplitKeys) {
        const auto keyAt = [&](std::size_t i) { return keyOf(pairs[i], idBits); };
        decode(sortKeys(keyAt, keys, other, n, keyBits), 0, n);
        return;
    }
    const int topBits =
        std::min({static_cast<int>(std::bit_width((n - 1) / kBucketKeys)), kMaxTopBits, keyBits});
    const int lowBits = keyBits - topBits;
    // Per thread, off the stack: each bucket's start, and then its end.
    thread_local std::vector<std::uint32_t> buckets;
    const std::size_t bucketCount = std::size_t{1} << topBits;
    buckets.assign(bucketCount + 1, 0);
    std::uint32_t* const start = buckets.data();
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t key = keyOf(pairs[i], idBits);
        storeKey(keys, i, key);
        ++start[key >> lowBits];
    }
    countsToStarts(start, bucketCount + 1);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t key = loadKey(keys, i);
        storeKey(other, start[key >> lowBits]++, key);
    }
    // start[k] is now bucket k's end, and so bucket k + 1's start.
    std::size_t first = 0;
    for (std::size_t k = 0; k < bucketCount; ++k) {
        const std::size_t size = start[k] - first;
        if (size != 0) {
            unsigned char* const bucket = other + first * sizeof(std::uint64_t);
            const auto keyAt = [bucket](std::size_t i) { return loadKey(bucket, i); };
            decode(sortKeys(keyAt, bucket, keys + first * sizeof(std::uint64_t), size, lowBits),
                   first, size);
        }
        first = start[k];
    }
}

// A counting sort on a, then each run of one a sorted by b: three passes over the pairs (count,
// scatter, runs) where the radix sort takes five, for a counter per id. Chosen where the ids are
// few beside the pairs (a dense world, where most proxies have a pair) and the counters stay in
// cache. A run is short (a proxy has a few neighbours), but one proxy may overlap thousands (a
// ground box), so a long run takes std::sort. The sorted pairs end in `scratch`, and the two
// vectors trade buffers.
void countingSortPairs(std::vector<ProxyPair>& pairs, std::vector<ProxyPair>& scratch,
                       std::uint32_t maxId) {
    const std::size_t n = pairs.size();
    // Per thread, off the stack; after the scatter, ends[a] is where a's run ends.
    thread_local std::vector<std::uint32_t> ends;
    ends.assign(std::size_t{maxId} + 1, 0);
    std::uint32_t* end = ends.data();
    for (const ProxyPair& p : pairs) ++end[toIndex(p.a)];
    countsToStarts(end, std::size_t{maxId} + 1);
    resizeWithRoom(scratch, n);
    ProxyPair* out = scratch.data();
    for (const ProxyPair& p : pairs) out[end[toIndex(p.a)]++] = p;
    constexpr std::size_t kInsertionRun = 16;
    for (std::size_t first = 0; first < n;) {
        const std::size_t last = end[toIndex(out[first].a)];
        if (last - first > kInsertionRun) {
            std::sort(out + first, out + last);
        } else {
            for (std::size_t i = first + 1; i < last; ++i) {
                const ProxyPair p = out[i];
                std::size_t j = i;
                for (; j > first && toIndex(out[j - 1].b) > toIndex(p.b); --j) out[j] = out[j - 1];
                out[j] = p;
            }
        }
        first = last;
    }
    pairs.swap(scratch);
}

// The counting sort's counters may number this many per pair...
constexpr std::size_t kCountersPerPair = 4;
// ...and no more than this in all (1 MB: a cache's worth).
constexpr std::uint32_t kMaxCounters = 1u << 18;

} // namespace

void sortPairs(std::vector<ProxyPair>& pairs, std::vector<ProxyPair>& scratch) {
    if (pairs.size() < kRadixMinimum) {
        std::sort(pairs.begin(), pairs.end());
        return;
    }
    // b is the larger id of a pair, and a < b: the counting sort's counters stop below maxId.
    std::uint32_t maxId = 0;
    for (const ProxyPair& p : pairs) maxId = std::max(maxId, toIndex(p.b));
    if (maxId < kMaxCounters && maxId <= kCountersPerPair * pairs.size())
        countingSortPairs(pairs, scratch, maxId);
    else
        radixSortPairs(pairs, scratch, maxId);
}

void keepPairsWithFlagged(std::vector<ProxyPair>& pairs, const std::uint8_t* flags) {
    // In place and branch-free: each pair is written and kept by advancing the end.
    std::size_t kept = 0;
    for (const ProxyPair p : pairs) {
        pairs[kept] = p;
        kept += (flags[toIndex(p.a)] | flags[toIndex(p.b)]) != 0 ? 1 : 0;
    }
    pairs.resize(kept);
}

// LSD radix sort with as many 11-bit digits as `bound` needs, ping-ponging with `scratch`.
void sortIndices(std::vector<std::uint32_t>& values, std::vector<std::uint32_t>& scratch,
                 std::uint32_t bound) {
    const std::size_t n = values.size();
    if (n < kRadixMinimum) {
        std::sort(values.begin(), values.end());
        return;
    }
    const int bits = std::max(1, static_cast<int>(std::bit_width(bound)));
    scratch.resize(n);
    for (int shift = 0; shift < bits; shift += kDigitBits) {
        std::array<std::uint32_t, kDigitCount> count{};
        for (std::uint32_t v : values) ++count[(v >> shift) & (kDigitCount - 1)];
        countsToStarts(count.data(), count.size());
        for (std::uint32_t v : values) scratch[count[(v >> shift) & (kDigitCount - 1)]++] = v;
        values.swap(scratch);
    }
}

} // namespace rigid2d::detail
