#include "island/sleep_islands.hpp"

#include <algorithm>

namespace rigid2d::detail {

namespace {
std::uint32_t findRoot(std::vector<std::uint32_t>& parent, std::uint32_t i) {
    while (parent[i] != i) {
        parent[i] = parent[parent[i]]; // path halving
        i = parent[i];
    }
    return i;
}
} // namespace

std::size_t findSleepingIslands(std::span<const float> sleepTimes,
                                std::span<const std::uint32_t> links, float timeToSleep,
                                std::vector<std::uint32_t>& parent, std::vector<float>& islandTime,
                                std::vector<std::uint8_t>& sleeps) {
    const std::size_t count = sleepTimes.size();
    parent.resize(count);
    for (std::uint32_t i = 0; i < count; ++i) parent[i] = i;
    for (std::size_t k = 0; k + 1 < links.size(); k += 2) {
        const std::uint32_t a = findRoot(parent, links[k]);
        const std::uint32_t b = findRoot(parent, links[k + 1]);
        // The smaller slot becomes the root: the result does not depend on link order.
        if (a < b)
            parent[b] = a;
        else if (b < a)
            parent[a] = b;
    }
    islandTime.assign(count, 0.0f);
    std::size_t islands = 0;
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::uint32_t root = findRoot(parent, i);
        parent[i] = root;
        if (root == i) {
            ++islands;
            islandTime[i] = sleepTimes[i];
        } else {
            islandTime[root] = std::min(islandTime[root], sleepTimes[i]);
        }
    }
    // Every parent is now a root; roots are the smallest slot of their island.
    sleeps.assign(count, 0);
    for (std::uint32_t i = 0; i < count; ++i)
        sleeps[i] = islandTime[parent[i]] >= timeToSleep ? 1 : 0;
    return islands;
}

} // namespace rigid2d::detail
