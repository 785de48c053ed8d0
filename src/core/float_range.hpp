#pragma once
// Bringing a value taken in double back to float, where the float's range may not hold it: how
// every computation done in double to keep clear of overflow ends.

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace rigid2d::detail {

/// True when `value` is a float: finite and within +-FLT_MAX (false for NaN).
[[nodiscard]] inline bool fitsFloat(double value) noexcept {
    return std::fabs(value) <= double{FLT_MAX};
}

/// `value` (not NaN) rounded to float, clamped to +-FLT_MAX.
[[nodiscard]] inline float clampToFloat(double value) noexcept {
    return static_cast<float>(std::clamp(value, -double{FLT_MAX}, double{FLT_MAX}));
}

} // namespace rigid2d::detail
