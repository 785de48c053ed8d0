#pragma once
// Puts pairs in the contract's canonical order: by (a, b), with a < b in every pair.

#include <vector>

#include "rigid2d/broad_phase.hpp"

namespace rigid2d::detail {

/// Sorts `pairs` by (a, b). `scratch` is reused storage so steady-state calls do not allocate.
void sortPairs(std::vector<ProxyPair>& pairs, std::vector<ProxyPair>& scratch);

} // namespace rigid2d::detail
