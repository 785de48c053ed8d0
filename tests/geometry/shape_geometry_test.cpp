// Shapes as the narrow phase and queries hold them, and their world-frame bounds against
// hand-computed boxes.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>

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

namespace {
bool sameBits(const AABB& a, const AABB& b) {
    return std::bit_cast<std::array<std::uint32_t, 4>>(a) ==
           std::bit_cast<std::array<std::uint32_t, 4>>(b);
}
} // namespace

// boundsOf takes a shortcut for boxes (and parallelograms) and capsules centred on their frame's
// origin: it must give the bounds of their vertices bit for bit, or worlds would differ from
// before it, and boxes made off centre must still be bounded by every vertex.
TEST_CASE(
    "shape geometry: centred boxes and capsules are bounded bit for bit as vertex by vertex") {
    const Vec2 skew[2] = {{0.7f, -0.3f}, {0.2f, 0.45f}}; // a parallelogram's half diagonals
    const Polygon shapes[] = {
        makeBox({0.5f, 0.5f}),
        makeBox({0.125f, 2.0f}),
        makeBox({1.0f, 0.5f}, {}, 0.3f), // turned in its frame, still about the origin
        makePolygon(std::array{skew[0], skew[1], -skew[0], -skew[1]}),
        makeCapsulePolygon({{-1.0f, 0.0f}, {1.0f, 0.0f}, 0.25f}),
        makeCapsulePolygon({{0.3f, -0.7f}, {-0.3f, 0.7f}, 0.1f}),
        makeBox({0.5f, 0.25f}, {0.1f, 0.0f}),                    // off centre: every vertex
        makeCapsulePolygon({{0.0f, 0.0f}, {1.0f, 0.0f}, 0.25f}), // off centre: every vertex
        makeSegmentPolygon({{-1.0f, 0.0f}, {1.0f, 0.0f}}),       // no radius: every vertex
    };
    const Vec2 positions[] = {
        {0.0f, 0.0f}, {-0.0f, -0.0f}, {3.25f, -7.5f}, {1e6f, -2e5f}, {-1e-30f, 1e-30f}};
    std::uint32_t seed = 12345;
    const auto nextAngle = [&] {
        seed = seed * 1664525u + 1013904223u;
        return static_cast<float>(seed >> 8) * (6.2831853f / 16777216.0f);
    };
    int checked = 0;
    for (const Polygon& shape : shapes) {
        for (const Vec2 p : positions) {
            for (int k = 0; k < 64; ++k) {
                // The quarter turns exactly (zero sines and cosines), then random angles.
                const Rot q = k < 4 ? Rot{k == 0   ? 1.0f
                                          : k == 2 ? -1.0f
                                                   : 0.0f,
                                          k == 1   ? 1.0f
                                          : k == 3 ? -1.0f
                                                   : 0.0f}
                                    : makeRot(nextAngle());
                const Transform xf{p, q};
                CHECK(sameBits(boundsOf(shape, xf), boundsOfVertices(shape, xf)));
                ++checked;
            }
        }
    }
    CHECK(checked == 9 * 5 * 64);
}
