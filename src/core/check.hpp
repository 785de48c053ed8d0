#pragma once
// Argument checks at the API boundary (DESIGN.md, "Bad input"): refuse with rigid2d::Error whose
// message names the function and the field, log it once, change nothing.
//
//   requireFinite("World::createBody", "def.position", def.position);
//   require(radius > 0, "World::createCircle", "circle.radius", "must be > 0", radius);

#include <cstddef>
#include <string>
#include <string_view>

#include "rigid2d/error.hpp"
#include "rigid2d/math.hpp"

namespace rigid2d::detail {

/// Logs "function: field message" at Error level and throws rigid2d::Error with the same text.
[[noreturn]] void refuse(std::string_view function, std::string_view field, std::string_view what);

/// "field[index]": the field of one element of an array argument.
std::string fieldAt(std::string_view field, std::size_t index);

std::string describe(float value);
std::string describe(Vec2 value);
std::string describe(const AABB& value);

template <class T>
void require(bool condition, std::string_view function, std::string_view field,
             std::string_view rule, const T& value) {
    if (!condition) [[unlikely]]
        refuse(function, field, std::string(rule) + ", got " + describe(value));
}

inline void require(bool condition, std::string_view function, std::string_view field,
                    std::string_view rule) {
    if (!condition) [[unlikely]]
        refuse(function, field, rule);
}

inline void requireFinite(std::string_view function, std::string_view field, float value) {
    require(isFinite(value), function, field, "must be finite", value);
}
inline void requireFinite(std::string_view function, std::string_view field, Vec2 value) {
    require(isFinite(value), function, field, "must be finite", value);
}
/// Finite corners and lower <= upper on both axes.
void requireValidBox(std::string_view function, std::string_view field, const AABB& box);

} // namespace rigid2d::detail
