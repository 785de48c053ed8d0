#pragma once
// Islands of awake bodies for sleeping: union-find over the touching contacts between dynamic
// bodies, rebuilt every step from plain arrays (no persistent island graph to keep in sync).
//
//   parent[i] = i for every awake body slot
//   for each link (a, b): union(a, b), the larger root under the smaller
//   an island whose bodies have all rested for timeToSleep falls asleep as a whole
//
// With workers, the links are joined in pieces at once: a root is linked by compare-and-swap,
// which fails (and the union retries from the new roots) when another worker linked it first.
// Since a root only ever goes under a smaller slot, every island's root ends as its smallest slot,
// whatever the order of the unions: the result is that of one thread, bit for bit.

#include <cstdint>
#include <span>
#include <vector>

#include "rigid2d/types.hpp"

namespace rigid2d::detail {

/// `links` holds pairs of body slots (2 entries per link, slots < sleepTimes.size(); a slot linked
/// to itself joins nothing). On return `parent[slot]` is the smallest slot of its island and
/// `sleeps[slot]` is 1 for every body of an island ready to sleep; `restless` is scratch. Runs in
/// pieces on def's workers. Returns the number of islands.
std::size_t findSleepingIslands(const WorldDef& def, std::span<const float> sleepTimes,
                                std::span<const std::uint32_t> links, float timeToSleep,
                                std::vector<std::uint32_t>& parent,
                                std::vector<std::uint8_t>& restless,
                                std::vector<std::uint8_t>& sleeps);

} // namespace rigid2d::detail
