#pragma once
/// The exception thrown when a public function refuses its arguments.

#include <stdexcept>
#include <string>

namespace rigid2d {

/// Thrown by a public function that refuses its arguments (NaN or infinite numbers, non-positive
/// sizes, stale ids, calls from inside a callback). The message names the function and the field,
/// e.g. "World::createCircle: circle.radius must be > 0, got -1". When it is thrown the world or
/// structure is exactly as it was before the call. The step itself never throws.
class Error : public std::invalid_argument {
public:
    explicit Error(const std::string& message) : std::invalid_argument(message) {}
};

} // namespace rigid2d
