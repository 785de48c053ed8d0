// Cell coordinates: floor of the offset over the cell size, clamped; no overflow for a box near
// the float's reach over small cells (found by the api_ops fuzzer under float traps).
#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <limits>

#include "broadphase/cells/cell_coords.hpp"

using namespace rigid2d;
using detail::CellMapping;

TEST_CASE("cell coords: floor of offset over size, clamped at both ends") {
    const CellMapping mapping({1.0f, -2.0f}, 0.5f, {-10, -10, 10, 10});
    CHECK(mapping.column(1.0f) == 0);
    CHECK(mapping.column(3.2f) == 4);
    CHECK(mapping.column(0.9f) == -1);
    CHECK(mapping.row(-2.0f) == 0);
    CHECK(mapping.row(100.0f) == 10);
    CHECK(mapping.row(-100.0f) == -10);
}

TEST_CASE("cell coords: far and infinite coordinates map to the clamp without overflow") {
    const CellMapping hash(1e-3f); // 1000 cells a metre
    CHECK(hash.column(FLT_MAX) == detail::kCellCoordLimit);
    CHECK(hash.row(-FLT_MAX) == -detail::kCellCoordLimit);
    CHECK(hash.row(std::numeric_limits<float>::infinity()) == detail::kCellCoordLimit);
    // Near the reach the cell is the clamp or the floor, as the plain quotient gives.
    for (const float scale : {0.5f, 0.999f, 1.0f, 1.001f, 2.0f}) {
        const float y = scale * static_cast<float>(detail::kCellCoordLimit) * 1e-3f;
        const double cell = std::floor(static_cast<double>(y * (1.0f / 1e-3f)));
        const double expected = std::min(cell, double{detail::kCellCoordLimit});
        CHECK(hash.row(y) == static_cast<std::int32_t>(expected));
    }
}
