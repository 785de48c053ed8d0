#include "timing.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <numeric>

namespace rigid2d::bench {

std::string jsonNumber(double value) {
    if (std::isnan(value)) return "NaN";
    if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

std::string jsonString(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

TimeStats summarize(std::vector<double> ms) {
    TimeStats s;
    std::sort(ms.begin(), ms.end());
    const std::size_t n = ms.size();
    s.total = std::accumulate(ms.begin(), ms.end(), 0.0);
    s.mean = s.total / static_cast<double>(n);
    s.median = n % 2 != 0 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
    const auto rank = std::max<std::size_t>(
        1, static_cast<std::size_t>(std::ceil(0.95 * static_cast<double>(n))));
    s.p95 = ms[rank - 1];
    s.max = ms.back();
    return s;
}

std::size_t medianRunIndex(const std::vector<double>& means) {
    std::vector<std::size_t> order(means.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return means[a] < means[b]; });
    return order[(order.size() - 1) / 2];
}

std::string repeatField(const std::vector<double>& means) {
    if (means.size() <= 1) return {};
    std::string field = ", \"repeat\": {\"runs\": " + std::to_string(means.size()) +
                        ", \"reported\": \"the run with the median mean\", \"means\": [";
    char number[32];
    for (std::size_t i = 0; i < means.size(); ++i) {
        std::snprintf(number, sizeof number, "%s%.6f", i == 0 ? "" : ", ", means[i]);
        field += number;
    }
    return field + "]}";
}

std::string statsFields(const TimeStats& stats) {
    char buffer[160];
    std::snprintf(buffer, sizeof buffer,
                  "\"median\": %.6f, \"mean\": %.6f, \"p95\": %.6f, \"max\": %.6f", stats.median,
                  stats.mean, stats.p95, stats.max);
    return buffer;
}

long peakResidentKilobytes() {
    rusage usage{};
    return getrusage(RUSAGE_SELF, &usage) == 0 ? usage.ru_maxrss : 0; // Linux: kB
}

long currentResidentKilobytes() {
    std::ifstream statm("/proc/self/statm");
    long pages = 0, resident = 0;
    if (!(statm >> pages >> resident)) return 0;
    const long pageSize = sysconf(_SC_PAGESIZE);
    return pageSize > 0 ? resident * (pageSize / 1024) : 0;
}

int emitReport(std::string_view command, const std::string& line, const std::string& jsonOut) {
    std::cout << line << std::endl;
    if (jsonOut.empty()) return 0;
    std::ofstream file(jsonOut);
    file << line << '\n';
    if (file) return 0;
    std::fprintf(stderr, "rigid2d-bench %.*s: cannot write %s\n", static_cast<int>(command.size()),
                 command.data(), jsonOut.c_str());
    return 1;
}

} // namespace rigid2d::bench
