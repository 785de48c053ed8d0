#pragma once
// The fraction at which a segment crosses one face of a box's slab: the step every slab test
// (ray against box, box against box sweep) takes per axis.

#include "core/float_range.hpp"

namespace rigid2d::detail {

/// (lo - p) / d, taken in double and rounded to a float clamped to its range: in floats a
/// denormal `d` or a box near the float's reach overflows (a trap where traps are on).
[[nodiscard]] inline float slabFraction(float lo, float p, float d) noexcept {
    const double t = (double{lo} - double{p}) / double{d};
    return clampToFloat(t);
}

} // namespace rigid2d::detail
