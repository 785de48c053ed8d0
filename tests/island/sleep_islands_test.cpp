// Union-find islands: an island sleeps only when every one of its bodies has rested long enough.
#include <doctest/doctest.h>

#include <vector>

#include "island/sleep_islands.hpp"

using namespace rigid2d::detail;

TEST_CASE("islands sleep as a whole") {
    // Bodies 0-1-2 linked, 3-4 linked, 5 alone.
    const std::vector<float> times{1.0f, 0.6f, 0.7f, 0.2f, 2.0f, 0.5f};
    const std::vector<std::uint32_t> links{2, 1, 0, 1, 4, 3};
    std::vector<std::uint32_t> parent;
    std::vector<float> islandTime;
    std::vector<std::uint8_t> sleeps;
    const std::size_t islands = findSleepingIslands(times, links, 0.5f, parent, islandTime, sleeps);
    CHECK(islands == 3);
    CHECK(sleeps == std::vector<std::uint8_t>{1, 1, 1, 0, 0, 1});
    CHECK(parent[2] == 0);
    CHECK(parent[4] == 3);
}

TEST_CASE("a body linked to itself joins no island") {
    // The sleep stage links each constraint with a static or kinematic side to its awake body.
    const std::vector<float> times{1.0f, 0.2f, 0.9f};
    const std::vector<std::uint32_t> links{0, 0, 1, 1, 2, 2, 2, 2};
    std::vector<std::uint32_t> parent;
    std::vector<float> islandTime;
    std::vector<std::uint8_t> sleeps;
    CHECK(findSleepingIslands(times, links, 0.5f, parent, islandTime, sleeps) == 3);
    CHECK(sleeps == std::vector<std::uint8_t>{1, 0, 1});
}
