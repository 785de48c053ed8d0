// Union-find islands: an island sleeps only when every one of its bodies has rested long enough.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "core/shuffled_scheduler.hpp"
#include "island/sleep_islands.hpp"
#include "rigid2d/thread_pool.hpp"

using namespace rigid2d;
using namespace rigid2d::detail;

namespace {
struct Islands {
    std::size_t count = 0;
    std::vector<std::uint32_t> parent;
    std::vector<std::uint8_t> sleeps;
};

Islands islandsOf(const WorldDef& def, const std::vector<float>& times,
                  const std::vector<std::uint32_t>& links) {
    SleepIslands found;
    const std::size_t count = findSleepingIslands(def, times, links, 0.5f, found);
    return {count, found.parent, found.sleeps};
}
} // namespace

TEST_CASE("islands sleep as a whole") {
    // Bodies 0-1-2 linked, 3-4 linked, 5 alone.
    const std::vector<float> times{1.0f, 0.6f, 0.7f, 0.2f, 2.0f, 0.5f};
    const std::vector<std::uint32_t> links{2, 1, 0, 1, 4, 3};
    const Islands islands = islandsOf(WorldDef{}, times, links);
    // The rested islands: {0, 1, 2}, {4} (kept awake by 3) and {5}; 3 has not rested.
    CHECK(islands.count == 3);
    CHECK(islands.sleeps == std::vector<std::uint8_t>{1, 1, 1, 0, 0, 1});
    CHECK(islands.parent == std::vector<std::uint32_t>{0, 0, 0, 3, 4, 5});
}

TEST_CASE("a moving body keeps awake everything linked to it, however far") {
    // A chain 0-1-2-3-4-5 of rested bodies but 5, its links listed forwards and backwards: the
    // whole chain stays awake. Cut the link to 5 and the rest sleeps.
    const std::vector<float> times{1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 0.1f};
    std::vector<std::uint32_t> chain{0, 1, 1, 2, 2, 3, 3, 4, 4, 5};
    for (int order = 0; order < 2; ++order) {
        const Islands islands = islandsOf(WorldDef{}, times, chain);
        CHECK(islands.count == 1);
        CHECK(islands.sleeps == std::vector<std::uint8_t>(6, 0));
        CHECK(islands.parent == std::vector<std::uint32_t>{0, 0, 0, 0, 0, 5});
        std::reverse(chain.begin(), chain.end());
    }
    chain.resize(8);
    const Islands cut = islandsOf(WorldDef{}, times, chain);
    CHECK(cut.count == 1);
    CHECK(cut.sleeps == std::vector<std::uint8_t>{1, 1, 1, 1, 1, 0});
}

TEST_CASE("a body linked to itself joins no island") {
    // The sleep stage links each constraint with a static or kinematic side to its awake body.
    const std::vector<float> times{1.0f, 0.2f, 0.9f};
    const std::vector<std::uint32_t> links{0, 0, 1, 1, 2, 2, 2, 2};
    const Islands islands = islandsOf(WorldDef{}, times, links);
    CHECK(islands.count == 2);
    CHECK(islands.sleeps == std::vector<std::uint8_t>{1, 0, 1});
}

TEST_CASE("threads: islands joined in pieces are those of one thread") {
    // Chains of random length, linked in a shuffled order and both ways round, so that pieces
    // race to link the same roots; a few bodies have not rested.
    std::mt19937 random(11);
    const auto below = [&](std::uint32_t n) { return static_cast<std::uint32_t>(random() % n); };
    const std::uint32_t count = 20000;
    std::vector<float> times(count);
    for (float& t : times) t = below(50) == 0 ? 0.1f : 1.0f;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
    for (std::uint32_t first = 0; first < count;) {
        const std::uint32_t last = std::min(count - 1, first + below(40));
        for (std::uint32_t i = first; i < last; ++i) pairs.emplace_back(i, i + 1);
        for (std::uint32_t k = 0; k < (last - first) / 4; ++k)
            pairs.emplace_back(first + below(last - first + 1), first + below(last - first + 1));
        first = last + 1;
    }
    std::shuffle(pairs.begin(), pairs.end(), random);
    std::vector<std::uint32_t> links;
    for (const auto& [a, b] : pairs) {
        const bool swap = below(2) == 0;
        links.push_back(swap ? b : a);
        links.push_back(swap ? a : b);
    }
    const Islands serial = islandsOf(WorldDef{}, times, links);
    REQUIRE(serial.count > 500);
    REQUIRE(serial.count < 2000);
    std::size_t sleeping = 0;
    for (const std::uint8_t s : serial.sleeps) sleeping += s;
    REQUIRE(sleeping > count / 4);
    REQUIRE(sleeping < count);

    ThreadPool pool(3);
    WorldDef pooled;
    pool.attach(pooled);
    for (int round = 0; round < 4; ++round) {
        const Islands pieces = islandsOf(pooled, times, links);
        CHECK(pieces.count == serial.count);
        CHECK(pieces.parent == serial.parent);
        CHECK(pieces.sleeps == serial.sleeps);
    }
    testing::ShuffledScheduler scheduler(4, 3);
    WorldDef shuffled;
    scheduler.attach(shuffled);
    const Islands shuffledRun = islandsOf(shuffled, times, links);
    CHECK(shuffledRun.count == serial.count);
    CHECK(shuffledRun.parent == serial.parent);
    CHECK(shuffledRun.sleeps == serial.sleeps);
    CHECK(scheduler.unfinished() == 0);
}
