#pragma once
// The checks of joint settings that the create functions (world_joints.cpp) and the setters
// (world_joint_settings.cpp) share: one rule per kind of value, the field named by the caller.

#include <cmath>
#include <string>
#include <string_view>

#include "core/check.hpp"
#include "rigid2d/joints.hpp"
#include "rigid2d/types.hpp"

namespace rigid2d::detail {

inline void checkRange(std::string_view fn, std::string_view field, float value, float bound) {
    require(isFinite(value) && std::fabs(value) <= bound, fn, field,
            "must be finite with magnitude <= " + describe(bound), value);
}

/// A spring's frequency and damping ratio.
inline void checkSpring(std::string_view fn, std::string_view hertzField, float hertz,
                        std::string_view dampingField, float damping) {
    require(isFinite(hertz) && hertz >= 0.0f && hertz <= kMaxHertz, fn, hertzField,
            "must be in [0, kMaxHertz = 1e6]", hertz);
    require(isFinite(damping) && damping >= 0.0f && damping <= kMaxHertz, fn, dampingField,
            "must be in [0, 1e6]", damping);
}

/// A range, lower <= upper.
inline void checkLimits(std::string_view fn, std::string_view lowerField, float lower,
                        std::string_view upperField, float upper) {
    checkRange(fn, lowerField, lower, kMaxJointRange);
    checkRange(fn, upperField, upper, kMaxJointRange);
    require(lower <= upper, fn, lowerField,
            "must be <= " + std::string(upperField) + " (" + describe(upper) + ")", lower);
}

/// A motor's largest force or torque, or a mouse joint's force.
inline void checkForce(std::string_view fn, std::string_view field, float force) {
    require(isFinite(force) && force >= 0.0f && force <= kMaxJointForce, fn, field,
            "must be in [0, kMaxJointForce = 1e30]", force);
}

/// A distance joint's length.
inline void checkLength(std::string_view fn, std::string_view field, float length) {
    require(isFinite(length) && length >= 0.0f && length <= kMaxJointRange, fn, field,
            "must be in [0, kMaxJointRange = 1e8]", length);
}

} // namespace rigid2d::detail
