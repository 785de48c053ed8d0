// Manifolds against hand-computed geometry: normals from A to B, separations, midpoints, feature
// ids, speculative points, box–box clipping to the overlap edge.
#include <doctest/doctest.h>

#include "narrowphase/manifold.hpp"

using namespace rigid2d;
using namespace rigid2d::detail;

namespace {
PlacedShape circle(Vec2 c, float r) {
    PlacedShape s;
    s.type = ShapeType::Circle;
    s.center = c;
    s.radius = r;
    return s;
}
PlacedShape box(Vec2 c, Vec2 he) {
    PlacedShape s;
    s.type = ShapeType::Box;
    s.center = c;
    s.halfExtents = he;
    return s;
}
} // namespace

TEST_CASE("circle-circle: normal, separation, midpoint, speculative reach") {
    const Manifold m = collide(circle({0, 0}, 1.0f), circle({1.5f, 0}, 1.0f), 0.0f);
    REQUIRE(m.pointCount == 1);
    CHECK(m.normal.x == doctest::Approx(1.0f));
    CHECK(m.points[0].separation == doctest::Approx(-0.5f));
    CHECK(m.points[0].point.x == doctest::Approx(0.75f));
    // 0.1 m apart: a point only within the speculative distance.
    CHECK(collide(circle({0, 0}, 1.0f), circle({0, 2.1f}, 1.0f), 0.05f).pointCount == 0);
    const Manifold near = collide(circle({0, 0}, 1.0f), circle({0, 2.1f}, 1.0f), 0.2f);
    REQUIRE(near.pointCount == 1);
    CHECK(near.points[0].separation == doctest::Approx(0.1f));
    CHECK(near.normal.y == doctest::Approx(1.0f));
}

TEST_CASE("box-circle and circle-box: normals point from A to B") {
    const Manifold above = collide(box({0, 0}, {1, 1}), circle({0.5f, 1.4f}, 0.5f), 0.0f);
    REQUIRE(above.pointCount == 1);
    CHECK(above.normal.y == doctest::Approx(1.0f));
    CHECK(above.points[0].separation == doctest::Approx(-0.1f));
    CHECK(above.points[0].point.y == doctest::Approx(0.95f));
    const Manifold flipped = collide(circle({0.5f, 1.4f}, 0.5f), box({0, 0}, {1, 1}), 0.0f);
    REQUIRE(flipped.pointCount == 1);
    CHECK(flipped.normal.y == doctest::Approx(-1.0f));
    // Corner region: the normal points from the corner to the centre.
    const Manifold corner = collide(box({0, 0}, {1, 1}), circle({1.3f, 1.4f}, 0.6f), 0.0f);
    REQUIRE(corner.pointCount == 1);
    CHECK(corner.normal.x == doctest::Approx(0.6f));
    CHECK(corner.normal.y == doctest::Approx(0.8f));
    CHECK(corner.points[0].separation == doctest::Approx(-0.1f));
    // Centre inside the box: out through the nearest face.
    const Manifold inside = collide(box({0, 0}, {1, 1}), circle({0.8f, 0.1f}, 0.25f), 0.0f);
    REQUIRE(inside.pointCount == 1);
    CHECK(inside.normal.x == doctest::Approx(1.0f));
    CHECK(inside.points[0].separation == doctest::Approx(-0.45f));
}

TEST_CASE("box-box: two points on the overlap edge along the least-penetration axis") {
    // B rests on A, shifted right: overlap in x is [0, 1].
    const Manifold m = collide(box({0, 0}, {1, 0.5f}), box({1.5f, 0.98f}, {1.5f, 0.5f}), 0.0f);
    REQUIRE(m.pointCount == 2);
    CHECK(m.normal.x == 0.0f);
    CHECK(m.normal.y == 1.0f);
    CHECK(m.points[0].point.x == doctest::Approx(0.0f));
    CHECK(m.points[1].point.x == doctest::Approx(1.0f));
    CHECK(m.points[0].point.y == doctest::Approx(0.49f));
    CHECK(m.points[0].separation == doctest::Approx(-0.02f));
    CHECK(m.points[0].id != m.points[1].id);
    // Side contact: x is the axis of least penetration.
    const Manifold side = collide(box({0, 0}, {1, 1}), box({-1.9f, 0.5f}, {1, 1}), 0.0f);
    REQUIRE(side.pointCount == 2);
    CHECK(side.normal.x == -1.0f);
    CHECK(side.points[0].separation == doctest::Approx(-0.1f));
    CHECK(side.points[0].point.y == doctest::Approx(-0.5f));
    CHECK(side.points[1].point.y == doctest::Approx(1.0f));
    // Feature ids stay the same when the boxes slide a little.
    const Manifold slid = collide(box({0, 0}, {1, 0.5f}), box({1.45f, 0.98f}, {1.5f, 0.5f}), 0.0f);
    REQUIRE(slid.pointCount == 2);
    CHECK(slid.points[0].id == m.points[0].id);
    CHECK(slid.points[1].id == m.points[1].id);
    // Separated by more than the speculative distance: nothing.
    CHECK(collide(box({0, 0}, {1, 1}), box({0, 2.5f}, {1, 1}), 0.1f).pointCount == 0);
    const Manifold spec = collide(box({0, 0}, {1, 1}), box({0, 2.05f}, {1, 1}), 0.1f);
    REQUIRE(spec.pointCount == 2);
    CHECK(spec.points[0].separation == doctest::Approx(0.05f));
}

TEST_CASE("wasHit says what hardestHit finds: a point that pushed, at the threshold or faster") {
    // Every combination of two points' push (none, some) and approach speed (receding, still,
    // below, at and above the threshold), for thresholds below, at and above zero.
    const float speeds[] = {-1.0f, 0.0f, 0.5f, 1.0f, 2.0f};
    const float pushes[] = {0.0f, 0.3f};
    int hits = 0;
    for (const float threshold : {-1.0f, 0.0f, 1.0f})
        for (const float s0 : speeds)
            for (const float s1 : speeds)
                for (const float p0 : pushes)
                    for (const float p1 : pushes)
                        for (int count = 0; count <= kMaxManifoldPoints; ++count) {
                            Manifold m;
                            m.pointCount = count;
                            m.points[0].approachSpeed = s0;
                            m.points[0].maxNormalImpulse = p0;
                            m.points[1].approachSpeed = s1;
                            m.points[1].maxNormalImpulse = p1;
                            float speed = 0.0f;
                            const bool expected = hardestHit(m, speed) >= 0 && speed >= threshold;
                            CAPTURE(threshold);
                            CAPTURE(count);
                            CHECK(wasHit(m.points, m.pointCount, threshold) == expected);
                            hits += expected ? 1 : 0;
                        }
    CHECK(hits > 0);
}
