#pragma once
// "--flag value" command lines of the peer programs.

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "peer.hpp"

namespace rigid2d::peers {

class Args {
public:
    Args(int argc, char** argv) : m_args(argv + 1, argv + argc) {}
    [[nodiscard]] bool done() const { return m_next >= m_args.size(); }
    std::string flag() { return m_args[m_next++]; }
    std::string value(const std::string& flag) {
        if (done()) throw UsageError("missing value after " + flag);
        return m_args[m_next++];
    }
    long long integer(const std::string& flag, long long lo, long long hi) {
        const std::string text = value(flag);
        char* end = nullptr;
        errno = 0;
        const long long x = std::strtoll(text.c_str(), &end, 10);
        if (text.empty() || *end != '\0' || errno != 0 || x < lo || x > hi)
            throw UsageError(flag + " needs an integer in [" + std::to_string(lo) + ", " +
                             std::to_string(hi) + "], got '" + text + "'");
        return x;
    }
    double number(const std::string& flag, double lo, double hi) {
        const std::string text = value(flag);
        char* end = nullptr;
        const double x = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !std::isfinite(x) || x < lo || x > hi)
            throw UsageError(flag + " needs a number in [" + std::to_string(lo) + ", " +
                             std::to_string(hi) + "], got '" + text + "'");
        return x;
    }
    std::string oneOf(const std::string& flag, std::initializer_list<const char*> choices) {
        const std::string text = value(flag);
        std::string list;
        for (const char* choice : choices) {
            if (text == choice) return text;
            list += list.empty() ? choice : std::string(" | ") + choice;
        }
        throw UsageError(flag + " must be " + list + ", got '" + text + "'");
    }

private:
    std::vector<std::string> m_args;
    std::size_t m_next = 0;
};

} // namespace rigid2d::peers
