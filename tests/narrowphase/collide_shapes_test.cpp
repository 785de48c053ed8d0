// The [ShapeType][ShapeType] table against hand-computed geometry: every pair of kinds stacked
// with a known gap (normal, separation, midpoint, speculative reach, A/B symmetry, ids under small
// motion), then the cases whose answer is not a straight stack: corners, capsule ends, turned
// shapes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "narrowphase/collide_shapes.hpp"
#include "rigid2d/geometry.hpp"

using namespace rigid2d;
using namespace rigid2d::detail;

namespace {
constexpr float kPi = 3.14159265f;
constexpr float kSin60 = 0.86602540f;

Transform at(Vec2 p, float angle = 0.0f) { return {p, makeRot(angle)}; }

// A kind, its geometry and how far its surface reaches above and below its origin when upright.
struct Kind {
    std::string name;
    ShapeGeometry shape;
    float reach; // same above and below: every shape here is symmetric about y = 0
};

std::vector<Kind> kinds() {
    const float r = 0.5f;
    std::vector<Vec2> hexagon;
    for (int k = 0; k < 6; ++k) {
        const float a = static_cast<float>(k) * kPi / 3.0f;
        hexagon.push_back({r * std::cos(a), r * std::sin(a)});
    }
    return {
        {"circle", makeGeometry(Circle{{0, 0}, 0.5f}), 0.5f},
        {"box", makeGeometry(Box{{0, 0}, {0.6f, 0.4f}}), 0.4f},
        {"rounded hexagon", makeGeometry(makePolygon(hexagon, 0.05f)), r * kSin60 + 0.05f},
        {"capsule", makeGeometry(Capsule{{-0.5f, 0}, {0.5f, 0}, 0.25f}), 0.25f},
        // Short, so that turning it by 1e-3 on a wider shape does not make its own face the better
        // reference (which rightly changes the ids, see the ids test of collide_polygons).
        {"segment", makeGeometry(Segment{{-0.3f, 0}, {0.3f, 0}}), 0.0f},
    };
}

std::vector<int> ids(const Manifold& m) {
    std::vector<int> s;
    for (int k = 0; k < m.pointCount; ++k) s.push_back(m.points[k].id);
    std::sort(s.begin(), s.end());
    return s;
}

std::vector<float> separations(const Manifold& m) {
    std::vector<float> s;
    for (int k = 0; k < m.pointCount; ++k) s.push_back(m.points[k].separation);
    std::sort(s.begin(), s.end());
    return s;
}
} // namespace

TEST_CASE("collideShapes: every pair of kinds stacked with a known gap") {
    const std::vector<Kind> all = kinds();
    for (const Kind& a : all) {
        for (const Kind& b : all) {
            if (a.shape.type == ShapeType::Segment && b.shape.type == ShapeType::Segment) {
                continue;
            }
            CAPTURE(a.name);
            CAPTURE(b.name);
            const Transform xfA = at({0, 0});
            // Off centre, except for two circles whose normal would then lean.
            const bool curved =
                a.shape.type == ShapeType::Circle && b.shape.type == ShapeType::Circle;
            const float x = curved ? 0.0f : 0.1f;
            const auto above = [&](float gap) { return at({x, a.reach + b.reach + gap}); };

            // Overlapping by 0.02: every point 0.02 deep, midway between the surfaces.
            const Manifold m = collideShapes(a.shape, xfA, b.shape, above(-0.02f), 0.0f);
            REQUIRE(m.pointCount >= 1);
            CHECK(m.normal.x == doctest::Approx(0.0f).epsilon(1e-5));
            CHECK(m.normal.y == doctest::Approx(1.0f));
            for (int k = 0; k < m.pointCount; ++k) {
                CHECK(m.points[k].separation == doctest::Approx(-0.02f).epsilon(2e-3));
                CHECK(m.points[k].point.y == doctest::Approx(a.reach - 0.01f).epsilon(1e-3));
            }
            if (m.pointCount == 2) {
                CHECK(m.points[0].id != m.points[1].id);
            }

            // B as A: the same points, the normal turned round.
            const Manifold swapped = collideShapes(b.shape, above(-0.02f), a.shape, xfA, 0.0f);
            REQUIRE(swapped.pointCount == m.pointCount);
            CHECK(swapped.normal.y == doctest::Approx(-1.0f));
            const std::vector<float> s1 = separations(m), s2 = separations(swapped);
            for (std::size_t k = 0; k < s1.size(); ++k) {
                CHECK(s2[k] == doctest::Approx(s1[k]).epsilon(1e-4));
            }

            // 0.01 apart: a speculative point within a margin of 0.02, nothing within 0.005.
            const Manifold near = collideShapes(a.shape, xfA, b.shape, above(0.01f), 0.02f);
            REQUIRE(near.pointCount == m.pointCount);
            for (int k = 0; k < near.pointCount; ++k) {
                CHECK(near.points[k].separation == doctest::Approx(0.01f).epsilon(2e-3));
            }
            CHECK(collideShapes(a.shape, xfA, b.shape, above(0.01f), 0.005f).pointCount == 0);

            // Moved or turned by 1e-3, the same features touch: the same ids.
            const Vec2 moves[] = {{1e-3f, 0}, {-1e-3f, 0}, {0, 1e-3f}, {0, -1e-3f}};
            for (const Vec2 d : moves) {
                const Transform moved{above(-0.02f).p + d, above(-0.02f).q};
                CHECK(ids(collideShapes(a.shape, xfA, b.shape, moved, 0.0f)) == ids(m));
            }
            for (const float turn : {1e-3f, -1e-3f}) {
                const Transform turned = at(above(-0.02f).p, turn);
                CHECK(ids(collideShapes(a.shape, xfA, b.shape, turned, 0.0f)) == ids(m));
            }
        }
    }
}

TEST_CASE("collideShapes: two segments never touch") {
    const ShapeGeometry s = makeGeometry(Segment{{-1, 0}, {1, 0}});
    CHECK(collideShapes(s, at({0, 0}), s, at({0, 0}, 0.5f * kPi), 1.0f).pointCount == 0);
}

TEST_CASE("collideCircles: normal along the centres, point midway, concentric pushes up") {
    const Manifold m =
        collideCircles({{0, 0}, 0.5f}, at({0, 0}), {{0, 0}, 0.6f}, at({0.6f, 0.8f}), 0.0f);
    REQUIRE(m.pointCount == 1);
    CHECK(m.normal.x == doctest::Approx(0.6f));
    CHECK(m.normal.y == doctest::Approx(0.8f));
    CHECK(m.points[0].separation == doctest::Approx(-0.1f));
    // Surfaces at 0.5 n and (1 - 0.6) n along the normal from A's centre: midway at 0.45 n.
    CHECK(m.points[0].point.x == doctest::Approx(0.27f));
    CHECK(m.points[0].point.y == doctest::Approx(0.36f));

    // Offset centres inside turned bodies: the centre (0.5, 0) of B turned 90 degrees is (0, 0.5).
    const Manifold turned = collideCircles({{0, 0}, 0.5f}, at({0, 0}), {{0.5f, 0}, 0.25f},
                                           at({0, 0.5f}, 0.5f * kPi), 0.5f);
    REQUIRE(turned.pointCount == 1);
    CHECK(turned.normal.y == doctest::Approx(1.0f));
    CHECK(turned.points[0].separation == doctest::Approx(0.25f));

    const Manifold same =
        collideCircles({{0, 0}, 0.5f}, at({1, 1}), {{0, 0}, 0.25f}, at({1, 1}), 0.0f);
    REQUIRE(same.pointCount == 1);
    CHECK(same.normal.y == 1.0f);
    CHECK(same.points[0].separation == doctest::Approx(-0.75f));
}

TEST_CASE("collideShapes: a circle at a capsule's end and past a segment's end") {
    // On the capsule's axis beyond center2: pushed along the axis, not across it.
    const ShapeGeometry capsule = makeGeometry(Capsule{{-1, 0}, {1, 0}, 0.25f});
    const ShapeGeometry ball = makeGeometry(Circle{{0, 0}, 0.3f});
    const Manifold end = collideShapes(capsule, at({0, 0}), ball, at({1.5f, 0}), 0.0f);
    REQUIRE(end.pointCount == 1);
    CHECK(end.normal.x == doctest::Approx(1.0f));
    CHECK(end.normal.y == doctest::Approx(0.0f));
    CHECK(end.points[0].separation == doctest::Approx(-0.05f));
    CHECK(end.points[0].point.x == doctest::Approx(1.225f)); // surfaces at 1.25 and 1.2

    // Past the end of a segment: the normal points from the end at the centre.
    const ShapeGeometry ground = makeGeometry(Segment{{-1, 0}, {1, 0}});
    const ShapeGeometry big = makeGeometry(Circle{{0, 0}, 0.6f});
    const Manifold corner = collideShapes(big, at({1.3f, 0.4f}), ground, at({0, 0}), 0.0f);
    REQUIRE(corner.pointCount == 1);
    CHECK(corner.normal.x == doctest::Approx(-0.6f));
    CHECK(corner.normal.y == doctest::Approx(-0.8f));
    CHECK(corner.points[0].separation == doctest::Approx(-0.1f));

    // Against a hexagon's vertex (0.5, 0): 0.3 beyond it, radius 0.35.
    std::vector<Vec2> hexagon;
    for (int k = 0; k < 6; ++k) {
        const float a = static_cast<float>(k) * kPi / 3.0f;
        hexagon.push_back({0.5f * std::cos(a), 0.5f * std::sin(a)});
    }
    const ShapeGeometry hex = makeGeometry(makePolygon(hexagon));
    const Manifold vertex =
        collideShapes(hex, at({0, 0}), makeGeometry(Circle{{0, 0}, 0.35f}), at({0.8f, 0}), 0.0f);
    REQUIRE(vertex.pointCount == 1);
    CHECK(vertex.normal.x == doctest::Approx(1.0f));
    CHECK(vertex.points[0].separation == doctest::Approx(-0.05f));
}

TEST_CASE("collideShapes: turned capsules and boxes on their ends and corners") {
    const ShapeGeometry box = makeGeometry(Box{{0, 0}, {2.0f, 0.5f}});
    const ShapeGeometry capsule = makeGeometry(Capsule{{-0.5f, 0}, {0.5f, 0}, 0.2f});
    // Turned 45 degrees its lower core end is (-0.35355, -0.35355) from its centre.
    const float halfDiagonal = 0.35355339f;
    const Transform tilted = at({0.1f, 0.5f + 0.2f + halfDiagonal - 0.03f}, 0.25f * kPi);
    const Manifold m = collideShapes(box, at({0, 0}), capsule, tilted, 0.0f);
    REQUIRE(m.pointCount == 1);
    CHECK(m.normal.y == doctest::Approx(1.0f));
    CHECK(m.points[0].separation == doctest::Approx(-0.03f).epsilon(1e-3));
    CHECK(m.points[0].point.x == doctest::Approx(0.1f - halfDiagonal));
    CHECK(m.points[0].point.y == doctest::Approx(0.485f));

    // A unit box balanced on a corner on segment ground, 0.02 deep.
    const ShapeGeometry ground = makeGeometry(Segment{{-3, 0}, {3, 0}});
    const ShapeGeometry unit = makeGeometry(Box{{0, 0}, {0.5f, 0.5f}});
    const Transform onCorner = at({0.7f, 0.70710678f - 0.02f}, 0.25f * kPi);
    const Manifold c = collideShapes(ground, at({0, 0}), unit, onCorner, 0.0f);
    REQUIRE(c.pointCount == 1);
    CHECK(c.normal.y == doctest::Approx(1.0f));
    CHECK(c.points[0].separation == doctest::Approx(-0.02f).epsilon(1e-3));
    CHECK(c.points[0].point.x == doctest::Approx(0.7f));

    // Segment ground turned 90 degrees is a wall at x = 0; a box leaning in from the right.
    const Manifold wall = collideShapes(ground, at({0, 0}, 0.5f * kPi), unit, at({0.49f, 0}), 0.0f);
    REQUIRE(wall.pointCount == 2);
    CHECK(std::fabs(wall.normal.x) == doctest::Approx(1.0f));
    for (int k = 0; k < 2; ++k) {
        CHECK(wall.points[k].separation == doctest::Approx(-0.01f).epsilon(1e-3));
    }
}
