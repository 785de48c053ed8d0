// Chain links in the [ShapeType][ShapeType] table: one-sided (nothing from behind), smooth (no
// normal from a link's end that would push a body back along a flat chain, where a plain segment
// gives one), and both orders of a pair agreeing.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "narrowphase/collide_shapes.hpp"
#include "rigid2d/geometry.hpp"

using namespace rigid2d;
using namespace rigid2d::detail;

namespace {

Transform at(Vec2 p, float angle = 0.0f) { return {p, makeRot(angle)}; }

// A link of a flat chain listed right to left, so that it faces up: from (1, 0) to (-1, 0), with
// the chain going on to (3, 0) and (-3, 0).
ShapeGeometry flatLink() { return makeGeometry(ChainSegment{{3, 0}, {{1, 0}, {-1, 0}}, {-3, 0}}); }

struct Named {
    std::string name;
    ShapeGeometry shape;
    float reach; // surface below the origin when upright
};

std::vector<Named> bodies() {
    const Vec2 hexagon[] = {{0.5f, 0},  {0.25f, 0.43f},   {-0.25f, 0.43f},
                            {-0.5f, 0}, {-0.25f, -0.43f}, {0.25f, -0.43f}};
    return {
        {"circle", makeGeometry(Circle{{0, 0}, 0.5f}), 0.5f},
        {"axis-aligned box", makeGeometry(Box{{0, 0}, {0.5f, 0.5f}}), 0.5f},
        {"hexagon", makeGeometry(makePolygon(hexagon)), 0.43f},
        {"capsule", makeGeometry(Capsule{{-0.4f, 0}, {0.4f, 0}, 0.25f}), 0.25f},
    };
}

} // namespace

TEST_CASE("chain link: a body in front gets the link's normal, one behind gets nothing") {
    const ShapeGeometry link = flatLink();
    for (const Named& body : bodies()) {
        CAPTURE(body.name);
        // 0.01 m deep from the front: pushed up.
        const Manifold front =
            collideShapes(link, at({0, 0}), body.shape, at({0.0f, body.reach - 0.01f}), 0.02f);
        REQUIRE(front.pointCount >= 1);
        CHECK(front.normal.x == doctest::Approx(0.0f).epsilon(1e-5));
        CHECK(front.normal.y == doctest::Approx(1.0f).epsilon(1e-5));
        for (int k = 0; k < front.pointCount; ++k)
            CHECK(front.points[k].separation == doctest::Approx(-0.01f).epsilon(1e-3));
        // The other order: the same contact, the normal reversed.
        const Manifold flipped =
            collideShapes(body.shape, at({0.0f, body.reach - 0.01f}), link, at({0, 0}), 0.02f);
        REQUIRE(flipped.pointCount == front.pointCount);
        CHECK(flipped.normal.y == doctest::Approx(-1.0f).epsilon(1e-5));
        // The mirror image from behind, centre below the line: no contact at all, where a plain
        // segment pushes it down.
        const Manifold behind =
            collideShapes(link, at({0, 0}), body.shape, at({0.0f, -(body.reach - 0.01f)}), 0.02f);
        CHECK(behind.pointCount == 0);
        const ShapeGeometry segment = makeGeometry(Segment{{1, 0}, {-1, 0}});
        const Manifold twoSided = collideShapes(segment, at({0, 0}), body.shape,
                                                at({0.0f, -(body.reach - 0.01f)}), 0.02f);
        CHECK(twoSided.pointCount >= 1);
        CHECK(twoSided.normal.y == doctest::Approx(-1.0f).epsilon(1e-5));
    }
}

TEST_CASE("chain link: a box just past a flat join is pushed up, not back (a segment catches)") {
    // The box lies over the next link but for 4 mm, 10 mm deep: a plain segment's best axis is
    // the box's side (separation -4 mm beats -10 mm), a wall in the box's way.
    const ShapeGeometry box = makeGeometry(Box{{0, 0}, {0.5f, 0.5f}});
    const Transform boxAt = at({1.5f - 0.004f, 0.49f});
    const ShapeGeometry segment = makeGeometry(Segment{{1, 0}, {-1, 0}});
    const Manifold plain = collideShapes(segment, at({0, 0}), box, boxAt, 0.02f);
    REQUIRE(plain.pointCount >= 1);
    CHECK(std::fabs(plain.normal.x) == doctest::Approx(1.0f).epsilon(1e-5));

    const Manifold smooth = collideShapes(flatLink(), at({0, 0}), box, boxAt, 0.02f);
    REQUIRE(smooth.pointCount >= 1);
    CHECK(smooth.normal.x == doctest::Approx(0.0f).epsilon(1e-5));
    CHECK(smooth.normal.y == doctest::Approx(1.0f).epsilon(1e-5));
    for (int k = 0; k < smooth.pointCount; ++k) {
        CHECK(smooth.points[k].separation == doctest::Approx(-0.01f).epsilon(1e-3));
        CHECK(smooth.points[k].point.x <= 1.0f + 1e-5f); // on this link, not beyond its end
    }
    // Turned a little, as a sliding box rocks (its corner over the link dips): still up.
    const Manifold rocked =
        collideShapes(flatLink(), at({0, 0}), box, at({1.5f - 0.004f, 0.49f}, -0.01f), 0.02f);
    REQUIRE(rocked.pointCount >= 1);
    CHECK(rocked.normal.y > 0.999f);
}

TEST_CASE("chain link: a circle beyond an end belongs to the neighbour whose face it is over") {
    const ShapeGeometry ball = makeGeometry(Circle{{0, 0}, 0.5f});
    // Over the next link's face (x > 1 on a flat chain): that link's contact, not this one's.
    CHECK(collideShapes(flatLink(), at({0, 0}), ball, at({1.2f, 0.49f}), 0.02f).pointCount == 0);
    // A crest: the chain drops away beyond (1, 0) (ghost at (3, -2)). Beyond the end, in the
    // corner's own region, the link touches the ball at its end point along the line from it.
    const ShapeGeometry crest = makeGeometry(ChainSegment{{3, -2}, {{1, 0}, {-1, 0}}, {-3, 0}});
    const Manifold corner = collideShapes(crest, at({0, 0}), ball, at({1.2f, 0.35f}), 0.02f);
    REQUIRE(corner.pointCount == 1);
    const float length = std::sqrt(0.2f * 0.2f + 0.35f * 0.35f);
    CHECK(corner.normal.x == doctest::Approx(0.2f / length).epsilon(1e-4));
    CHECK(corner.normal.y == doctest::Approx(0.35f / length).epsilon(1e-4));
    CHECK(corner.points[0].separation == doctest::Approx(length - 0.5f).epsilon(1e-4));
    // Past the neighbour's normal (over the slope beyond the crest): the neighbour's, though a
    // plain segment touches it at its end.
    CHECK(collideShapes(crest, at({0, 0}), ball, at({1.35f, 0.05f}), 0.02f).pointCount == 0);
    const ShapeGeometry segment = makeGeometry(Segment{{1, 0}, {-1, 0}});
    CHECK(collideShapes(segment, at({0, 0}), ball, at({1.35f, 0.05f}), 0.02f).pointCount == 1);
}

TEST_CASE("chain link: in a valley a box is pushed along the link's own normal") {
    // The chain rises beyond (1, 0) at 45 degrees (ghost at (3, 2)): a box sitting in the valley
    // touches both links; this link pushes it straight up, never sideways out of the valley's
    // other wall.
    const ShapeGeometry valley = makeGeometry(ChainSegment{{3, 2}, {{1, 0}, {-1, 0}}, {-3, 0}});
    const ShapeGeometry box = makeGeometry(Box{{0, 0}, {0.3f, 0.3f}});
    int touching = 0;
    for (const float x : {0.5f, 0.75f, 0.9f}) {
        CAPTURE(x);
        const Manifold m = collideShapes(valley, at({0, 0}), box, at({x, 0.35f}, 0.3f), 0.02f);
        if (m.pointCount == 0) continue;
        ++touching;
        CHECK(m.normal.x == doctest::Approx(0.0f).epsilon(1e-5));
        CHECK(m.normal.y == doctest::Approx(1.0f).epsilon(1e-5));
    }
    CHECK(touching == 3);
}

TEST_CASE("chain link against chain link or segment: no contact (neither has area)") {
    const ShapeGeometry segment = makeGeometry(Segment{{-1, 0}, {1, 0}});
    CHECK(collideShapes(flatLink(), at({0, 0}), flatLink(), at({0, 0.001f}), 0.02f).pointCount ==
          0);
    CHECK(collideShapes(flatLink(), at({0, 0}), segment, at({0, 0.001f}), 0.02f).pointCount == 0);
    CHECK(collideShapes(segment, at({0, 0}), flatLink(), at({0, 0.001f}), 0.02f).pointCount == 0);
}
