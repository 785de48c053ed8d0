#pragma once
// Islands of awake bodies for sleeping: union-find over the touching contacts and joints between
// dynamic bodies, rebuilt every step from plain arrays (no persistent island graph to keep in
// sync). An island falls asleep as a whole when all its bodies have rested for timeToSleep. Only
// rested bodies are joined, since only they can sleep:
//
//   parent[i] = i for every awake body slot
//   for each link (a, b) of two rested bodies: union(a, b), the larger root under the smaller
//   for each link of a rested body to a restless one: the rested body keeps its island awake
//   a rested island sleeps unless one of its bodies keeps it awake
//
// That is the island rule: a whole island (all links) holds a restless body exactly when the part
// of it that rested touches one. A link to a body still moving costs a look at two flags, not a
// union: the fewer bodies have rested, the fewer unions.
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

/// Scratch and results of findSleepingIslands, by body slot.
struct SleepIslands {
    std::vector<std::uint32_t> parent; ///< its rested island's smallest slot (else itself)
    std::vector<std::uint8_t> rested;  ///< has rested for timeToSleep
    std::vector<std::uint8_t> awake;   ///< keeps its island awake (a root: the island stays awake)
    std::vector<std::uint8_t> sleeps;  ///< its island goes to sleep
};

/// `links` holds pairs of body slots (2 entries per link, slots < sleepTimes.size(); a slot linked
/// to itself joins nothing). Fills `out` for every slot. Runs in pieces on def's workers. Returns
/// the number of islands of rested bodies.
std::size_t findSleepingIslands(const WorldDef& def, std::span<const float> sleepTimes,
                                std::span<const std::uint32_t> links, float timeToSleep,
                                SleepIslands& out);

} // namespace rigid2d::detail
