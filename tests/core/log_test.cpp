#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/check.hpp"
#include "core/log.hpp"
#include "rigid2d/log.hpp"

using namespace rigid2d;

TEST_CASE("a user sink receives refusals once, and the level filters") {
    std::vector<std::pair<LogLevel, std::string>> received;
    setLogSink([&](LogLevel level, std::string_view text) {
        received.emplace_back(level, std::string(text));
    });
    setLogLevel(LogLevel::Warn);

    CHECK_THROWS(detail::require(false, "F", "field", "must be true"));
    REQUIRE(received.size() == 1);
    CHECK(received[0].first == LogLevel::Error);
    CHECK(received[0].second == "F: field must be true");

    detail::log(LogLevel::Info, "below the level");
    CHECK(received.size() == 1);

    setLogSink({});
    setLogLevel(LogLevel::Off);
}
