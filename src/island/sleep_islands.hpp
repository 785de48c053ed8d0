#pragma once
// Islands of awake bodies for sleeping: union-find over the touching contacts between dynamic
// bodies, rebuilt every step from plain arrays (no persistent island graph to keep in sync).
//
//   parent[i] = i for every awake body slot
//   for each link (a, b): union(a, b)
//   island sleep time = min over its bodies of sleepTime
//   an island whose sleep time reaches timeToSleep falls asleep as a whole

#include <cstdint>
#include <span>
#include <vector>

namespace rigid2d::detail {

/// `links` holds pairs of body slots (2 entries per link, slots < sleepTimes.size(); a slot linked
/// to itself joins nothing). On return
/// `sleeps[slot]` is 1 for every body of an island ready to sleep. Returns the number of islands.
std::size_t findSleepingIslands(std::span<const float> sleepTimes,
                                std::span<const std::uint32_t> links, float timeToSleep,
                                std::vector<std::uint32_t>& parent, std::vector<float>& islandTime,
                                std::vector<std::uint8_t>& sleeps);

} // namespace rigid2d::detail
