// sortPairs and sortIndices against std::sort. Every broad phase's findPairs, brute_force's
// included, ends in sortPairs, so the conformance suite cannot see a sort that misorders or
// loses pairs: both sides would share the fault. This test holds it to std::sort directly, on
// every path it takes (std::sort below 256 pairs, the counting and radix sorts above, chosen by
// how the largest id compares with the count; the radix sort splits more than 2^17 pairs into
// buckets first).

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "broadphase/pair_sort.hpp"

using namespace rigid2d;
using namespace rigid2d::detail;

namespace {

// `count` pairs with a < b <= maxId; a quarter of them repeated when `repeats` (the sort must
// keep duplicates, though no broad phase emits one).
std::vector<ProxyPair> randomPairs(std::size_t count, std::uint32_t maxId, bool repeats,
                                   std::mt19937& random) {
    std::uniform_int_distribution<std::uint32_t> id(0, maxId);
    std::vector<ProxyPair> pairs;
    while (pairs.size() < count) {
        if (repeats && !pairs.empty() && random() % 4 == 0) {
            pairs.push_back(pairs[random() % pairs.size()]);
            continue;
        }
        const std::uint32_t a = id(random), b = id(random);
        if (a != b) pairs.push_back(orderedPair(a, b));
    }
    return pairs;
}

void checkSorted(std::vector<ProxyPair> pairs, std::vector<ProxyPair>& scratch) {
    std::vector<ProxyPair> expected = pairs;
    std::sort(expected.begin(), expected.end());
    sortPairs(pairs, scratch);
    CHECK(pairs == expected);
}

} // namespace

TEST_CASE("pair sort: random pairs of every size and id range equal std::sort") {
    std::mt19937 random(7);
    std::vector<ProxyPair> scratch; // reused across calls, as the broad phases do
    for (const std::size_t count : {0u, 1u, 2u, 255u, 256u, 257u, 1000u, 20000u, 140000u}) {
        const std::uint32_t dense = static_cast<std::uint32_t>(count / 4 + 2);
        for (const std::uint32_t maxId :
             {dense, static_cast<std::uint32_t>(4 * count + 1),
              static_cast<std::uint32_t>(8 * count + 1), 1u << 17, (1u << 20) + 3u, 0xFFFFFFFEu}) {
            for (const bool repeats : {false, true}) {
                CAPTURE(count);
                CAPTURE(maxId);
                CAPTURE(repeats);
                checkSorted(randomPairs(count, maxId, repeats, random), scratch);
            }
        }
    }
}

TEST_CASE("pair sort: one proxy in many pairs, and pairs already in order or reversed") {
    std::mt19937 random(11);
    std::vector<ProxyPair> scratch;
    // A ground box overlapping thousands: one long run of the same a, its b in random order.
    std::vector<ProxyPair> star;
    for (std::uint32_t b = 1; b <= 5000; ++b) star.push_back({ProxyId{0}, ProxyId{b}});
    std::shuffle(star.begin(), star.end(), random);
    checkSorted(star, scratch);
    // Enough of them that the radix sort splits into buckets, all falling into the first.
    std::vector<ProxyPair> bigStar;
    for (std::uint32_t b = 1; b <= 140000; ++b) bigStar.push_back({ProxyId{0}, ProxyId{7 * b}});
    std::shuffle(bigStar.begin(), bigStar.end(), random);
    checkSorted(bigStar, scratch);
    // The same with the shared proxy as the higher id of every pair.
    std::vector<ProxyPair> under;
    for (std::uint32_t a = 0; a < 5000; ++a) under.push_back({ProxyId{a}, ProxyId{5000}});
    std::shuffle(under.begin(), under.end(), random);
    checkSorted(under, scratch);
    std::vector<ProxyPair> ordered = randomPairs(3000, 4000, false, random);
    std::sort(ordered.begin(), ordered.end());
    checkSorted(ordered, scratch);
    std::reverse(ordered.begin(), ordered.end());
    checkSorted(ordered, scratch);
}

TEST_CASE("index sort: random values below every bound equal std::sort") {
    std::mt19937 random(3);
    std::vector<std::uint32_t> scratch;
    for (const std::size_t count : {0u, 1u, 255u, 256u, 5000u}) {
        for (const std::uint32_t bound : {1u, 2u, 2048u, 2049u, 1u << 22, 0xFFFFFFFFu}) {
            std::uniform_int_distribution<std::uint32_t> value(0, bound - 1);
            std::vector<std::uint32_t> values(count);
            for (std::uint32_t& v : values) v = value(random);
            std::vector<std::uint32_t> expected = values;
            std::sort(expected.begin(), expected.end());
            sortIndices(values, scratch, bound);
            CAPTURE(count);
            CAPTURE(bound);
            CHECK(values == expected);
        }
    }
}
