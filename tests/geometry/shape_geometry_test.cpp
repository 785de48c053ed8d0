// Shapes as the narrow phase and queries hold them, and their world-frame bounds against
// hand-computed boxes.
#include <doctest/doctest.h>

#include "geometry/shape_geometry.hpp"
#include "rigid2d/geometry.hpp"

using namespace rigid2d;
using namespace rigid2d::detail;

namespace {
constexpr float kPi = 3.14159265f;
Transform at(Vec2 p, float angle = 0.0f) { return {p, makeRot(angle)}; }

void checkBox(const AABB& box, Vec2 lower, Vec2 upper) {
    CHECK(box.lower.x == doctest::Approx(lower.x));
    CHECK(box.lower.y == doctest::Approx(lower.y));
    CHECK(box.upper.x == doctest::Approx(upper.x));
    CHECK(box.upper.y == doctest::Approx(upper.y));
}
} // namespace

TEST_CASE("shape geometry: capsules and segments are two-vertex polygons") {
    const Polygon p = makeCapsulePolygon({{-1, 0}, {1, 0}, 0.25f});
    REQUIRE(p.count == 2);
    CHECK(p.normals[0].y == doctest::Approx(-1.0f));
    CHECK(p.normals[1].y == doctest::Approx(1.0f));
    CHECK(p.radius == 0.25f);
    const ShapeGeometry s = makeGeometry(Segment{{0, 0}, {0, 2}});
    CHECK(s.type == ShapeType::Segment);
    CHECK(s.polygon.count == 2);
    CHECK(s.polygon.radius == 0.0f);
    CHECK(s.polygon.centroid.y == doctest::Approx(1.0f));
    const ShapeGeometry b = makeGeometry(Box{{1, 2}, {0.5f, 0.25f}});
    CHECK(b.type == ShapeType::Box);
    CHECK(b.polygon.count == 4);
    CHECK(b.polygon.centroid.x == 1.0f);
}

TEST_CASE("shape geometry: bounds of every kind under a transform") {
    checkBox(boundsOf(makeGeometry(Circle{{1, 0}, 0.5f}), at({2, 3}, 0.5f * kPi)), {1.5f, 3.5f},
             {2.5f, 4.5f});
    // A 2 x 1 box turned 90 degrees is 1 x 2.
    checkBox(boundsOf(makeGeometry(Box{{0, 0}, {1.0f, 0.5f}}), at({0, 0}, 0.5f * kPi)),
             {-0.5f, -1.0f}, {0.5f, 1.0f});
    // A unit box turned 45 degrees reaches sqrt(2)/2; rounded by 0.1 it reaches 0.1 more.
    Polygon soft = makeBox({0.5f, 0.5f});
    soft.radius = 0.1f;
    checkBox(boundsOf(makeGeometry(soft), at({1, 1}, 0.25f * kPi)),
             {1 - 0.80710678f, 1 - 0.80710678f}, {1 + 0.80710678f, 1 + 0.80710678f});
    checkBox(boundsOf(makeGeometry(Capsule{{0, -1}, {0, 1}, 0.25f}), at({0, 0}, 0.5f * kPi)),
             {-1.25f, -0.25f}, {1.25f, 0.25f});
    checkBox(boundsOf(makeGeometry(Segment{{-1, 0}, {1, 0}}), at({0, 5}, 0.25f * kPi)),
             {-0.70710678f, 5 - 0.70710678f}, {0.70710678f, 5 + 0.70710678f});
}
