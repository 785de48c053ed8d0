#include <doctest/doctest.h>

#include <cmath>

#include "geometry/shape_queries.hpp"

using namespace rigid2d;
using detail::SegmentHit;

namespace {

constexpr float kTolerance = 1e-5f;

void checkHit(const SegmentHit& hit, float fraction, Vec2 point, Vec2 normal) {
    CHECK(hit.fraction == doctest::Approx(fraction).epsilon(kTolerance));
    CHECK(hit.point.x == doctest::Approx(point.x).epsilon(kTolerance));
    CHECK(hit.point.y == doctest::Approx(point.y).epsilon(kTolerance));
    CHECK(hit.normal.x == doctest::Approx(normal.x).epsilon(kTolerance));
    CHECK(hit.normal.y == doctest::Approx(normal.y).epsilon(kTolerance));
}

} // namespace

TEST_CASE("castSegmentAtCircle hits head-on at the analytic fraction and normal") {
    SegmentHit hit;
    // Circle of radius 1 at (5, 0); segment from the origin 10 m along +x: enters at x = 4.
    REQUIRE(detail::castSegmentAtCircle({5, 0}, 1, {0, 0}, {10, 0}, 1, hit));
    checkHit(hit, 0.4f, {4, 0}, {-1, 0});
    // Off-centre: y = 0.6 enters where x = 5 - 0.8.
    REQUIRE(detail::castSegmentAtCircle({5, 0}, 1, {0, 0.6f}, {10, 0}, 1, hit));
    checkHit(hit, 0.42f, {4.2f, 0.6f}, {-0.8f, 0.6f});
}

TEST_CASE("castSegmentAtCircle: tangent, miss, behind, inside, zero translation, clipping") {
    SegmentHit hit;
    // Grazing at y = radius touches the top point exactly.
    REQUIRE(detail::castSegmentAtCircle({5, 0}, 1, {0, 1}, {10, 0}, 1, hit));
    checkHit(hit, 0.5f, {5, 1}, {0, 1});
    CHECK_FALSE(detail::castSegmentAtCircle({5, 0}, 1, {0, 1.001f}, {10, 0}, 1, hit));
    // Moving away from a circle behind the origin.
    CHECK_FALSE(detail::castSegmentAtCircle({-5, 0}, 1, {0, 0}, {10, 0}, 1, hit));
    // Starting inside or on the surface: no hit, so a body can cast out of itself.
    CHECK_FALSE(detail::castSegmentAtCircle({0, 0}, 1, {0.5f, 0}, {10, 0}, 1, hit));
    CHECK_FALSE(detail::castSegmentAtCircle({0, 0}, 1, {-1, 0}, {10, 0}, 1, hit));
    CHECK_FALSE(detail::castSegmentAtCircle({5, 0}, 1, {0, 0}, {0, 0}, 1, hit));
    // maxFraction clips: the hit at 0.4 is beyond 0.39, within 0.4.
    CHECK_FALSE(detail::castSegmentAtCircle({5, 0}, 1, {0, 0}, {10, 0}, 0.39f, hit));
    CHECK(detail::castSegmentAtCircle({5, 0}, 1, {0, 0}, {10, 0}, 0.4f, hit));
    // A short segment that stops before the circle.
    CHECK_FALSE(detail::castSegmentAtCircle({5, 0}, 1, {0, 0}, {3.9f, 0}, 1, hit));
}

TEST_CASE("castSegmentAtCircle stays accurate for a tiny circle far along a long segment") {
    SegmentHit hit;
    REQUIRE(detail::castSegmentAtCircle({1000, 0}, 0.01f, {0, 0}, {2000, 0}, 1, hit));
    CHECK(hit.point.x == doctest::Approx(999.99f).epsilon(1e-6));
    CHECK(hit.normal.x == doctest::Approx(-1.0f));
}

TEST_CASE("castSegmentAtCircle near the float's reach: no overflow, the same fraction as scaled") {
    // Squared lengths of 3e38 overflow a float (a trap under the tests' float traps; found by the
    // fuzzer); the cast is scale-free, so it must give the fraction of the same cast at unit size.
    SegmentHit hit;
    REQUIRE(detail::castSegmentAtCircle({2e38f, 0}, 1e37f, {-1e38f, 0}, {3.4e38f, 0}, 1, hit));
    SegmentHit unit;
    REQUIRE(detail::castSegmentAtCircle({2.0f, 0}, 0.1f, {-1.0f, 0}, {3.4f, 0}, 1, unit));
    CHECK(hit.fraction == doctest::Approx(unit.fraction).epsilon(1e-6));
    CHECK(hit.normal.x == doctest::Approx(-1.0f));
    CHECK_FALSE(detail::castSegmentAtCircle({0, 3e38f}, 1, {0, -3e38f}, {1e-30f, 3.4e38f}, 1, hit));
}

TEST_CASE("castSegmentAtBox hits each face with its outward normal") {
    const AABB box{{1, -1}, {3, 1}};
    SegmentHit hit;
    REQUIRE(detail::castSegmentAtBox(box, {0, 0}, {4, 0}, 1, hit));
    checkHit(hit, 0.25f, {1, 0}, {-1, 0});
    REQUIRE(detail::castSegmentAtBox(box, {4, 0.5f}, {-4, 0}, 1, hit));
    checkHit(hit, 0.25f, {3, 0.5f}, {1, 0});
    REQUIRE(detail::castSegmentAtBox(box, {2, 5}, {0, -8}, 1, hit));
    checkHit(hit, 0.5f, {2, 1}, {0, 1});
    REQUIRE(detail::castSegmentAtBox(box, {2, -3}, {0, 4}, 1, hit));
    checkHit(hit, 0.5f, {2, -1}, {0, -1});
    // Diagonal: enters the x slab at t = 0.25 and the y slab at t = 0.5; the y face is crossed
    // last.
    REQUIRE(detail::castSegmentAtBox(box, {0, 3}, {4, -4}, 1, hit));
    checkHit(hit, 0.5f, {2, 1}, {0, 1});
}

TEST_CASE("castSegmentAtBox with a denormal or far translation: no overflow, the same hit") {
    // 1 / 1e-40 overflows a float (a trap under the tests' float traps; found by the fuzzer).
    const AABB box{{1, -1}, {3, 1}};
    SegmentHit hit;
    REQUIRE(detail::castSegmentAtBox(box, {0, 0}, {4, 1e-40f}, 1, hit));
    checkHit(hit, 0.25f, {1, 0}, {-1, 0});
    CHECK_FALSE(detail::castSegmentAtBox(box, {0, 5}, {4, -1e-40f}, 1, hit));
    const AABB far{{-3e38f, -3e38f}, {3e38f, -2e38f}};
    REQUIRE(detail::castSegmentAtBox(far, {0, 1e38f}, {1e-40f, -3.4e38f}, 1, hit));
    CHECK(hit.normal.y == 1.0f);
    CHECK(hit.point.y == -2e38f);
}

TEST_CASE("castSegmentAtBox: corner tie, grazing edge, inside, zero translation, clipping") {
    const AABB box{{0, 0}, {1, 1}};
    SegmentHit hit;
    // Exactly through the corner (1, 1) at 45 degrees: both slabs entered at once, x wins the tie.
    REQUIRE(detail::castSegmentAtBox(box, {2, 2}, {-2, -2}, 1, hit));
    checkHit(hit, 0.5f, {1, 1}, {1, 0});
    // Sliding along the top edge (closed box) touches the corner first.
    REQUIRE(detail::castSegmentAtBox(box, {-1, 1}, {4, 0}, 1, hit));
    checkHit(hit, 0.25f, {0, 1}, {-1, 0});
    CHECK_FALSE(detail::castSegmentAtBox(box, {-1, 1.001f}, {4, 0}, 1, hit));
    // Starting inside or on the surface.
    CHECK_FALSE(detail::castSegmentAtBox(box, {0.5f, 0.5f}, {4, 0}, 1, hit));
    CHECK_FALSE(detail::castSegmentAtBox(box, {0, 0.5f}, {-4, 0}, 1, hit));
    CHECK_FALSE(detail::castSegmentAtBox(box, {-1, 0.5f}, {0, 0}, 1, hit));
    // Pointing away, and passing beside.
    CHECK_FALSE(detail::castSegmentAtBox(box, {-1, 0.5f}, {-4, 0}, 1, hit));
    CHECK_FALSE(detail::castSegmentAtBox(box, {-1, 2}, {4, 0.5f}, 1, hit));
    // maxFraction clips at the hit fraction 0.25.
    CHECK_FALSE(detail::castSegmentAtBox(box, {-1, 0.5f}, {4, 0}, 0.2f, hit));
    CHECK(detail::castSegmentAtBox(box, {-1, 0.5f}, {4, 0}, 0.25f, hit));
}

TEST_CASE("circleOverlapsBox: faces, corners, touching counts, inside") {
    const AABB box{{0, 0}, {2, 1}};
    CHECK(detail::circleOverlapsBox({1, 0.5f}, 0.1f, box)); // centre inside
    CHECK(detail::circleOverlapsBox({3, 0.5f}, 1.0f, box)); // touches the right face
    CHECK_FALSE(detail::circleOverlapsBox({3.01f, 0.5f}, 1.0f, box));
    // Corner (2, 1): the centre at 45 degrees at distance sqrt(0.5) ~ 0.7071.
    CHECK(detail::circleOverlapsBox({2.5f, 1.5f}, 0.71f, box));
    CHECK_FALSE(detail::circleOverlapsBox({2.5f, 1.5f}, 0.70f, box));
    // Inside the corner square of the bounding box but outside the circle's reach.
    CHECK_FALSE(detail::circleOverlapsBox({2.9f, 1.9f}, 1.0f, box));
}
