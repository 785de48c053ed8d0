#include "core/check.hpp"

#include <cstdio>

#include "core/log.hpp"

namespace rigid2d::detail {

void refuse(std::string_view function, std::string_view field, std::string_view what) {
    std::string message;
    message.reserve(function.size() + field.size() + what.size() + 4);
    message.append(function).append(": ").append(field).append(" ").append(what);
    log(LogLevel::Error, message);
    throw Error(message);
}

std::string describe(float value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", static_cast<double>(value));
    return text;
}

std::string describe(Vec2 value) { return "(" + describe(value.x) + ", " + describe(value.y) + ")"; }

std::string describe(const AABB& value) {
    return "[" + describe(value.lower) + " .. " + describe(value.upper) + "]";
}

void requireValidBox(std::string_view function, std::string_view field, const AABB& box) {
    // Hot path (every broad-phase move): build the field names only when refusing.
    if (isValid(box)) [[likely]]
        return;
    require(isFinite(box.lower), function, std::string(field) + ".lower", "must be finite", box.lower);
    require(isFinite(box.upper), function, std::string(field) + ".upper", "must be finite", box.upper);
    require(box.lower.x <= box.upper.x && box.lower.y <= box.upper.y, function, field,
            "must have lower <= upper", box);
}

} // namespace rigid2d::detail
