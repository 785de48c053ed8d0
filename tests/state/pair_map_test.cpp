// The pair map against a std::map model: inserts (plain and if-absent), erases with backward
// shift, reserve and growth must keep every key findable with its value.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>

#include "state/pair_map.hpp"

using namespace rigid2d::detail;

TEST_CASE("insertIfAbsent inserts a new key once and leaves a present one alone") {
    PairMap map;
    CHECK(map.insertIfAbsent(7, 1));
    CHECK_FALSE(map.insertIfAbsent(7, 2));
    CHECK(map.find(7) == 1);
    CHECK(map.size() == 1);
    map.erase(7);
    CHECK(map.find(7) == PairMap::kMissing);
    CHECK(map.insertIfAbsent(7, 3));
    CHECK(map.find(7) == 3);
}

// A world without a contact yet has a map without slots; the pair stage prefetches all the same
// (the sanitizer builds catch an out-of-range slot reference).
TEST_CASE("find and prefetch on a map that never held a key") {
    const PairMap map;
    map.prefetch(42);
    CHECK(map.find(42) == PairMap::kMissing);
}

TEST_CASE("reserve keeps the keys already present and makes room at once") {
    PairMap map;
    for (std::uint32_t i = 0; i < 10; ++i) map.insert(std::uint64_t{i} << 32 | (i + 1), i);
    map.reserve(5000);
    CHECK(map.size() == 10);
    for (std::uint32_t i = 0; i < 10; ++i) CHECK(map.find(std::uint64_t{i} << 32 | (i + 1)) == i);
    map.reserve(3); // never shrinks
    CHECK(map.find(std::uint64_t{9} << 32 | 10) == 9);
}

TEST_CASE("random inserts, if-absent inserts and erases agree with a model") {
    PairMap map;
    std::map<std::uint64_t, std::uint32_t> model;
    std::mt19937 random(12);
    // Few distinct keys, so inserts hit present keys and erases hit long probe runs.
    std::uniform_int_distribution<std::uint32_t> shape(0, 60);
    for (std::uint32_t op = 0; op < 20000; ++op) {
        const std::uint32_t a = shape(random), b = shape(random);
        const std::uint64_t key = (std::uint64_t{std::min(a, b)} << 32) | std::max(a, b);
        const bool present = model.count(key) != 0;
        switch (random() % 4) {
        case 0: // erase
            if (present) {
                map.erase(key);
                model.erase(key);
            }
            break;
        case 1: // plain insert of an absent key
            if (!present) {
                map.insert(key, op);
                model[key] = op;
            }
            break;
        case 2: // if-absent insert
            CHECK(map.insertIfAbsent(key, op) == !present);
            if (!present) model[key] = op;
            break;
        default: CHECK(map.find(key) == (present ? model[key] : PairMap::kMissing)); break;
        }
        REQUIRE(map.size() == model.size());
    }
    for (const auto& [key, value] : model) CHECK(map.find(key) == value);
}
