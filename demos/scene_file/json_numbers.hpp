#pragma once
// Float <-> JSON helpers shared by the reader and the writers of scene files.

#include <charconv>
#include <cstdlib>
#include <string>

namespace rigid2d::scene_file::detail {

/// The double whose shortest decimal form is the float's shortest decimal form, so that files
/// read "0.016666668", not "0.01666666753590107", and read back to the same float.
[[nodiscard]] inline double shortestDouble(float value) {
    char text[32];
    const auto result = std::to_chars(text, text + sizeof text - 1, value);
    *result.ptr = '\0';
    return std::strtod(text, nullptr);
}

/// Shortest text of a number for error messages ("-1", "0.5", "1e+40").
[[nodiscard]] inline std::string numberText(double value) {
    char text[32];
    const auto result = std::to_chars(text, text + sizeof text, value);
    return std::string(text, result.ptr);
}

} // namespace rigid2d::scene_file::detail
