// The manifold cache against full collisions: a reused manifold has the ids and points a full
// collision gives, its separations corrected exactly for a slide along a face, and it is refused
// once B has moved or turned too far or the contact needs a wider margin than the cache holds.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "broadphase/scenarios.hpp"
#include "narrowphase/collide_polygons.hpp"
#include "narrowphase/manifold_cache.hpp"
#include "rigid2d/geometry.hpp"

using namespace rigid2d;
using namespace rigid2d::detail;

namespace {

constexpr float kTolerance = 5e-4f; // a tenth of the default linearSlop
constexpr float kMargin = 0.02f;    // the default speculative distance

Transform at(Vec2 p, float angle = 0.0f) { return {p, makeRot(angle)}; }

struct Cached {
    ManifoldCache cache;
    Manifold manifold; ///< what the contact holds after the full collision
};

Cached collideAndRemember(const Polygon& a, const Transform& xfA, const Polygon& b,
                          const Transform& xfB) {
    const float wider = cacheMargin(kMargin, kTolerance);
    Cached c;
    c.manifold = collidePolygons(a, xfA, b, xfB, wider);
    c.cache = rememberManifold(c.manifold, xfA, xfB, wider);
    dropBeyond(c.manifold, kMargin);
    return c;
}

const ManifoldPoint* withId(const Manifold& m, std::uint16_t id) {
    for (int i = 0; i < m.pointCount; ++i)
        if (m.points[i].id == id) return &m.points[i];
    return nullptr;
}

float deepest(const Manifold& m) {
    float s = INFINITY;
    for (int i = 0; i < m.pointCount; ++i) s = std::min(s, m.points[i].separation);
    return s;
}

float distance(Vec2 p, Vec2 q) { return std::hypot(p.x - q.x, p.y - q.y); }

// B turned by `angle` about the world point `pivot`.
Transform turnedAbout(const Transform& xf, Vec2 pivot, float angle) {
    const Rot q = makeRot(angle);
    return {pivot + rotate(q, xf.p - pivot), makeRot(std::atan2(xf.q.s, xf.q.c) + angle)};
}

} // namespace

TEST_CASE("manifold cache: a box slid along its support keeps its ids, separations exact") {
    const Polygon box = makeBox({0.5f, 0.5f});
    const Transform ground = at({0.0f, 0.0f}), before = at({0.1f, 0.995f});
    Cached c = collideAndRemember(box, ground, box, before);
    REQUIRE(c.manifold.pointCount == 2);
    const Transform after = at({0.1f + 3e-4f, 0.995f - 2e-4f});
    Manifold reused = c.manifold;
    REQUIRE(reuseManifold(c.cache, ground, after, kMargin, kTolerance, reused));
    const Manifold full = collidePolygons(box, ground, box, after, kMargin);
    REQUIRE(reused.pointCount == full.pointCount);
    CHECK(reused.normal.x == doctest::Approx(full.normal.x));
    CHECK(reused.normal.y == doctest::Approx(full.normal.y));
    for (int i = 0; i < full.pointCount; ++i) {
        const ManifoldPoint* p = withId(reused, full.points[i].id);
        REQUIRE(p != nullptr);
        CHECK(p->separation == doctest::Approx(full.points[i].separation).epsilon(1e-5));
        CHECK(distance(p->point, full.points[i].point) <= 2.0f * kTolerance);
    }
}

TEST_CASE("manifold cache: a small turn is followed, a turn or slide beyond the bounds is not") {
    const Polygon box = makeBox({0.5f, 0.5f});
    const Transform ground = at({0.0f, 0.0f}), before = at({0.2f, 0.998f}, 0.01f);
    Cached c = collideAndRemember(box, ground, box, before);
    REQUIRE(c.manifold.pointCount >= 1);
    // Turned about its centre: the corners move by 0.7 * 4e-4 < the tolerance.
    const Transform turned = turnedAbout(before, before.p, 4e-4f);
    Manifold reused = c.manifold;
    REQUIRE(reuseManifold(c.cache, ground, turned, kMargin, kTolerance, reused));
    const Manifold full = collidePolygons(box, ground, box, turned, kMargin);
    REQUIRE(reused.pointCount == full.pointCount);
    for (int i = 0; i < full.pointCount; ++i) {
        const ManifoldPoint* p = withId(reused, full.points[i].id);
        REQUIRE(p != nullptr);
        CHECK(std::fabs(p->separation - full.points[i].separation) < 1e-5f);
    }
    const Manifold held = c.manifold;
    const auto refused = [&](const Transform& b, float margin) {
        Manifold m = held;
        CHECK_FALSE(reuseManifold(c.cache, ground, b, margin, kTolerance, m));
        CHECK(m.pointCount == held.pointCount); // untouched
        CHECK(m.points[0].point == held.points[0].point);
    };
    refused(at(before.p + Vec2{6e-4f, 0.0f}, 0.01f), kMargin); // slid too far
    refused(turnedAbout(before, before.p, 1e-3f), kMargin);    // corners moved too far
    refused(turnedAbout(before, c.manifold.points[0].point, 3e-3f), kMargin); // normal turned
    refused(before, kMargin + 3.0f * kTolerance); // needs a wider margin than was collided
    Manifold unchanged = held;
    CHECK(
        reuseManifold(c.cache, ground, before, kMargin + 2.0f * kTolerance, kTolerance, unchanged));
}

TEST_CASE("manifold cache: impulses follow their ids, points beyond the margin are dropped") {
    const Polygon box = makeBox({0.5f, 0.5f});
    // Tilted so one corner touches and the other hangs 1 cm up, within the cache's wider margin.
    const Transform ground = at({0.0f, 0.0f});
    const Transform tilted = turnedAbout(at({0.0f, 1.0f}), {-0.5f, 0.5f}, 0.01f);
    Cached c = collideAndRemember(box, ground, box, tilted);
    REQUIRE(c.manifold.pointCount == 2);
    c.manifold.points[0].normalImpulse = 3.0f;
    c.manifold.points[0].tangentImpulse = -1.0f;
    c.manifold.points[1].normalImpulse = 5.0f;
    Manifold reused = c.manifold;
    REQUIRE(reuseManifold(c.cache, ground, tilted, kMargin, kTolerance, reused));
    REQUIRE(reused.pointCount == 2);
    for (int i = 0; i < 2; ++i) {
        const ManifoldPoint* p = withId(reused, c.manifold.points[i].id);
        REQUIRE(p != nullptr);
        CHECK(p->normalImpulse == c.manifold.points[i].normalImpulse);
        CHECK(p->tangentImpulse == c.manifold.points[i].tangentImpulse);
    }
    // A narrower margin than the hanging corner's gap drops it and keeps the touching one.
    const float gap = std::max(c.manifold.points[0].separation, c.manifold.points[1].separation);
    REQUIRE(gap > 0.005f);
    Manifold narrow = c.manifold;
    REQUIRE(reuseManifold(c.cache, ground, tilted, 0.5f * gap, kTolerance, narrow));
    REQUIRE(narrow.pointCount == 1);
    CHECK(narrow.points[0].separation < 0.5f * gap);
    CHECK(narrow.points[0].normalImpulse != 0.0f);
}

TEST_CASE("manifold cache: whenever it is used, no contact a full collision finds is missed") {
    // Random polygons in random contact, moved by random amounts around the bounds: whenever
    // the cache is used, the deepest point agrees with a full collision's within the bound.
    test::SplitMix64 rng(2026);
    int used = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        const Polygon a = makeBox({0.2f + rng.uniform(0.0f, 1.0f), 0.2f + rng.uniform(0.0f, 1.0f)});
        const Polygon b = makeBox({0.2f + rng.uniform(0.0f, 1.0f), 0.2f + rng.uniform(0.0f, 1.0f)});
        const Transform xfA =
            at({rng.uniform(-5.0f, 5.0f), rng.uniform(-5.0f, 5.0f)}, rng.uniform(-3.0f, 3.0f));
        // B placed just above A's top face in A's frame, turned a little.
        const float lift = a.vertices[2].y + b.vertices[2].y + rng.uniform(-0.01f, 0.02f);
        const Vec2 local{rng.uniform(-0.5f, 0.5f), lift};
        const float angleB = std::atan2(xfA.q.s, xfA.q.c) + rng.uniform(-0.05f, 0.05f);
        const Transform xfB = {transformPoint(xfA, local), makeRot(angleB)};
        const Cached c = collideAndRemember(a, xfA, b, xfB);
        const float step = 1.5f * kTolerance;
        const Transform moved =
            turnedAbout({xfB.p + Vec2{rng.uniform(-step, step), rng.uniform(-step, step)}, xfB.q},
                        xfB.p, rng.uniform(-1e-3f, 1e-3f));
        Manifold reused = c.manifold;
        if (!reuseManifold(c.cache, xfA, moved, kMargin, kTolerance, reused)) continue;
        ++used;
        const Manifold full = collidePolygons(a, xfA, b, moved, kMargin);
        if (full.pointCount > 0 && deepest(full) < kMargin - 4.0f * kTolerance) {
            REQUIRE(reused.pointCount > 0);
            CHECK(std::fabs(deepest(reused) - deepest(full)) <= 2.0f * kTolerance + 1e-5f);
        }
        for (int i = 0; i < reused.pointCount; ++i) CHECK(reused.points[i].separation <= kMargin);
    }
    CHECK(used > 300); // the bounds let a fair share through
}

namespace {

// What a contact keeps after a full collision of A and B: the manifold cache, or a record of
// shapes found apart.
ManifoldCache rememberAny(const Polygon& a, const Transform& xfA, const Polygon& b,
                          const Transform& xfB) {
    const float wider = cacheMargin(kMargin, kTolerance);
    float apart = 0.0f;
    const Manifold full = collidePolygons(a, xfA, b, xfB, wider, &apart);
    return apart > wider ? rememberApart(xfA, xfB, apart, reachOf(b))
                         : rememberManifold(full, xfA, xfB, wider);
}

struct Placements {
    Transform a, b;
};

// A anywhere within 50 m of the origin, B within 4 m of A, both turned at random.
Placements randomPlacements(test::SplitMix64& rng) {
    const Transform a =
        at({rng.uniform(-50.0f, 50.0f), rng.uniform(-50.0f, 50.0f)}, rng.uniform(-3.0f, 3.0f));
    return {a, at(a.p + Vec2{rng.uniform(-4.0f, 4.0f), rng.uniform(-4.0f, 4.0f)},
                  rng.uniform(-3.0f, 3.0f))};
}

// Both moved and turned at random: B by up to `scale` (m and rad), A by less.
Placements movedAtRandom(test::SplitMix64& rng, const Placements& from, float scale) {
    const auto move = [&](const Transform& xf, float shift, float turn) {
        return at(xf.p + Vec2{rng.uniform(-shift, shift), rng.uniform(-shift, shift)} * scale,
                  std::atan2(xf.q.s, xf.q.c) + rng.uniform(-turn, turn) * scale);
    };
    const Transform a = move(from.a, 0.1f, 0.3f);
    return {a, move(from.b, 1.0f, 1.0f)};
}

// Whether a record of shapes found apart still says so at `to` (an empty manifold then).
bool stillApart(const ManifoldCache& cache, const Placements& to) {
    Manifold m;
    m.pointCount = 0;
    if (!reuseManifold(cache, to.a, to.b, kMargin, kTolerance, m)) return false;
    CHECK(m.pointCount == 0);
    return true;
}

} // namespace

TEST_CASE("manifold cache: shapes found apart stay apart while B's motion is within the gap") {
    // Two 1 m boxes, 1 m apart along x; B's reach is its half diagonal, 0.71 m.
    const Polygon box = makeBox({0.5f, 0.5f});
    const Transform xfA = at({0.0f, 0.0f}), xfB = at({2.0f, 0.0f});
    const ManifoldCache cache = rememberAny(box, xfA, box, xfB);
    REQUIRE(cache.valid);
    REQUIRE(cache.pointCount == 0);
    CHECK(cache.apart == doctest::Approx(1.0f));
    CHECK(cache.reach == doctest::Approx(std::sqrt(0.5f)));
    Manifold m;
    m.pointCount = 0;
    // Half the gap closed: still apart, no collision needed.
    CHECK(reuseManifold(cache, xfA, at({1.5f, 0.0f}), kMargin, kTolerance, m));
    CHECK(m.pointCount == 0);
    // Within the margin of touching: refused, whatever a full collision would say.
    CHECK_FALSE(reuseManifold(cache, xfA, at({1.0f + kMargin, 0.0f}), kMargin, kTolerance, m));
    // A turn in place moves B's corners by reach x chord: 0.71 x 2 sin(0.5) = 0.68 m, within
    // the gap; a turn of 1.6 rad (chord 1.43, 1.01 m) is not.
    CHECK(reuseManifold(cache, xfA, at({2.0f, 0.0f}, 1.0f), kMargin, kTolerance, m));
    CHECK_FALSE(reuseManifold(cache, xfA, at({2.0f, 0.0f}, 1.6f), kMargin, kTolerance, m));
    // A's own turn moves B in A's frame the same way.
    CHECK_FALSE(
        reuseManifold(cache, at({0.0f, 0.0f}, 1.6f), at({2.0f, 0.0f}), kMargin, kTolerance, m));
}

TEST_CASE("manifold cache: shapes said to be apart are never found touching by a full collision") {
    // Random boxes and rounded polygons at random gaps, moved and turned at random: whenever the
    // record says they are still apart, a full collision finds no point within the margin.
    test::SplitMix64 rng(2611);
    int apartRecords = 0, kept = 0, refused = 0;
    for (int trial = 0; trial < 4000; ++trial) {
        const float radiusA = rng.uniform(0.0f, 1.0f) < 0.3f ? rng.uniform(0.0f, 0.3f) : 0.0f;
        const float radiusB = rng.uniform(0.0f, 1.0f) < 0.3f ? rng.uniform(0.0f, 0.3f) : 0.0f;
        Polygon a = makeBox({0.1f + rng.uniform(0.0f, 2.0f), 0.1f + rng.uniform(0.0f, 0.5f)});
        Polygon b = makeBox({0.1f + rng.uniform(0.0f, 0.5f), 0.1f + rng.uniform(0.0f, 0.5f)},
                            {rng.uniform(-0.3f, 0.3f), rng.uniform(-0.3f, 0.3f)});
        a.radius = radiusA;
        b.radius = radiusB;
        const Placements from = randomPlacements(rng);
        const ManifoldCache cache = rememberAny(a, from.a, b, from.b);
        if (!cache.valid || cache.pointCount != 0) continue;
        ++apartRecords;
        const Placements to = movedAtRandom(rng, from, rng.uniform(0.0f, 1.0f) * cache.apart);
        if (!stillApart(cache, to)) {
            ++refused;
            continue;
        }
        ++kept;
        CHECK(collidePolygons(a, to.a, b, to.b, kMargin).pointCount == 0);
    }
    CHECK(apartRecords > 1000);
    CHECK(kept > 300);
    CHECK(refused > 300);
}

TEST_CASE("manifold cache: a circle and a polygon said to be apart are never found touching") {
    // As above with a circle on either side; B's reach is then its centre's offset plus radius.
    test::SplitMix64 rng(2711);
    const float wider = cacheMargin(kMargin, kTolerance);
    int kept = 0, refused = 0;
    for (int trial = 0; trial < 4000; ++trial) {
        Polygon polygon = makeBox({0.1f + rng.uniform(0.0f, 2.0f), 0.1f + rng.uniform(0.0f, 0.5f)});
        polygon.radius = rng.uniform(0.0f, 1.0f) < 0.3f ? rng.uniform(0.0f, 0.3f) : 0.0f;
        const Circle circle{{rng.uniform(-0.3f, 0.3f), rng.uniform(-0.3f, 0.3f)},
                            0.05f + rng.uniform(0.0f, 0.5f)};
        const bool circleIsA = trial % 2 == 0;
        const Placements from = randomPlacements(rng);
        const auto collide = [&](const Placements& p, float margin, float* apart) {
            return circleIsA ? collideCirclePolygon(circle, p.a, polygon, p.b, margin, apart)
                             : collidePolygonCircle(polygon, p.a, circle, p.b, margin, apart);
        };
        float apart = 0.0f;
        if (collide(from, wider, &apart).pointCount != 0 || !(apart > wider)) continue;
        const float reach = circleIsA ? reachOf(polygon) : reachOf(circle);
        const ManifoldCache cache = rememberApart(from.a, from.b, apart, reach);
        const Placements to = movedAtRandom(rng, from, rng.uniform(0.0f, 1.0f) * apart);
        if (!stillApart(cache, to)) {
            ++refused;
            continue;
        }
        ++kept;
        CHECK(collide(to, kMargin, nullptr).pointCount == 0);
    }
    CHECK(kept > 300);
    CHECK(refused > 300);
}
