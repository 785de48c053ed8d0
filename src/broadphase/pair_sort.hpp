#pragma once
// Puts pairs in the contract's canonical order: by (a, b), with a < b in every pair.

#include <cstdint>
#include <vector>

#include "rigid2d/broad_phase.hpp"

namespace rigid2d::detail {

/// Sorts `pairs` by (a, b). `scratch` is reused storage so steady-state calls do not allocate.
void sortPairs(std::vector<ProxyPair>& pairs, std::vector<ProxyPair>& scratch);

/// Sorts `values`, all below `bound`, ascending (a radix sort: linear in the count).
void sortIndices(std::vector<std::uint32_t>& values, std::vector<std::uint32_t>& scratch,
                 std::uint32_t bound);

} // namespace rigid2d::detail
