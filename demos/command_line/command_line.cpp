#include "command_line.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>

#include "rigid2d/error.hpp"

namespace rigid2d::demos {

namespace {
std::string shortNumber(float value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", static_cast<double>(value));
    return text;
}
} // namespace

CommandLine::CommandLine(std::string_view program, std::string_view usage, int argc, char** argv)
    : m_program(program), m_usage(usage), m_argc(argc), m_argv(argv) {}

bool CommandLine::next() {
    if (++m_index >= m_argc) return false;
    m_flag = m_argv[m_index];
    if (m_flag == "--help" || m_flag == "-h") {
        std::cout << m_usage;
        std::exit(0);
    }
    return true;
}

std::string CommandLine::text() {
    if (m_index + 1 >= m_argc) fail(m_flag + " needs a value");
    return m_argv[++m_index];
}

int CommandLine::integer() {
    const std::string value = text();
    if (const std::optional<int> parsed = parseInt(value)) return *parsed;
    fail(m_flag + " wants an integer, got '" + value + "'");
}

float CommandLine::number(float lowest, float highest) {
    const std::string value = text();
    char* end = nullptr;
    const float parsed = std::strtof(value.c_str(), &end);
    if (end == value.c_str() || *end != '\0' || !(parsed > lowest) || !(parsed <= highest))
        fail(m_flag + " wants a number in (" + shortNumber(lowest) + ", " + shortNumber(highest) +
             "], got '" + value + "'");
    return parsed;
}

BroadPhaseType CommandLine::broadPhase() {
    const std::string value = text();
    try {
        return broadPhaseTypeFromString(value);
    } catch (const Error& e) {
        fail(e.what());
    }
}

int CommandLine::threads() {
    const int count = integer();
    if (count < 1 || count > kMaxWorkers) fail("--threads must be in [1, 64]");
    return count;
}

void commandLineError(std::string_view program, std::string_view usage,
                      const std::string& message) {
    std::cerr << program << ": " << message << "\n" << usage;
    std::exit(2);
}

std::optional<int> parseInt(const std::string& text) {
    try {
        std::size_t used = 0;
        const int parsed = std::stoi(text, &used);
        if (used == text.size()) return parsed;
    } catch (const std::exception&) {
        // not a number, or out of int's range
    }
    return std::nullopt;
}

} // namespace rigid2d::demos
