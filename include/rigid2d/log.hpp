#pragma once
/// rigid2d logs rarely (refused arguments, broad-phase rebuilds), through spdlog by default.

#include <functional>
#include <string_view>

namespace rigid2d {

enum class LogLevel { Trace, Debug, Info, Warn, Error, Off };

/// Receives every message rigid2d logs at or above the current level.
using LogSink = std::function<void(LogLevel level, std::string_view message)>;

/// Replaces where messages go (default: spdlog's colour stderr sink, logger name "rigid2d").
/// An empty sink restores the default. Not thread-safe with respect to a running step.
void setLogSink(LogSink sink);

/// Messages below `level` are dropped. Default: Warn, so only refusals and anomalies are printed.
void setLogLevel(LogLevel level);

} // namespace rigid2d
