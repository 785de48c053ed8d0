#pragma once
// Puts pairs in the contract's canonical order: by (a, b), with a < b in every pair.

#include <cstdint>
#include <vector>

#include "rigid2d/broad_phase.hpp"

namespace rigid2d::detail {

/// The pair of two ids in canonical form (the lower first).
[[nodiscard]] inline ProxyPair orderedPair(std::uint32_t a, std::uint32_t b) noexcept {
    // By a mask, not a choice: that compiled to a branch, which the pair search mispredicted
    // half the time (so did std::min).
    const std::uint32_t swap = (a ^ b) & (0u - static_cast<std::uint32_t>(b < a));
    return {ProxyId{a ^ swap}, ProxyId{b ^ swap}};
}

/// Sorts `pairs`, each with a < b, by (a, b). `scratch` is reused storage so steady-state calls do
/// not allocate.
void sortPairs(std::vector<ProxyPair>& pairs, std::vector<ProxyPair>& scratch);
/// Keeps the pairs with a proxy whose flag is not 0 (`flags` covers every id), in their order.
void keepPairsWithFlagged(std::vector<ProxyPair>& pairs, const std::uint8_t* flags);

/// Sorts `values`, all below `bound`, ascending (a radix sort: linear in the count).
void sortIndices(std::vector<std::uint32_t>& values, std::vector<std::uint32_t>& scratch,
                 std::uint32_t bound);

} // namespace rigid2d::detail
