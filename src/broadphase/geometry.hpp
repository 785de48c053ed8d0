#pragma once
// Exact box tests shared by every broad phase, so that all of them agree bit for bit with
// brute_force at the final test (acceleration structures must only be conservative).

#include <algorithm>

#include "geometry/slab.hpp"
#include "rigid2d/math.hpp"

namespace rigid2d::detail {

/// Does the segment origin + t * translation, t in [0, maxFraction], touch `box` (closed)?
/// Axes with a zero translation component test the origin against the slab.
[[nodiscard]] inline bool segmentTouchesBox(Vec2 origin, Vec2 translation, float maxFraction,
                                            const AABB& box) noexcept {
    float tEnter = 0.0f;
    float tExit = maxFraction;
    for (int axis = 0; axis < 2; ++axis) {
        const float p = origin[axis];
        const float d = translation[axis];
        const float lo = box.lower[axis];
        const float hi = box.upper[axis];
        if (d == 0.0f) {
            if (p < lo || p > hi) return false;
            continue;
        }
        float t1 = slabFraction(lo, p, d);
        float t2 = slabFraction(hi, p, d);
        if (t1 > t2) std::swap(t1, t2);
        tEnter = std::max(tEnter, t1);
        tExit = std::min(tExit, t2);
        if (tEnter > tExit) return false;
    }
    return true;
}

} // namespace rigid2d::detail
