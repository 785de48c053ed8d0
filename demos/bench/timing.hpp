#pragma once
// What every rigid2d-bench subcommand reports the same way: per-iteration time statistics with
// the peers' definitions, the choice among --repeat runs, peak memory, and the report line's
// destinations (stdout and --json-out).

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace rigid2d::bench {

using Clock = std::chrono::steady_clock;

[[nodiscard]] inline double millisecondsBetween(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

/// Statistics of per-step (or per-frame) times, in ms.
struct TimeStats {
    double median = 0, mean = 0, p95 = 0, max = 0, total = 0;
};

/// median (mean of the two middle values for an even count), mean, p95 (nearest rank), max: the
/// definitions of the peers' reports. `ms` must not be empty.
[[nodiscard]] TimeStats summarize(std::vector<double> ms);

/// The index of the run whose mean is the median of `means` (the lower middle for an even
/// count): with --repeat K, that whole run is reported, so its statistics belong together.
[[nodiscard]] std::size_t medianRunIndex(const std::vector<double>& means);

/// `, "repeat": {"runs": K, ..., "means": [...]}` for K > 1, else nothing.
[[nodiscard]] std::string repeatField(const std::vector<double>& means);

/// `"median": .., "mean": .., "p95": .., "max": ..` with six decimals.
[[nodiscard]] std::string statsFields(const TimeStats& stats);

/// The process's peak resident set so far, in kB (getrusage), or 0 where unknown.
[[nodiscard]] long peakResidentKilobytes();
/// The process's resident set now, in kB (/proc/self/statm), or 0 where unknown.
[[nodiscard]] long currentResidentKilobytes();

/// A double as JSON that Python reads back exactly; NaN and infinities as Python writes them.
[[nodiscard]] std::string jsonNumber(double value);
/// A string as a JSON string literal.
[[nodiscard]] std::string jsonString(std::string_view text);

/// Prints the report line on stdout and, when `jsonOut` is not empty, writes it to that file.
/// Returns the exit code: 0, or 1 (with a message naming `command`) if the file cannot be written.
int emitReport(std::string_view command, const std::string& line, const std::string& jsonOut);

} // namespace rigid2d::bench
