// Polygon, capsule, segment and circle manifolds against hand-computed geometry: normals from A to
// B, separations between the rounded surfaces, midpoints, speculative reach, symmetry under
// swapping A and B, and feature ids that survive small motions.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "broadphase/scenarios.hpp"
#include "narrowphase/collide_polygons.hpp"
#include "rigid2d/error.hpp"
#include "rigid2d/geometry.hpp"

using namespace rigid2d;
using namespace rigid2d::detail;

namespace {
constexpr float kPi = 3.14159265f;
constexpr float kHalfDiagonal = 0.70710678f; // corner of a unit box turned 45 degrees

Transform at(Vec2 p, float angle = 0.0f) { return {p, makeRot(angle)}; }

std::vector<float> separations(const Manifold& m) {
    std::vector<float> s;
    for (int k = 0; k < m.pointCount; ++k) {
        s.push_back(m.points[k].separation);
    }
    std::sort(s.begin(), s.end());
    return s;
}

std::vector<int> ids(const Manifold& m) {
    std::vector<int> s;
    for (int k = 0; k < m.pointCount; ++k) {
        s.push_back(m.points[k].id);
    }
    std::sort(s.begin(), s.end());
    return s;
}

std::vector<float> xs(const Manifold& m) {
    std::vector<float> s;
    for (int k = 0; k < m.pointCount; ++k) {
        s.push_back(m.points[k].point.x);
    }
    std::sort(s.begin(), s.end());
    return s;
}

Polygon rounded(Vec2 halfExtents, float radius) {
    Polygon p = makeBox(halfExtents);
    p.radius = radius;
    return p;
}
} // namespace

TEST_CASE("polygons: two unit boxes resting face on face") {
    const Polygon box = makeBox({0.5f, 0.5f});
    const Manifold m = collidePolygons(box, at({0, 0}), box, at({0, 0.99f}), 0.0f);
    REQUIRE(m.pointCount == 2);
    CHECK(m.normal.x == doctest::Approx(0.0f));
    CHECK(m.normal.y == doctest::Approx(1.0f));
    for (int k = 0; k < 2; ++k) {
        CHECK(m.points[k].separation == doctest::Approx(-0.01f).epsilon(1e-3));
        CHECK(m.points[k].point.y == doctest::Approx(0.495f));
    }
    const std::vector<float> x = xs(m);
    CHECK(x[0] == doctest::Approx(-0.5f));
    CHECK(x[1] == doctest::Approx(0.5f));
    CHECK(m.points[0].id != m.points[1].id);
}

TEST_CASE("polygons: a box turned 45 degrees with a corner 0.05 into a flat box") {
    const Polygon ground = makeBox({2.0f, 0.5f});
    const Polygon box = makeBox({0.5f, 0.5f});
    const Transform xfB = at({0, 0.5f + kHalfDiagonal - 0.05f}, 0.25f * kPi);
    const Manifold m = collidePolygons(ground, at({0, 0}), box, xfB, 0.0f);
    REQUIRE(m.pointCount == 1);
    CHECK(m.normal.y == doctest::Approx(1.0f));
    CHECK(m.points[0].separation == doctest::Approx(-0.05f).epsilon(1e-3));
    CHECK(m.points[0].point.x == doctest::Approx(0.0f).epsilon(1e-5));
    CHECK(m.points[0].point.y == doctest::Approx(0.475f));

    // The same box's corner turned into the ground through B's transform or its own vertices.
    const Polygon turned = makeBox({0.5f, 0.5f}, {0, 0}, 0.25f * kPi);
    const Manifold same = collidePolygons(ground, at({0, 0}), turned, at(xfB.p), 0.0f);
    REQUIRE(same.pointCount == 1);
    CHECK(same.points[0].separation == doctest::Approx(-0.05f).epsilon(1e-3));
}

TEST_CASE("polygons: rounded boxes face to face and corner to corner") {
    // Cores of half 0.4 rounded by 0.1: surfaces of half 0.5.
    const Polygon box = rounded({0.4f, 0.4f}, 0.1f);
    const Manifold face = collidePolygons(box, at({0, 0}), box, at({0, 0.99f}), 0.0f);
    REQUIRE(face.pointCount == 2);
    CHECK(face.normal.y == doctest::Approx(1.0f));
    for (int k = 0; k < 2; ++k) {
        CHECK(face.points[k].separation == doctest::Approx(-0.01f).epsilon(1e-3));
        CHECK(face.points[k].point.y == doctest::Approx(0.495f));
    }

    // Core corners (0.4, 0.4) and (0.5, 0.5): 0.1 sqrt 2 apart, radii 0.2 in all.
    const Manifold corner = collidePolygons(box, at({0, 0}), box, at({0.9f, 0.9f}), 0.0f);
    REQUIRE(corner.pointCount == 1);
    CHECK(corner.normal.x == doctest::Approx(kHalfDiagonal));
    CHECK(corner.normal.y == doctest::Approx(kHalfDiagonal));
    CHECK(corner.points[0].separation == doctest::Approx(0.14142136f - 0.2f));
    CHECK(corner.points[0].point.x == doctest::Approx(0.45f));
    CHECK(corner.points[0].point.y == doctest::Approx(0.45f));

    // Corners 0.3 sqrt 2 apart: the rounded surfaces are 0.224 apart, beyond the margin.
    CHECK(collidePolygons(box, at({0, 0}), box, at({1.1f, 1.1f}), 0.1f).pointCount == 0);
}

TEST_CASE("polygons: speculative points within the margin only") {
    const Polygon box = makeBox({0.5f, 0.5f});
    const Manifold near = collidePolygons(box, at({0, 0}), box, at({0, 1.02f}), 0.04f);
    REQUIRE(near.pointCount == 2);
    for (int k = 0; k < 2; ++k) {
        CHECK(near.points[k].separation == doctest::Approx(0.02f).epsilon(1e-3));
    }
    CHECK(collidePolygons(box, at({0, 0}), box, at({0, 1.1f}), 0.04f).pointCount == 0);
}

TEST_CASE("polygons: swapping A and B keeps separations and turns the normal") {
    const Polygon ground = makeBox({2.0f, 0.5f});
    const Polygon box = makeBox({0.5f, 0.5f});
    const Transform xfG = at({0.1f, -0.2f}, 0.1f);
    const Transform cases[] = {at({0.2f, 0.75f}, 0.1f), at({0.3f, 0.9f}, 0.9f),
                               at({-1.5f, 0.7f}, 0.3f)};
    for (const Transform& xfB : cases) {
        const Manifold ab = collidePolygons(ground, xfG, box, xfB, 0.01f);
        const Manifold ba = collidePolygons(box, xfB, ground, xfG, 0.01f);
        REQUIRE(ab.pointCount > 0);
        REQUIRE(ab.pointCount == ba.pointCount);
        CHECK(ab.normal.x == doctest::Approx(-ba.normal.x));
        CHECK(ab.normal.y == doctest::Approx(-ba.normal.y));
        const std::vector<float> sab = separations(ab);
        const std::vector<float> sba = separations(ba);
        for (std::size_t k = 0; k < sab.size(); ++k) {
            CHECK(sab[k] == doctest::Approx(sba[k]).epsilon(1e-4));
        }
    }
}

TEST_CASE("polygons: feature ids stay while B moves or turns a little") {
    const Polygon ground = makeBox({2.0f, 0.5f});
    const Polygon box = makeBox({0.5f, 0.5f});
    struct Case {
        Transform xfB;
        float speculative;
        bool turns; ///< whether a turn keeps the incident edge (see below)
    };
    // A corner balanced on a face (the second case) changes its incident edge with the slightest
    // turn; its point then pairs with the face's other end and takes a new id. That is the price of
    // ids that survive a swap of the reference face (next test), which stacks meet every step.
    const Case cases[] = {{at({0.1f, 0.99f}), 0.0f, true},
                          {at({0.0f, 0.5f + kHalfDiagonal - 0.05f}, 0.25f * kPi), 0.0f, false},
                          {at({0.3f, 1.01f}, 0.02f), 0.04f, true}};
    for (const Case& c : cases) {
        const Manifold base = collidePolygons(ground, at({0, 0}), box, c.xfB, c.speculative);
        REQUIRE(base.pointCount > 0);
        const Vec2 moves[] = {{1e-3f, 0}, {-1e-3f, 0}, {0, 1e-3f}, {0, -1e-3f}};
        for (const Vec2 d : moves) {
            const Transform moved{c.xfB.p + d, c.xfB.q};
            CHECK(ids(collidePolygons(ground, at({0, 0}), box, moved, c.speculative)) == ids(base));
        }
        if (!c.turns) continue;
        const float angle = std::atan2(c.xfB.q.s, c.xfB.q.c);
        for (const float turn : {1e-3f, -1e-3f}) {
            const Transform turned = at(c.xfB.p, angle + turn);
            CHECK(ids(collidePolygons(ground, at({0, 0}), box, turned, c.speculative)) ==
                  ids(base));
        }
    }
}

TEST_CASE("polygons: feature ids survive the reference face passing from A to B") {
    // Box B rests half over box A, 1 cm deep. Turned 0.01 rad one way, B's lowest corner makes
    // A's top the reference face; turned the other way, A's corner under B's tilted bottom face
    // separates least along B's normal (by 0.005 m, ten times the swap tolerance) and B's face
    // becomes the reference. The points are the same two pairs of corners either way, so their
    // ids, and with them the warm start of a stacked box, must not change.
    const Polygon box = makeBox({0.5f, 0.5f});
    const Transform xfA = at({0.0f, 0.0f});
    const Manifold ccw = collidePolygons(box, xfA, box, at({0.5f, 0.99f}, 0.01f), 0.04f);
    const Manifold cw = collidePolygons(box, xfA, box, at({0.5f, 0.99f}, -0.01f), 0.04f);
    REQUIRE(ccw.pointCount == 2);
    REQUIRE(cw.pointCount == 2);
    CHECK(ccw.normal.y == doctest::Approx(1.0f).epsilon(1e-3));
    CHECK(cw.normal.y == doctest::Approx(1.0f).epsilon(1e-3));
    CHECK(ids(ccw) == ids(cw));
    // Each point keeps its place too: the point with a given id is near the same corner.
    for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 2; ++j) {
            if (ccw.points[i].id != cw.points[j].id) continue;
            CHECK(ccw.points[i].point.x == doctest::Approx(cw.points[j].point.x).epsilon(0.02));
        }
    }
}

TEST_CASE("polygon-circle: a circle on a face and near a corner, either way round") {
    const Polygon box = makeBox({0.5f, 0.5f});
    const Circle ball{{0, 0}, 0.5f};
    const Manifold face = collidePolygonCircle(box, at({0, 0}), ball, at({0.2f, 0.98f}), 0.0f);
    REQUIRE(face.pointCount == 1);
    CHECK(face.normal.x == doctest::Approx(0.0f));
    CHECK(face.normal.y == doctest::Approx(1.0f));
    CHECK(face.points[0].separation == doctest::Approx(-0.02f).epsilon(1e-3));
    CHECK(face.points[0].point.x == doctest::Approx(0.2f));
    CHECK(face.points[0].point.y == doctest::Approx(0.49f));

    // Centre (0.3, 0.4) beyond the corner (0.5, 0.5): 0.5 away, so 0.1 into a ball of 0.6.
    const Circle big{{0, 0}, 0.6f};
    const Manifold corner = collidePolygonCircle(box, at({0, 0}), big, at({0.8f, 0.9f}), 0.0f);
    REQUIRE(corner.pointCount == 1);
    CHECK(corner.normal.x == doctest::Approx(0.6f));
    CHECK(corner.normal.y == doctest::Approx(0.8f));
    CHECK(corner.points[0].separation == doctest::Approx(-0.1f));
    CHECK(corner.points[0].point.x == doctest::Approx(0.47f));
    CHECK(corner.points[0].point.y == doctest::Approx(0.46f));

    const Manifold swapped = collideCirclePolygon(big, at({0.8f, 0.9f}), box, at({0, 0}), 0.0f);
    REQUIRE(swapped.pointCount == 1);
    CHECK(swapped.normal.x == doctest::Approx(-0.6f));
    CHECK(swapped.normal.y == doctest::Approx(-0.8f));
    CHECK(swapped.points[0].separation == doctest::Approx(-0.1f));
    CHECK(swapped.points[0].point.x == doctest::Approx(0.47f));
}

TEST_CASE("polygon-circle: turned and rounded polygons, speculative reach") {
    // A unit box turned 45 degrees, its top corner at (0, kHalfDiagonal), under a ball of 0.35.
    const Polygon box = makeBox({0.5f, 0.5f});
    const Circle ball{{0, 0}, 0.35f};
    const Manifold m = collidePolygonCircle(box, at({0, 0}, 0.25f * kPi), ball,
                                            at({0, kHalfDiagonal + 0.3f}), 0.0f);
    REQUIRE(m.pointCount == 1);
    CHECK(m.normal.y == doctest::Approx(1.0f));
    CHECK(m.points[0].separation == doctest::Approx(-0.05f).epsilon(1e-3));

    // A ball centred inside the core of a rounded box: pushed out through the nearest face.
    const Polygon soft = rounded({0.4f, 0.4f}, 0.1f);
    const Manifold deep = collidePolygonCircle(soft, at({0, 0}), ball, at({0.1f, 0.3f}), 0.0f);
    REQUIRE(deep.pointCount == 1);
    CHECK(deep.normal.y == doctest::Approx(1.0f));
    CHECK(deep.points[0].separation == doctest::Approx(-0.1f - 0.1f - 0.35f));

    // Surfaces 0.02 apart: a point with a margin of 0.04, none with 0.01.
    const Manifold near = collidePolygonCircle(soft, at({0, 0}), ball, at({0, 0.87f}), 0.04f);
    REQUIRE(near.pointCount == 1);
    CHECK(near.points[0].separation == doctest::Approx(0.02f).epsilon(1e-3));
    CHECK(collidePolygonCircle(soft, at({0, 0}), ball, at({0, 0.87f}), 0.01f).pointCount == 0);
}

namespace {

// The distance from `c` to the polygon's core, by every edge: what the routine finds from the
// face of largest separation alone.
float coreDistance(const Polygon& polygon, Vec2 c) {
    float best = INFINITY;
    for (int i = 0; i < polygon.count; ++i) {
        const Vec2 v1 = polygon.vertices[i];
        const Vec2 e = polygon.vertices[(i + 1) % polygon.count] - v1;
        const float u = std::clamp(dot(c - v1, e) / dot(e, e), 0.0f, 1.0f);
        const Vec2 d = c - (v1 + u * e);
        best = std::min(best, std::sqrt(dot(d, d)));
    }
    return best;
}

bool insideCore(const Polygon& polygon, Vec2 c) {
    for (int i = 0; i < polygon.count; ++i)
        if (dot(polygon.normals[i], c - polygon.vertices[i]) > 0.0f) return false;
    return polygon.count > 2;
}

} // namespace

TEST_CASE("polygon-circle: outside the core, the separation is the distance to every edge") {
    // Random convex polygons of 3 to 8 vertices (some rounded, some slivers) and capsules; circle
    // centres all around them, near corners most of all.
    test::SplitMix64 rng(4242);
    int corners = 0, faces = 0, apartChecked = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        Polygon polygon;
        const float rounding = rng.chance(0.3f) ? rng.uniform(0.0f, 0.2f) : 0.0f;
        if (trial % 5 == 0) {
            polygon = makeCapsulePolygon({{rng.uniform(-1, 0), rng.uniform(-1, 1)},
                                          {rng.uniform(0, 1), rng.uniform(-1, 1)},
                                          0.05f + rounding});
        } else {
            std::vector<Vec2> points;
            const int count = 3 + static_cast<int>(rng.below(6));
            const float sx = rng.logUniform(0.05f, 2.0f), sy = rng.logUniform(0.05f, 2.0f);
            for (int k = 0; k < count; ++k) {
                const float angle = rng.uniform(0.0f, 2.0f * kPi);
                points.push_back({sx * std::cos(angle), sy * std::sin(angle)});
            }
            try {
                polygon = makePolygon(points, rounding);
            } catch (const Error&) {
                continue; // points too close or in a line
            }
        }
        const Circle ball{{0, 0}, rng.uniform(0.01f, 0.5f)};
        const Vec2 corner = polygon.vertices[rng.below(static_cast<std::uint32_t>(polygon.count))];
        const Vec2 c = corner + Vec2{rng.uniform(-1, 1), rng.uniform(-1, 1)};
        if (insideCore(polygon, c)) continue;
        const float expected = coreDistance(polygon, c) - polygon.radius - ball.radius;
        CAPTURE(trial);
        const Manifold m = collidePolygonCircle(polygon, at({0, 0}), ball, at(c), 100.0f);
        REQUIRE(m.pointCount == 1);
        CHECK(m.points[0].separation == doctest::Approx(expected).epsilon(1e-4).scale(1.0));
        // The normal runs from the closest point of the core to the centre.
        const Vec2 closest = c - (expected + polygon.radius + ball.radius) * m.normal;
        CHECK(coreDistance(polygon, closest) < 1e-4f);
        bool onFace = false;
        for (int i = 0; i < polygon.count; ++i)
            onFace = onFace || dot(m.normal, polygon.normals[i]) > 0.99999f;
        (onFace ? faces : corners) += 1;
        if (expected > 0.01f) {
            // Apart: at least as far as reported, and more than nothing (a face's separation, or
            // the distance to a corner).
            float apart = 0.0f;
            CHECK(collidePolygonCircle(polygon, at({0, 0}), ball, at(c), 0.0f, &apart).pointCount ==
                  0);
            CHECK(apart > 0.0f);
            CHECK(apart <= expected + 1e-4f * (1.0f + expected));
            ++apartChecked;
        }
    }
    CHECK(corners > 500);
    CHECK(faces > 100);
    CHECK(apartChecked > 1000);
}

TEST_CASE("capsules apart: the distance of their cores, where the face axes only bound it") {
    const Polygon a = makeCapsulePolygon({{-1.0f, 0.0f}, {1.0f, 0.0f}, 0.1f});
    // Beyond a margin of 5 cm, which the face axes alone do not show.
    const auto apartFrom = [&](const Polygon& b, const Transform& xfB) {
        float apart = -1.0f;
        CHECK(collidePolygons(a, at({0, 0}), b, xfB, 0.05f, &apart).pointCount == 0);
        return apart;
    };
    // End to end on one line: every face axis says 0 (less the radii).
    const Polygon b = makeCapsulePolygon({{0.0f, 0.0f}, {2.0f, 0.0f}, 0.1f});
    CHECK(apartFrom(b, at({1.5f, 0.0f})) == doctest::Approx(0.5f - 0.2f));
    // B leaning away from A's end at 45 degrees, 0.3 past it: B's face axis says 0.21.
    CHECK(apartFrom(b, at({1.3f, 0.0f}, 0.25f * kPi)) == doctest::Approx(0.3f - 0.2f));
    // A segment (no radius) past a capsule's end, at right angles: a face axis finds it.
    const Polygon segment = makeCapsulePolygon({{0.0f, -0.5f}, {0.0f, 0.5f}, 0.0f});
    CHECK(apartFrom(segment, at({1.4f, 0.2f})) == doctest::Approx(0.4f - 0.1f));
}

TEST_CASE("capsules: lying on a box gives two points, either way round") {
    const Polygon box = makeBox({1.0f, 1.0f});
    const Polygon capsule = makeCapsulePolygon({{-0.5f, 0}, {0.5f, 0}, 0.25f});
    // Core 0.2 above the top face, radius 0.25: 0.05 deep.
    const Manifold m = collidePolygons(box, at({0, 0}), capsule, at({0, 1.2f}), 0.0f);
    REQUIRE(m.pointCount == 2);
    CHECK(m.normal.y == doctest::Approx(1.0f));
    const std::vector<float> x = xs(m);
    CHECK(x[0] == doctest::Approx(-0.5f));
    CHECK(x[1] == doctest::Approx(0.5f));
    for (int k = 0; k < 2; ++k) {
        CHECK(m.points[k].separation == doctest::Approx(-0.05f).epsilon(1e-3));
        CHECK(m.points[k].point.y == doctest::Approx(0.975f));
    }
    const Manifold swapped = collidePolygons(capsule, at({0, 1.2f}), box, at({0, 0}), 0.0f);
    REQUIRE(swapped.pointCount == 2);
    CHECK(swapped.normal.y == doctest::Approx(-1.0f));
    CHECK(separations(swapped)[0] == doctest::Approx(-0.05f).epsilon(1e-3));
    // Turned on its end, the capsule touches with one rounded end only.
    const Manifold upright =
        collidePolygons(box, at({0, 0}), capsule, at({0.3f, 1.7f}, 0.5f * kPi), 0.0f);
    REQUIRE(upright.pointCount == 1);
    CHECK(upright.points[0].separation == doctest::Approx(-0.05f).epsilon(1e-3));
    CHECK(upright.points[0].point.x == doctest::Approx(0.3f));
}

TEST_CASE("capsules: crossing gives one point, parallel two") {
    const Polygon a = makeCapsulePolygon({{-1, 0}, {1, 0}, 0.1f});
    const Polygon b = makeCapsulePolygon({{0, -0.5f}, {0, 0.5f}, 0.1f});
    // B upright, its lower core end 0.15 above A's core: 0.05 deep.
    const Manifold cross = collidePolygons(a, at({0, 0}), b, at({0, 0.65f}), 0.0f);
    REQUIRE(cross.pointCount == 1);
    CHECK(cross.normal.y == doctest::Approx(1.0f));
    CHECK(cross.points[0].separation == doctest::Approx(-0.05f).epsilon(1e-3));
    CHECK(cross.points[0].point.x == doctest::Approx(0.0f));
    CHECK(cross.points[0].point.y == doctest::Approx(0.075f));

    // A copy of A shifted by (0.5, 0.15): overlapping along x in [-0.5, 1].
    const Manifold parallel = collidePolygons(a, at({0, 0}), a, at({0.5f, 0.15f}), 0.0f);
    REQUIRE(parallel.pointCount == 2);
    CHECK(parallel.normal.y == doctest::Approx(1.0f));
    const std::vector<float> x = xs(parallel);
    CHECK(x[0] == doctest::Approx(-0.5f));
    CHECK(x[1] == doctest::Approx(1.0f));
    for (int k = 0; k < 2; ++k) {
        CHECK(parallel.points[k].separation == doctest::Approx(-0.05f).epsilon(1e-3));
        CHECK(parallel.points[k].point.y == doctest::Approx(0.075f));
    }

    // End to end along a line: the rounded ends meet, 0.05 deep, normal along the axis.
    const Manifold ends = collidePolygons(a, at({0, 0}), a, at({2.15f, 0}), 0.0f);
    REQUIRE(ends.pointCount == 1);
    CHECK(ends.normal.x == doctest::Approx(1.0f));
    CHECK(ends.points[0].separation == doctest::Approx(-0.05f).epsilon(1e-3));
}

TEST_CASE("segments: a box resting on segment ground") {
    const Polygon ground = makeSegmentPolygon({{-2, 0}, {2, 0}});
    const Polygon box = makeBox({0.5f, 0.5f});
    const Manifold m = collidePolygons(ground, at({0, 0}), box, at({0, 0.49f}), 0.0f);
    REQUIRE(m.pointCount == 2);
    CHECK(m.normal.y == doctest::Approx(1.0f));
    for (int k = 0; k < 2; ++k) {
        CHECK(m.points[k].separation == doctest::Approx(-0.01f).epsilon(1e-3));
        CHECK(m.points[k].point.y == doctest::Approx(-0.005f));
    }
    // A capsule rolled onto the ground rests on its radius.
    const Polygon capsule = makeCapsulePolygon({{-0.5f, 0}, {0.5f, 0}, 0.25f});
    const Manifold c = collidePolygons(ground, at({0, 0}), capsule, at({0, 0.26f}), 0.04f);
    REQUIRE(c.pointCount == 2);
    CHECK(separations(c)[0] == doctest::Approx(0.01f).epsilon(1e-3));
}
