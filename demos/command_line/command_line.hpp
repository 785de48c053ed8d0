#pragma once
// Reads the flags of the demo programs. A bad command line prints the message and the program's
// usage to stderr and exits with code 2; --help / -h print the usage and exit 0.

#include <optional>
#include <string>
#include <string_view>

#include "rigid2d/broad_phase.hpp"
#include "rigid2d/types.hpp"

namespace rigid2d::demos {

/// Prints "program: message" and the usage to stderr, then exits with code 2.
[[noreturn]] void commandLineError(std::string_view program, std::string_view usage,
                                   const std::string& message);
/// The whole of `text` as an int, or nothing.
[[nodiscard]] std::optional<int> parseInt(const std::string& text);

class CommandLine {
public:
    CommandLine(std::string_view program, std::string_view usage, int argc, char** argv);

    /// Moves to the next argument; false after the last one. Handles --help itself.
    bool next();
    [[nodiscard]] const std::string& flag() const noexcept { return m_flag; }

    /// The value after the current flag.
    std::string text();
    int integer();
    float number(float lowest, float highest); ///< finite, in (lowest, highest]
    BroadPhaseType broadPhase();
    /// The value of --threads: a worker count in [1, kMaxWorkers].
    int threads();

    [[noreturn]] void fail(const std::string& message) const {
        commandLineError(m_program, m_usage, message);
    }
    [[noreturn]] void unknown() const { fail("unknown argument '" + m_flag + "'"); }

private:
    std::string_view m_program;
    std::string_view m_usage;
    int m_argc;
    char** m_argv;
    int m_index = 0;
    std::string m_flag;
};

} // namespace rigid2d::demos
