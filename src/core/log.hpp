#pragma once
// The one logging entry point of the library. Never call it in a per-body or per-pair loop.

#include <string_view>

#include "rigid2d/log.hpp"

namespace rigid2d::detail {
void log(LogLevel level, std::string_view message);
} // namespace rigid2d::detail
