#pragma once
// Exact box tests shared by every broad phase, so that all of them agree bit for bit with
// brute_force at the final test (acceleration structures must only be conservative).

#include <algorithm>
#include <cfloat>

#include "rigid2d/math.hpp"

namespace rigid2d::detail {

/// Does the segment origin + t * translation, t in [0, maxFraction], touch `box` (closed)?
/// Axes with a zero translation component test the origin against the slab.
/// The slab quotient (lo - p) / d taken in double and rounded to a float clamped to its range: in
/// floats a denormal `d` or a box near the float's reach overflows (a trap where traps are on).
[[nodiscard]] inline float slabFraction(float lo, float p, float d) noexcept {
    const double t = (double{lo} - double{p}) / double{d};
    return static_cast<float>(std::clamp(t, -double{FLT_MAX}, double{FLT_MAX}));
}

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
