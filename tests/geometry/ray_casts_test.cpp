// Segment casts at every kind against closed forms (faces, rounded corners, capsule caps, both
// sides of a segment), the conventions (inside, behind, too short), and a rounded polygon against
// a fine march along random casts.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "geometry/ray_casts.hpp"
#include "rigid2d/geometry.hpp"

using namespace rigid2d;
using namespace rigid2d::detail;

namespace {
constexpr float kPi = 3.14159265f;
constexpr float kHalfDiagonal = 0.70710678f;
Transform at(Vec2 p, float angle = 0.0f) { return {p, makeRot(angle)}; }

Polygon rounded(Vec2 halfExtents, float radius) {
    Polygon p = makeBox(halfExtents);
    p.radius = radius;
    return p;
}
} // namespace

TEST_CASE("ray casts: sharp polygons hit the face crossed, with its normal") {
    const Polygon box = makeBox({0.5f, 0.5f}, {0, 0}, 0.25f * kPi);
    SegmentHit hit;
    // The upper-left face of the diamond is the line y = x + kHalfDiagonal.
    REQUIRE(castSegmentAtPolygon(box, {-3.0f, 0.1f}, {6.0f, 0.0f}, 1.0f, hit));
    CHECK(hit.point.x == doctest::Approx(0.1f - kHalfDiagonal));
    CHECK(hit.point.y == doctest::Approx(0.1f));
    CHECK(hit.fraction == doctest::Approx((3.0f + 0.1f - kHalfDiagonal) / 6.0f));
    CHECK(hit.normal.x == doctest::Approx(-kHalfDiagonal));
    CHECK(hit.normal.y == doctest::Approx(kHalfDiagonal));

    CHECK_FALSE(castSegmentAtPolygon(box, {-3.0f, 0.1f}, {6.0f, 0.0f}, 0.3f, hit)); // too short
    CHECK_FALSE(castSegmentAtPolygon(box, {0.0f, 0.0f}, {6.0f, 0.0f}, 1.0f, hit));  // inside
    CHECK_FALSE(castSegmentAtPolygon(box, {3.0f, 0.1f}, {6.0f, 0.0f}, 1.0f, hit));  // behind
    CHECK_FALSE(castSegmentAtPolygon(box, {-3.0f, 0.8f}, {6.0f, 0.0f}, 1.0f, hit)); // above
    CHECK_FALSE(castSegmentAtPolygon(box, {-3.0f, 0.1f}, {0.0f, 0.0f}, 1.0f, hit)); // no motion
}

TEST_CASE("ray casts: a ray all but parallel to a face far away misses without overflowing") {
    // Far to the box's right, going down with a drift of 1e-20: the right face's quotient is
    // -1e50, beyond the float range (it overflowed, under the tests' float traps), and the ray
    // misses; the same drift towards the box from its side, and a rounded box, alike.
    const Polygon box = makeBox({1.0f, 1.0f});
    SegmentHit hit;
    CHECK_FALSE(castSegmentAtPolygon(box, {1e30f, 0.5f}, {1e-20f, -1.0f}, 1.0f, hit));
    CHECK_FALSE(castSegmentAtPolygon(box, {1e30f, 0.5f}, {-1e-20f, -1.0f}, 1.0f, hit));
    CHECK_FALSE(castSegmentAtPolygon(rounded({1.0f, 1.0f}, 0.1f), {1e30f, 0.5f}, {-1e-20f, -1.0f},
                                     1.0f, hit));
    // Still hit when the drift does reach it.
    REQUIRE(castSegmentAtPolygon(box, {3.0f, 0.5f}, {-4.0f, 1e-20f}, 1.0f, hit));
    CHECK(hit.fraction == doctest::Approx(0.5f));
}

TEST_CASE("ray casts: rounded polygons hit the pushed-out face or the corner arc") {
    const Polygon box = rounded({0.5f, 0.5f}, 0.1f);
    SegmentHit hit;
    REQUIRE(castSegmentAtPolygon(box, {-3.0f, 0.2f}, {6.0f, 0.0f}, 1.0f, hit));
    CHECK(hit.point.x == doctest::Approx(-0.6f));
    CHECK(hit.fraction == doctest::Approx(2.4f / 6.0f));
    CHECK(hit.normal.x == doctest::Approx(-1.0f));
    CHECK(hit.normal.y == doctest::Approx(0.0f));

    // At y = 0.55 the cast passes the corner (-0.5, 0.5): its arc is at x = -0.5 - sqrt(0.0075).
    const float dx = std::sqrt(0.01f - 0.0025f);
    REQUIRE(castSegmentAtPolygon(box, {-3.0f, 0.55f}, {6.0f, 0.0f}, 1.0f, hit));
    CHECK(hit.point.x == doctest::Approx(-0.5f - dx));
    CHECK(hit.normal.x == doctest::Approx(-dx / 0.1f));
    CHECK(hit.normal.y == doctest::Approx(0.5f));
    CHECK_FALSE(castSegmentAtPolygon(box, {-3.0f, 0.61f}, {6.0f, 0.0f}, 1.0f, hit));
    // Inside the rounding but outside the core: starts inside, no hit.
    CHECK_FALSE(castSegmentAtPolygon(box, {-0.55f, 0.0f}, {6.0f, 0.0f}, 1.0f, hit));
}

TEST_CASE("ray casts: a rounded hexagon agrees with a fine march along random casts") {
    std::vector<Vec2> points;
    for (int k = 0; k < 6; ++k) {
        const float a = static_cast<float>(k) * kPi / 3.0f + 0.3f;
        points.push_back({0.7f * std::cos(a), 0.5f * std::sin(a)});
    }
    const Polygon hex = makePolygon(points, 0.15f);
    // Distance from p to the core (0 inside), the definition the cast must agree with.
    const auto distance = [&](Vec2 p) {
        bool inside = true;
        float best = INFINITY;
        for (int i = 0; i < hex.count; ++i) {
            const Vec2 v = hex.vertices[i];
            const Vec2 e = hex.vertices[(i + 1) % hex.count] - v;
            inside = inside && dot(hex.normals[i], p - v) <= 0.0f;
            const float u = std::fmin(std::fmax(dot(p - v, e) / dot(e, e), 0.0f), 1.0f);
            const Vec2 q = v + u * e - p;
            best = std::fmin(best, std::sqrt(dot(q, q)));
        }
        return inside ? 0.0f : best;
    };
    std::uint32_t state = 12345u;
    const auto random = [&] {
        state = state * 1664525u + 1013904223u;
        return static_cast<float>(state >> 8) / 16777216.0f;
    };
    int hits = 0;
    for (int trial = 0; trial < 200; ++trial) {
        const float a = 2.0f * kPi * random();
        const Vec2 origin{2.0f * std::cos(a), 2.0f * std::sin(a)};
        const Vec2 target{random() - 0.5f, random() - 0.5f};
        const Vec2 translation = 2.0f * (target - origin) + Vec2{0.2f, -0.1f} * random();
        constexpr int kSteps = 20000;
        int first = -1;
        for (int k = 0; k <= kSteps && first < 0; ++k) {
            const float t = static_cast<float>(k) / kSteps;
            if (distance(origin + t * translation) <= hex.radius) first = k;
        }
        SegmentHit hit;
        const bool found = castSegmentAtPolygon(hex, origin, translation, 1.0f, hit);
        CAPTURE(trial);
        REQUIRE(found == (first >= 0));
        if (!found) continue;
        ++hits;
        CHECK(hit.fraction == doctest::Approx(static_cast<float>(first) / kSteps).epsilon(2e-4));
        // On the surface, with the normal pointing away from the nearest core point.
        CHECK(distance(hit.point) == doctest::Approx(hex.radius).epsilon(1e-3));
        const Vec2 inward = hit.point - hex.radius * hit.normal;
        CHECK(distance(inward) == doctest::Approx(0.0f).epsilon(1e-3));
        CHECK(std::sqrt(dot(hit.normal, hit.normal)) == doctest::Approx(1.0f));
    }
    CHECK(hits > 100);
}

TEST_CASE("ray casts: capsules hit the side or the cap") {
    const ShapeGeometry capsule = makeGeometry(Capsule{{0, -1}, {0, 1}, 0.5f});
    SegmentHit hit;
    REQUIRE(castSegmentAtPolygon(capsule.polygon, {3.0f, 0.2f}, {-6.0f, 0.0f}, 1.0f, hit));
    CHECK(hit.point.x == doctest::Approx(0.5f));
    CHECK(hit.normal.x == doctest::Approx(1.0f));
    CHECK(hit.fraction == doctest::Approx(2.5f / 6.0f));
    // Down onto the upper cap at x = 0.3: y = 1 + sqrt(0.25 - 0.09) = 1.4.
    REQUIRE(castSegmentAtPolygon(capsule.polygon, {0.3f, 5.0f}, {0.0f, -10.0f}, 1.0f, hit));
    CHECK(hit.point.y == doctest::Approx(1.4f));
    CHECK(hit.normal.x == doctest::Approx(0.6f));
    CHECK(hit.normal.y == doctest::Approx(0.8f));
    CHECK(hit.fraction == doctest::Approx(0.36f));
    CHECK_FALSE(castSegmentAtPolygon(capsule.polygon, {0.2f, 0.0f}, {6.0f, 0.0f}, 1.0f, hit));
    CHECK_FALSE(castSegmentAtPolygon(capsule.polygon, {0.6f, 5.0f}, {0.0f, -10.0f}, 1.0f, hit));
}

TEST_CASE("ray casts: segments from either side, not along their line") {
    SegmentHit hit;
    REQUIRE(castSegmentAtSegment({-1, 0}, {1, 0}, {0.5f, 2.0f}, {0.0f, -4.0f}, 1.0f, hit));
    CHECK(hit.fraction == doctest::Approx(0.5f));
    CHECK(hit.point.x == doctest::Approx(0.5f));
    CHECK(hit.point.y == doctest::Approx(0.0f));
    CHECK(hit.normal.y == doctest::Approx(1.0f));
    REQUIRE(castSegmentAtSegment({-1, 0}, {1, 0}, {0.5f, -1.0f}, {0.0f, 4.0f}, 1.0f, hit));
    CHECK(hit.fraction == doctest::Approx(0.25f));
    CHECK(hit.normal.y == doctest::Approx(-1.0f));
    CHECK_FALSE(castSegmentAtSegment({-1, 0}, {1, 0}, {1.5f, 2.0f}, {0.0f, -4.0f}, 1.0f, hit));
    CHECK_FALSE(castSegmentAtSegment({-1, 0}, {1, 0}, {-3.0f, 0.0f}, {6.0f, 0.0f}, 1.0f, hit));
    CHECK_FALSE(castSegmentAtSegment({-1, 0}, {1, 0}, {0.5f, 2.0f}, {0.0f, -4.0f}, 0.4f, hit));
}

TEST_CASE("ray casts: shapes placed by a transform, in the world frame") {
    SegmentHit hit;
    // A horizontal capsule turned upright at (5, 0): its side faces +x at x = 5.25.
    const ShapeGeometry capsule = makeGeometry(Capsule{{-1, 0}, {1, 0}, 0.25f});
    REQUIRE(castSegmentAtShape(capsule, at({5, 0}, 0.5f * kPi), {8, 0.5f}, {-4, 0}, 1.0f, hit));
    CHECK(hit.point.x == doctest::Approx(5.25f));
    CHECK(hit.point.y == doctest::Approx(0.5f));
    CHECK(hit.normal.x == doctest::Approx(1.0f));
    CHECK(hit.normal.y == doctest::Approx(0.0f).epsilon(1e-5));

    const ShapeGeometry circle = makeGeometry(Circle{{1, 0}, 0.5f});
    REQUIRE(castSegmentAtShape(circle, at({0, 0}, 0.5f * kPi), {0, 5}, {0, -10}, 1.0f, hit));
    CHECK(hit.point.y == doctest::Approx(1.5f));
    CHECK(hit.fraction == doctest::Approx(0.35f));

    const ShapeGeometry box = makeGeometry(Box{{0, 0}, {1.0f, 0.25f}});
    REQUIRE(castSegmentAtShape(box, at({0, 0}, 0.5f * kPi), {-3, 0.9f}, {6, 0}, 1.0f, hit));
    CHECK(hit.point.x == doctest::Approx(-0.25f));
    CHECK(hit.normal.x == doctest::Approx(-1.0f));

    const ShapeGeometry wall = makeGeometry(Segment{{-1, 0}, {1, 0}});
    REQUIRE(castSegmentAtShape(wall, at({2, 0}, 0.5f * kPi), {0, 0.5f}, {4, 0}, 1.0f, hit));
    CHECK(hit.point.x == doctest::Approx(2.0f));
    CHECK(hit.normal.x == doctest::Approx(-1.0f));
    CHECK(hit.fraction == doctest::Approx(0.5f));
}
