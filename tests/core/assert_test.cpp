#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "core/assert.hpp"

namespace {
std::string g_lastMessage;
void recordingHandler(const char*, const char* message, const char*, int) {
    g_lastMessage = message;
}
} // namespace

TEST_CASE("R2D_CHECK routes a failure with its message to the installed handler") {
    auto previous = rigid2d::setAssertHandler(&recordingHandler);
    g_lastMessage.clear();
    R2D_CHECK(1 + 1 == 3, "arithmetic is broken");
    CHECK(g_lastMessage == "arithmetic is broken");
    g_lastMessage.clear();
    R2D_CHECK(1 + 1 == 2, "never reported");
    CHECK(g_lastMessage.empty());
    rigid2d::setAssertHandler(previous);
}

TEST_CASE("the test suite's handler turns a failed check into an exception") {
    CHECK_THROWS_AS(R2D_CHECK(false, "boom"), std::logic_error);
}
