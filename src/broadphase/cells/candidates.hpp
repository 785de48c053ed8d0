#pragma once
// Query and ray candidates gathered from cells (a proxy listed in several cells may come more
// than once), visited in ascending id order, the order brute_force uses: a visitor that stops
// early or clips the ray sees exactly what it would see with brute_force.

#include <cstdint>
#include <vector>

#include "rigid2d/broad_phase.hpp"
#include "rigid2d/function_ref.hpp"

namespace rigid2d::detail {

/// A thread's reusable id buffer for const queries: no allocation once warmed up, safe when a
/// visitor runs another query (the nested one gets its own buffer).
class ScratchIds {
public:
    ScratchIds();
    ~ScratchIds();
    ScratchIds(const ScratchIds&) = delete;
    ScratchIds& operator=(const ScratchIds&) = delete;
    std::vector<std::uint32_t> ids;
};

/// Sorts `candidates` (ids of boxes that overlap the region), drops repeats and calls visit in
/// ascending id order until it returns false.
void visitInIdOrder(std::vector<std::uint32_t>& candidates, FunctionRef<bool(ProxyId)> visit);

/// Sorts and dedups `candidates`, then calls visit in ascending id order for those whose box
/// the segment touches with the current maxFraction (the exact test of brute_force).
void visitRayInIdOrder(std::vector<std::uint32_t>& candidates, const std::vector<AABB>& boxes,
                       Vec2 origin, Vec2 translation, float maxFraction,
                       FunctionRef<float(ProxyId)> visit);

} // namespace rigid2d::detail
