// A ray's span over cells: its bounds pad the ray by a cell and the rounding of its coordinates,
// and stay finite for a ray near the float's reach over big cells (found by the api_ops fuzzer
// under float traps).
#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>

#include "broadphase/cells/cell_ray.hpp"

using namespace rigid2d;

TEST_CASE("cell ray: bounds hold the ray padded by a cell") {
    const detail::RaySpan span = detail::raySpan({1.0f, 2.0f}, {4.0f, -2.0f}, 0.5f, 0.25f);
    CHECK(span.bounds.lower.x <= 1.0f - 0.25f);
    CHECK(span.bounds.upper.x >= 3.0f + 0.25f);
    CHECK(span.bounds.lower.y <= 1.0f - 0.25f);
    CHECK(span.bounds.upper.y >= 2.0f + 0.25f);
    CHECK(span.bounds.upper.x < 3.3f); // no more than the cell and the rounding
}

TEST_CASE("cell ray: a ray near the float's reach over big cells has finite bounds") {
    const detail::RaySpan span = detail::raySpan({-3e38f, 3e38f}, {1e38f, 0.0f}, 1.0f, 1e38f);
    CHECK(std::isfinite(span.bounds.lower.x));
    CHECK(std::isfinite(span.bounds.upper.y));
    CHECK(span.bounds.lower.x == -FLT_MAX);
    CHECK(span.bounds.upper.y == FLT_MAX);
    CHECK(span.bounds.upper.x >= -2e38f + 1e38f);
    // Its cell estimate is capped, not an overflow.
    const detail::CellMapping cells(1e38f);
    CHECK(detail::rayCellEstimate(cells, detail::raySpan({0, 0}, {1, 1}, 1.0f, FLT_MAX)) > 0);
}

TEST_CASE("cell ray: a walk over cells near the float's largest size stays within the clamp") {
    // Cells 3e38 m wide: the pad is the float's largest value, and padding the minor span in
    // floats overflowed (found by the api_ops fuzzer under float traps).
    const detail::CellMapping mapping({0.0f, 0.0f}, 3e38f, {-1, -1, 1, 1});
    const detail::RaySpan span = detail::raySpan({1e38f, 0.0f}, {1e38f, 1e38f}, 1.0f, 3e38f);
    int cells = 0;
    bool origin = false;
    detail::forEachRayCell(mapping, span, [&](std::int32_t x, std::int32_t y) {
        CHECK(std::abs(x) <= 1);
        CHECK(std::abs(y) <= 1);
        origin = origin || (x == 0 && y == 0);
        ++cells;
    });
    CHECK(origin);
    CHECK(cells <= 9);
}
