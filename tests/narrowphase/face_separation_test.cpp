// The separating-axis search: the parallelogram shortcut agrees with the vertex search (the same
// separation up to rounding, a face that separates as much) for boxes of any size, turn and
// placement, and only parallelograms take it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include "narrowphase/face_separation.hpp"
#include "rigid2d/geometry.hpp"

using namespace rigid2d;
using namespace rigid2d::detail;

namespace {
// How far `other` lies outside face `edge` of `poly`, by its vertices.
float separationOfFace(const Polygon& poly, int edge, const Polygon& other) {
    float s = INFINITY;
    for (int j = 0; j < other.count; ++j)
        s = std::min(s, dot(poly.normals[edge], other.vertices[j] - poly.vertices[edge]));
    return s;
}
} // namespace

TEST_CASE("face separation: the parallelogram shortcut agrees with the vertex search") {
    std::mt19937 random(7);
    std::uniform_real_distribution<float> size(0.01f, 20.0f), angle(-3.2f, 3.2f), unit(-1.0f, 1.0f);
    int sameFace = 0, cases = 0;
    for (int trial = 0; trial < 20000; ++trial) {
        const Vec2 halfA{size(random), size(random)}, halfB{size(random), size(random)};
        const Polygon a = makeBox(halfA, {0.0f, 0.0f}, angle(random));
        // B anywhere from deep inside A to a little beyond its reach.
        const float reach = std::hypot(halfA.x, halfA.y) + std::hypot(halfB.x, halfB.y);
        const Vec2 centre{1.1f * reach * unit(random), 1.1f * reach * unit(random)};
        const Polygon b = makeBox(halfB, centre, angle(random));
        REQUIRE(isParallelogram(a));
        REQUIRE(isParallelogram(b));
        const float tolerance = 1e-5f * (reach + std::hypot(centre.x, centre.y));
        for (const auto& [p, q] : {std::pair{&a, &b}, std::pair{&b, &a}}) {
            const FaceSeparation slow = maxSeparation(*p, *q);
            const FaceSeparation fast = maxSeparationOfParallelograms(*p, *q);
            CHECK(std::fabs(fast.separation - slow.separation) <= tolerance);
            // Where two faces separate equally up to rounding either may win.
            CHECK(std::fabs(separationOfFace(*p, fast.edge, *q) - slow.separation) <= tolerance);
            sameFace += fast.edge == slow.edge ? 1 : 0;
            ++cases;
        }
    }
    CHECK(sameFace > cases - cases / 100);
}

TEST_CASE("face separation: only parallelograms take the shortcut") {
    CHECK(isParallelogram(makeBox({1.0f, 0.2f}, {3.0f, -1.0f}, 0.7f)));
    // A rhombus is one too: its vertices are still c +- u +- v.
    CHECK(isParallelogram(makePolygon(std::vector<Vec2>{{0, 0}, {2, 0}, {3, 1}, {1, 1}})));
    CHECK_FALSE(isParallelogram(makePolygon(std::vector<Vec2>{{0, 0}, {2, 0}, {2.5f, 1}, {1, 1}})));
    CHECK_FALSE(isParallelogram(makePolygon(std::vector<Vec2>{{0, 0}, {2, 0}, {1, 1}})));
}
