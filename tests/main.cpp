#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "rigid2d/assert.hpp"
#include "rigid2d/log.hpp"

namespace {
// A broken invariant becomes a test failure with the assert's message, not an abort.
void throwingAssertHandler(const char* condition, const char* message, const char* file, int line) {
    throw std::logic_error(std::string("rigid2d assert: ") + message + " (" + condition + ") at " +
                           file + ":" + std::to_string(line));
}
} // namespace

int main(int argc, char** argv) {
    rigid2d::setAssertHandler(&throwingAssertHandler);
    // Refusals are expected by many tests; keep the output readable.
    rigid2d::setLogLevel(rigid2d::LogLevel::Off);
    doctest::Context context(argc, argv);
    return context.run();
}
