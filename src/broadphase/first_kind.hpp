#pragma once
// auto's opening choice: which kind to run before anything has been timed. A wrong opening costs
// every frame until a probe has measured better (many frames on a big world: a probe builds its
// candidate a slice per frame), so auto guesses from the proxies themselves at its first pair
// search, from what each kind is good at:
//
//   grid:              sizes within a narrow band and a cell array of modest size for the
//                      region they fill; it re-files everything per search, in memory order,
//                      which is the fastest when most proxies move (3x the hashes at 1M boxes)
//   hierarchical_hash: sizes spread widely (a big box sits in one coarse cell, not in many)
//   spatial_hash:      the rest, sparse worlds among them (memory by occupied cell only)
//
// The probes still decide by measurement later; this only picks where they start.

#include "broadphase/proxy_table.hpp"
#include "rigid2d/broad_phase.hpp"

namespace rigid2d::detail {

/// The kind auto starts with for these proxies under `config` (the grid's region and cells).
[[nodiscard]] BroadPhaseType firstKind(const ProxyTable& proxies, const BroadPhaseConfig& config);

} // namespace rigid2d::detail
