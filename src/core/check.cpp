#include "core/check.hpp"

#include <bit>
#include <cstdint>
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

std::string fieldAt(std::string_view field, std::size_t index) {
    // Appended piece by piece: GCC 12 warns (-Wrestrict) on "[" + std::to_string(index).
    std::string name(field);
    name += '[';
    name += std::to_string(index);
    name += ']';
    return name;
}

std::string describe(float value) {
    // Non-finite values by their bits, as printf spells them: converting a signalling NaN to
    // double would raise the invalid flag.
    if (!isFinite(value)) {
        const auto bits = std::bit_cast<std::uint32_t>(value);
        const bool negative = (bits >> 31) != 0;
        if ((bits & 0x007fffffu) != 0) return negative ? "-nan" : "nan";
        return negative ? "-inf" : "inf";
    }
    char text[32];
    std::snprintf(text, sizeof text, "%g", static_cast<double>(value));
    return text;
}

// Built with append, not "(" + std::string: GCC 12 at -O3 reports a false -Wrestrict in the
// inlined operator+ (GCC bug 105651), which breaks the release preset under -Werror.
std::string describe(Vec2 value) {
    std::string text = "(";
    text.append(describe(value.x)).append(", ").append(describe(value.y)).append(")");
    return text;
}

std::string describe(const AABB& value) {
    std::string text = "[";
    text.append(describe(value.lower)).append(" .. ").append(describe(value.upper)).append("]");
    return text;
}

void requireValidBox(std::string_view function, std::string_view field, const AABB& box) {
    // Hot path (every broad-phase move): build the field names only when refusing.
    if (isValid(box)) [[likely]]
        return;
    require(isFinite(box.lower), function, std::string(field) + ".lower", "must be finite",
            box.lower);
    require(isFinite(box.upper), function, std::string(field) + ".upper", "must be finite",
            box.upper);
    require(box.lower.x <= box.upper.x && box.lower.y <= box.upper.y, function, field,
            "must have lower <= upper", box);
}

} // namespace rigid2d::detail
