#include <doctest/doctest.h>

#include <limits>
#include <string>

#include "core/check.hpp"
#include "rigid2d/error.hpp"

using namespace rigid2d;

TEST_CASE("refusals name the function and the field, and are rigid2d::Error") {
    try {
        detail::require(false, "World::createCircle", "circle.radius", "must be > 0", -1.0f);
        FAIL("no throw");
    } catch (const Error& e) {
        CHECK(std::string(e.what()) == "World::createCircle: circle.radius must be > 0, got -1");
    }
    CHECK_THROWS_AS(detail::requireFinite("f", "x", std::numeric_limits<float>::quiet_NaN()),
                    std::invalid_argument);
    CHECK_NOTHROW(detail::requireFinite("f", "x", 1.0f));
}

TEST_CASE("requireValidBox refuses NaN, infinity and inverted boxes, accepts zero-area") {
    const float inf = std::numeric_limits<float>::infinity();
    CHECK_THROWS_WITH(detail::requireValidBox("f", "box", AABB{{0, 0}, {-1, 1}}),
                      doctest::Contains("box must have lower <= upper"));
    CHECK_THROWS_WITH(detail::requireValidBox("f", "box", AABB{{0, 0}, {inf, 1}}),
                      doctest::Contains("box.upper must be finite"));
    CHECK_NOTHROW(detail::requireValidBox("f", "box", AABB{{1, 1}, {1, 1}}));
}
