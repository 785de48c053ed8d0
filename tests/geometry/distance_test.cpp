// GJK core distance against hand-computed closest points and against a brute-force minimum over
// every vertex-edge pair of random, randomly placed polygons.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "geometry/distance.hpp"
#include "rigid2d/geometry.hpp"

using namespace rigid2d;
using namespace rigid2d::detail;

namespace {
constexpr float kPi = 3.14159265f;
Transform at(Vec2 p, float angle = 0.0f) { return {p, makeRot(angle)}; }

std::vector<Vec2> worldPoints(const Polygon& p, const Transform& xf) {
    std::vector<Vec2> out;
    for (int i = 0; i < p.count; ++i) out.push_back(transformPoint(xf, p.vertices[i]));
    return out;
}

float pointToSegment(Vec2 p, Vec2 a, Vec2 b) {
    const Vec2 e = b - a;
    const float u = std::fmin(std::fmax(dot(p - a, e) / dot(e, e), 0.0f), 1.0f);
    const Vec2 q = a + u * e - p;
    return std::sqrt(dot(q, q));
}

// Separating axis over both polygons' edge normals (world frame, counter-clockwise).
bool overlapBySat(const std::vector<Vec2>& a, const std::vector<Vec2>& b) {
    for (int pass = 0; pass < 2; ++pass) {
        const std::vector<Vec2>& p = pass == 0 ? a : b;
        const std::vector<Vec2>& q = pass == 0 ? b : a;
        for (std::size_t i = 0; i < p.size(); ++i) {
            const Vec2 e = p[(i + 1) % p.size()] - p[i];
            const Vec2 n{e.y, -e.x};
            float least = INFINITY;
            for (const Vec2 v : q) least = std::fmin(least, dot(n, v - p[i]));
            if (least > 0.0f) return false;
        }
    }
    return true;
}

float bruteDistance(const std::vector<Vec2>& a, const std::vector<Vec2>& b) {
    float best = INFINITY;
    for (int pass = 0; pass < 2; ++pass) {
        const std::vector<Vec2>& p = pass == 0 ? a : b;
        const std::vector<Vec2>& q = pass == 0 ? b : a;
        for (const Vec2 v : p) {
            for (std::size_t i = 0; i < q.size(); ++i) {
                best = std::fmin(best, pointToSegment(v, q[i], q[(i + 1) % q.size()]));
            }
        }
    }
    return best;
}
} // namespace

TEST_CASE("distance: closest points of boxes, a circle and turned corners") {
    const DistanceProxy box = makeProxy(makeGeometry(Box{{0, 0}, {0.5f, 0.5f}}));
    const CoreDistance side = coreDistance(box, at({0, 0}), box, at({1.5f, 0.2f}));
    CHECK(side.distance == doctest::Approx(0.5f));
    CHECK(side.pointA.x == doctest::Approx(0.5f));
    CHECK(side.pointB.x == doctest::Approx(1.0f));
    CHECK(side.pointB.y - side.pointA.y == doctest::Approx(0.0f).epsilon(1e-6));

    const DistanceProxy circle = makeProxy(makeGeometry(Circle{{0, 0}, 0.3f}));
    CHECK(circle.count == 1);
    CHECK(circle.radius == 0.3f);
    const CoreDistance c = coreDistance(box, at({0, 0}), circle, at({2.0f, 0.2f}));
    CHECK(c.distance == doctest::Approx(1.5f));
    CHECK(c.pointA.x == doctest::Approx(0.5f));
    CHECK(c.pointA.y == doctest::Approx(0.2f));

    // B turned 45 degrees at (2, 2): its lower-left face lies on x + y = 4 - sqrt(2)/2, nearest
    // A's corner (0.5, 0.5) at its middle.
    const CoreDistance corner = coreDistance(box, at({0, 0}), box, at({2, 2}, 0.25f * kPi));
    const float line = 4.0f - 0.70710678f;
    CHECK(corner.distance == doctest::Approx((line - 1.0f) / std::sqrt(2.0f)));
    CHECK(corner.pointA.x == doctest::Approx(0.5f));
    CHECK(corner.pointA.y == doctest::Approx(0.5f));
    CHECK(corner.pointB.x == doctest::Approx(0.5f * line));
    CHECK(corner.pointB.y == doctest::Approx(0.5f * line));

    // A capsule's core is its segment; overlapping cores are 0 apart.
    const DistanceProxy capsule = makeProxy(makeGeometry(Capsule{{-1, 0}, {1, 0}, 0.2f}));
    CHECK(capsule.count == 2);
    CHECK(coreDistance(capsule, at({0, 0}), box, at({0, 1.0f})).distance == doctest::Approx(0.5f));
    CHECK(coreDistance(capsule, at({0, 0}), box, at({0.3f, 0.2f})).distance == 0.0f);
    CHECK(coreDistance(box, at({0, 0}), box, at({0.3f, 0.2f}, 0.4f)).distance == 0.0f);
}

TEST_CASE("distance: random polygons agree with the brute-force minimum") {
    std::uint32_t state = 777u;
    const auto random = [&] {
        state = state * 1664525u + 1013904223u;
        return static_cast<float>(state >> 8) / 16777216.0f;
    };
    const auto randomPolygon = [&] {
        std::vector<Vec2> points;
        const int count = 3 + static_cast<int>(random() * 6.0f);
        for (int k = 0; k < count; ++k) {
            const float a = 2.0f * kPi * (static_cast<float>(k) + 0.8f * random()) / count;
            const float r = 0.3f + random();
            points.push_back({r * std::cos(a), r * std::sin(a)});
        }
        return makePolygon(points);
    };
    int separated = 0;
    int overlapping = 0;
    for (int trial = 0; trial < 500; ++trial) {
        const Polygon a = randomPolygon();
        const Polygon b = randomPolygon();
        const Transform xfA = at({4 * random() - 2, 4 * random() - 2}, 2 * kPi * random());
        const Transform xfB = at({4 * random() - 2, 4 * random() - 2}, 2 * kPi * random());
        const CoreDistance d =
            coreDistance(makeProxy(makeGeometry(a)), xfA, makeProxy(makeGeometry(b)), xfB);
        const std::vector<Vec2> pa = worldPoints(a, xfA), pb = worldPoints(b, xfB);
        CAPTURE(trial);
        CHECK(d.iterations <= kMaxDistanceIterations);
        if (overlapBySat(pa, pb)) {
            ++overlapping;
            CHECK(d.distance == 0.0f);
            continue;
        }
        ++separated;
        CHECK(d.distance == doctest::Approx(bruteDistance(pa, pb)).epsilon(1e-4));
        const Vec2 gap = d.pointB - d.pointA;
        CHECK(std::sqrt(dot(gap, gap)) == doctest::Approx(d.distance).epsilon(1e-4));
    }
    CHECK(separated > 100);
    CHECK(overlapping > 100);
}
