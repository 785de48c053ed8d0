// Shape casts against closed forms (a ball onto a box, a turned box onto its corner, a capsule at
// a wall), the conventions (start overlapping, moving away, too short, missing), the stop being
// just before the touch, and the overlap test at its boundary.
#include <doctest/doctest.h>

#include "geometry/shape_cast.hpp"
#include "rigid2d/geometry.hpp"

using namespace rigid2d;
using namespace rigid2d::detail;

namespace {
constexpr float kPi = 3.14159265f;
Transform at(Vec2 p, float angle = 0.0f) { return {p, makeRot(angle)}; }
DistanceProxy proxyOf(const ShapeGeometry& g) { return makeProxy(g); }
} // namespace

TEST_CASE("castShape: first touch of a ball, a turned box and a capsule") {
    const DistanceProxy ground = proxyOf(makeGeometry(Box{{0, 0}, {2.0f, 0.5f}}));
    const DistanceProxy ball = proxyOf(makeGeometry(Circle{{0, 0}, 0.5f}));
    SegmentHit hit;
    // The ball's centre reaches y = 1 after 2 of the 5 m.
    REQUIRE(castShape(ground, at({0, 0}), ball, at({0.3f, 3.0f}), {0, -5}, 1.0f, hit));
    CHECK(hit.fraction == doctest::Approx(0.4f).epsilon(1e-4));
    CHECK(hit.point.x == doctest::Approx(0.3f));
    CHECK(hit.point.y == doctest::Approx(0.5f));
    CHECK(hit.normal.x == doctest::Approx(0.0f).epsilon(1e-5));
    CHECK(hit.normal.y == doctest::Approx(1.0f));

    // A unit box on its corner touches when its centre is sqrt(2)/2 above the top face.
    const DistanceProxy box = proxyOf(makeGeometry(Box{{0, 0}, {0.5f, 0.5f}}));
    REQUIRE(castShape(ground, at({0, 0}), box, at({-0.4f, 3.0f}, 0.25f * kPi), {0, -5}, 1.0f, hit));
    CHECK(hit.fraction == doctest::Approx((3.0f - 0.5f - 0.70710678f) / 5.0f).epsilon(1e-4));
    CHECK(hit.point.x == doctest::Approx(-0.4f));
    CHECK(hit.normal.y == doctest::Approx(1.0f));

    // A capsule swept along its axis at a wall (a segment turned upright at x = 2).
    const DistanceProxy wall = proxyOf(makeGeometry(Segment{{0, -1}, {0, 1}}));
    const DistanceProxy capsule = proxyOf(makeGeometry(Capsule{{-0.5f, 0}, {0.5f, 0}, 0.25f}));
    REQUIRE(castShape(wall, at({2, 0}), capsule, at({0, 0.3f}), {4, 0}, 1.0f, hit));
    CHECK(hit.fraction == doctest::Approx(1.25f / 4.0f).epsilon(1e-4));
    CHECK(hit.point.x == doctest::Approx(2.0f));
    CHECK(hit.point.y == doctest::Approx(0.3f));
    CHECK(hit.normal.x == doctest::Approx(-1.0f));

    // Just before the touch, never past it.
    const Transform stopped{Vec2{0, 0.3f} + hit.fraction * Vec2{4, 0}, makeRot(0)};
    CHECK_FALSE(shapesOverlap(wall, at({2, 0}), capsule, stopped));
    const Transform further{stopped.p + Vec2{1e-3f, 0}, stopped.q};
    CHECK(shapesOverlap(wall, at({2, 0}), capsule, further));
}

TEST_CASE("castShape: no hit when starting inside, moving away, too short or passing by") {
    const DistanceProxy ground = proxyOf(makeGeometry(Box{{0, 0}, {2.0f, 0.5f}}));
    const DistanceProxy ball = proxyOf(makeGeometry(Circle{{0, 0}, 0.5f}));
    SegmentHit hit;
    CHECK_FALSE(castShape(ground, at({0, 0}), ball, at({0, 0.9f}), {0, -5}, 1.0f, hit));
    CHECK_FALSE(castShape(ground, at({0, 0}), ball, at({0, 3.0f}), {0, 5}, 1.0f, hit));
    CHECK_FALSE(castShape(ground, at({0, 0}), ball, at({0, 3.0f}), {0, -5}, 0.39f, hit));
    CHECK_FALSE(castShape(ground, at({0, 0}), ball, at({3.0f, 3.0f}), {0, -5}, 1.0f, hit));
    CHECK_FALSE(castShape(ground, at({0, 0}), ball, at({0, 3.0f}), {0, 0}, 1.0f, hit));
    // Grazing past the corner (2, 0.5) at 0.01 beyond the ball's reach.
    CHECK_FALSE(castShape(ground, at({0, 0}), ball, at({2.51f, 3.0f}), {0, -6}, 1.0f, hit));
    REQUIRE(castShape(ground, at({0, 0}), ball, at({2.49f, 3.0f}), {0, -6}, 1.0f, hit));
    CHECK(hit.point.x == doctest::Approx(2.0f).epsilon(1e-4));
}

TEST_CASE("shapesOverlap: rounded boxes overlap while their roundings touch") {
    Polygon soft = makeBox({0.5f, 0.5f});
    soft.radius = 0.1f;
    const DistanceProxy p = proxyOf(makeGeometry(soft));
    CHECK(shapesOverlap(p, at({0, 0}), p, at({1.19f, 0})));
    CHECK_FALSE(shapesOverlap(p, at({0, 0}), p, at({1.21f, 0})));
    CHECK(shapesOverlap(p, at({0, 0}), p, at({0.5f, 0.5f}, 0.3f)));
}
