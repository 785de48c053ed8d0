// Chains in a world: one-sided (a body from behind passes), smooth (a box sliding over many short
// links keeps its height and speed, where the same links as separate segments jolt it), a ball
// rolling down a chain ramp at the analytic speed, loops, refusals that leave the world as it
// was, destruction, ray casts, snapshots and every broad phase giving the same bits.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "rigid2d/testing.hpp"
#include "world_defs.hpp"

using namespace rigid2d;
using namespace rigid2d::testing;

namespace {

constexpr float kPi = 3.14159265f;

// Points of a flat ground at y = 0 from x = +half to -half (right to left: it faces up), `count`
// links long, with a ghost point beyond each end.
std::vector<Vec2> flatPoints(float half, int count) {
    std::vector<Vec2> points;
    const float step = 2.0f * half / static_cast<float>(count);
    for (int i = count + 1; i >= -1; --i)
        points.push_back({-half + step * static_cast<float>(i), 0.0f});
    return points;
}

// A box of 0.5 m half extents launched along a flat ground of 0.05 m links at 4 m/s without
// friction, for 5 s (20 m); the largest |vertical speed|, |height - 0.5| and |angle| on the way,
// and the speed lost.
struct Slide {
    float maxVerticalSpeed = 0.0f;
    float maxHeightError = 0.0f;
    float maxAngle = 0.0f;
    float speedLost = 0.0f;
};

Slide slideBox(bool asChain, bool turns) {
    World world(bruteForceDef());
    const BodyId ground = world.createBody({});
    const std::vector<Vec2> points = flatPoints(20.0f, 800);
    if (asChain) {
        world.createChain(ground, {.points = points, .friction = 0.0f});
    } else {
        for (std::size_t i = 1; i + 2 < points.size(); ++i)
            world.createSegment(ground, {.friction = 0.0f}, Segment{points[i], points[i + 1]});
    }
    BodyDef def;
    def.type = BodyType::Dynamic;
    def.position = {-15.0f, 0.5f};
    def.fixedRotation = !turns; // axis-aligned: its flat bottom meets every join square on
    def.linearVelocity = {4.0f, 0.0f};
    const BodyId box = world.createBody(def);
    world.createBox(box, {.friction = 0.0f}, Box{{0.0f, 0.0f}, {0.5f, 0.5f}});
    Slide slide;
    for (int i = 0; i < 300; ++i) {
        world.step(kDefaultTimeStep);
        slide.maxVerticalSpeed =
            std::max(slide.maxVerticalSpeed, std::fabs(world.linearVelocity(box).y));
        slide.maxHeightError =
            std::max(slide.maxHeightError, std::fabs(world.position(box).y - 0.5f));
        slide.maxAngle = std::max(slide.maxAngle, std::fabs(world.angle(box)));
    }
    slide.speedLost = 4.0f - world.linearVelocity(box).x;
    return slide;
}

float dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }

} // namespace

TEST_CASE("chain: a box sliding over many short links keeps its height and speed") {
    for (const bool turns : {false, true}) {
        CAPTURE(turns);
        const Slide chain = slideBox(true, turns);
        CHECK(chain.maxVerticalSpeed < 0.01f);
        CHECK(chain.maxHeightError < 0.005f);
        CHECK(chain.maxAngle < 0.01f);
        CHECK(std::fabs(chain.speedLost) < 0.01f);
        // The same links as separate segments: the box's front edge meets the next segment's end
        // as a wall; the box stops (or, free to turn, trips over it and tumbles).
        const Slide segments = slideBox(false, turns);
        MESSAGE("segments: lost " << segments.speedLost << " m/s, turned up to "
                                  << segments.maxAngle << " rad; chain: lost " << chain.speedLost
                                  << " m/s, turned up to " << chain.maxAngle << " rad");
        CHECK(segments.speedLost > 2.0f);
    }
}

TEST_CASE("chain: one-sided, a ball from behind passes and one from the front lands") {
    World world(bruteForceDef());
    const BodyId ground = world.createBody({});
    const std::vector<Vec2> points = flatPoints(5.0f, 10);
    world.createChain(ground, {.points = points});
    const BodyId rising = createCircle(world, {-2.0f, -1.0f}, 0.25f);
    world.setLinearVelocity(rising, {0.0f, 12.0f});
    const BodyId falling = createCircle(world, {2.0f, 2.0f}, 0.25f);
    float highest = -1.0f;
    for (int i = 0; i < 120; ++i) {
        world.step(kDefaultTimeStep);
        highest = std::max(highest, world.position(rising).y);
    }
    CHECK(highest > 5.0f); // through the chain from below, up to about v^2 / 2g - 1 = 6.2 m
    CHECK(world.position(falling).y == doctest::Approx(0.25f).epsilon(0.02));
    // A bullet from behind is not stopped by continuous collision either.
    const BodyId bullet = createCircle(world, {0.0f, -3.0f}, 0.1f);
    world.setBullet(bullet, true);
    world.setLinearVelocity(bullet, {0.0f, 200.0f});
    world.step(kDefaultTimeStep);
    CHECK(world.position(bullet).y > 0.0f);
}

TEST_CASE("chain: a ball rolls down a chain ramp at the speed of rolling without slipping") {
    // A 30 degree ramp of 0.25 m links, going down to the right and listed right to left (faces
    // up). A disc rolling from rest: a = (2/3) g sin(theta), so v = sqrt(2 a d) after d metres.
    const float theta = kPi / 6.0f;
    const Vec2 down{std::cos(theta), -std::sin(theta)};
    std::vector<Vec2> points;
    for (int i = 101; i >= -1; --i) points.push_back(0.25f * static_cast<float>(i) * down);
    World world(bruteForceDef());
    world.createChain(world.createBody({}), {.points = points, .friction = 1.0f});
    const Vec2 normal{std::sin(theta), std::cos(theta)};
    const Vec2 start = 2.0f * down + 0.5f * normal;
    const BodyId ball = createCircle(world, start, 0.5f, {.friction = 1.0f});
    const float seconds = 2.0f;
    stepFor(world, seconds);
    const float travelled = dot(world.position(ball) - start, down);
    const float a = (2.0f / 3.0f) * 10.0f * std::sin(theta);
    CHECK(travelled == doctest::Approx(0.5f * a * seconds * seconds).epsilon(0.03));
    const Vec2 v = world.linearVelocity(ball);
    CHECK(std::sqrt(dot(v, v)) == doctest::Approx(std::sqrt(2.0f * a * travelled)).epsilon(0.03));
    CHECK(std::fabs(dot(world.position(ball) - start, normal)) < 0.01f); // stays on the surface
}

TEST_CASE("chain: a counter-clockwise loop is a solid, a clockwise one a container") {
    World world(bruteForceDef());
    std::vector<Vec2> octagon;
    for (int k = 0; k < 8; ++k) {
        const float a = static_cast<float>(k) * kPi / 4.0f + kPi / 8.0f;
        octagon.push_back({3.0f * std::cos(a), 3.0f * std::sin(a)});
    }
    const BodyId solid = world.createBody({.position = {-10.0f, 0.0f}});
    const ChainId outwards = world.createChain(solid, {.points = octagon, .loop = true});
    CHECK(world.isLoop(outwards));
    CHECK(world.chainSegments(outwards).size() == 8);
    std::vector<Vec2> clockwise(octagon.rbegin(), octagon.rend());
    const BodyId bowl = world.createBody({.position = {10.0f, 0.0f}});
    world.createChain(bowl, {.points = clockwise, .loop = true});
    const BodyId onTop = createCircle(world, {-10.0f, 5.0f}, 0.5f);
    std::vector<BodyId> inside;
    for (int i = 0; i < 5; ++i)
        inside.push_back(createCircle(world, {8.5f + 0.7f * static_cast<float>(i), 1.0f}, 0.3f));
    stepFor(world, 3.0f);
    // On the flat top edge of the octagon, at 3 cos(pi/8) + 0.5.
    CHECK(world.position(onTop).y ==
          doctest::Approx(3.0f * std::cos(kPi / 8.0f) + 0.5f).epsilon(0.01));
    for (const BodyId ball : inside) {
        const Vec2 p = world.position(ball) - Vec2{10.0f, 0.0f};
        CHECK(std::sqrt(dot(p, p)) < 3.0f);
    }
}

TEST_CASE("chain: ids, links, ghost vertices and destruction") {
    World world(bruteForceDef());
    const BodyId ground = world.createBody({});
    const std::vector<Vec2> points = {{3, 0}, {2, 0}, {1, 0.5f}, {0, 0}, {-1, 0}};
    const ChainId chain = world.createChain(
        ground, {.points = points, .friction = 0.3f, .restitution = 0.2f, .userData = 7});
    CHECK(world.isValid(chain));
    CHECK(world.chainBody(chain) == ground);
    CHECK_FALSE(world.isLoop(chain));
    const std::vector<ShapeId> links = world.chainSegments(chain);
    REQUIRE(links.size() == 2);
    for (std::size_t i = 0; i < links.size(); ++i) {
        CHECK((world.shapeType(links[i]) == ShapeType::ChainSegment));
        CHECK(world.shapeChain(links[i]) == chain);
        CHECK(world.friction(links[i]) == 0.3f);
        CHECK(world.restitution(links[i]) == 0.2f);
        CHECK(world.userData(links[i]) == 7);
        const ChainSegment link = world.shapeChainSegment(links[i]);
        CHECK(link.ghost1 == points[i]);
        CHECK(link.segment.point1 == points[i + 1]);
        CHECK(link.segment.point2 == points[i + 2]);
        CHECK(link.ghost2 == points[i + 3]);
    }
    CHECK_THROWS_AS(world.destroyShape(links[0]), Error);
    CHECK(world.isValid(links[0]));
    CHECK_THROWS_AS((void)world.shapeSegment(links[0]), Error);
    const ShapeId other = world.createSegment(ground, {}, Segment{{0, -1}, {1, -1}});
    CHECK_THROWS_AS((void)world.shapeChain(other), Error);
    world.destroyChain(chain);
    CHECK_FALSE(world.isValid(chain));
    CHECK_FALSE(world.isValid(links[0]));
    CHECK_FALSE(world.isValid(links[1]));
    CHECK(world.isValid(other));
    CHECK_THROWS_AS(world.destroyChain(chain), Error);
    CHECK_THROWS_AS((void)world.chainSegments(chain), Error);
    // A new chain in the freed slot gets a new generation: the old id stays stale.
    const ChainId again = world.createChain(ground, {.points = points});
    CHECK(again.index == chain.index);
    CHECK_FALSE(world.isValid(chain));
    // Destroying the body destroys its chains.
    world.destroyBody(ground);
    CHECK_FALSE(world.isValid(again));
    CHECK(world.bodyCount() == 0);
}

TEST_CASE("chain: bad chains are refused, naming the field, with the world unchanged") {
    World world(bruteForceDef());
    const BodyId ground = world.createBody({});
    world.createChain(ground, {.points = flatPoints(2.0f, 4)});
    createCircle(world, {0.0f, 1.0f}, 0.25f);
    stepFor(world, 0.2f);
    const std::uint64_t before = stateHash(world);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const auto shapesOf = [&](BodyId body) {
        int count = 0;
        world.forEachShape(body, [&](ShapeId) { ++count; });
        return count;
    };
    const int groundShapes = shapesOf(ground);
    const auto refused = [&](BodyId body, const ChainDef& def, const char* field) {
        try {
            (void)world.createChain(body, def);
            FAIL("accepted");
        } catch (const Error& e) {
            CHECK(std::string(e.what()).find("World::createChain") != std::string::npos);
            CHECK_MESSAGE(std::string(e.what()).find(field) != std::string::npos, e.what());
        }
        CHECK(stateHash(world) == before);
        CHECK(shapesOf(ground) == groundShapes);
    };
    const std::vector<Vec2> three = {{2, 0}, {1, 0}, {0, 0}};
    const std::vector<Vec2> two = {{1, 0}, {0, 0}};
    const std::vector<Vec2> withNaN = {{3, 0}, {2, 0}, {nan, 0}, {0, 0}};
    const std::vector<Vec2> repeated = {{3, 0}, {2, 0}, {2, 0}, {0, 0}, {-1, 0}};
    const std::vector<Vec2> farOut = {{3, 0}, {2, 0}, {2e9f, 0}, {0, 0}};
    const std::vector<Vec2> tooMany(std::size_t{kMaxChainPoints} + 1, Vec2{0, 0});
    refused(ground, {.points = three}, "def.points");
    refused(ground, {.points = two, .loop = true}, "def.points");
    refused(ground, {.points = withNaN}, "def.points");
    refused(ground, {.points = repeated}, "def.points");
    refused(ground, {.points = farOut}, "def.points");
    refused(ground, {.points = tooMany}, "def.points");
    // A loop whose last point is its first.
    const std::vector<Vec2> closedTwice = {{0, 0}, {1, 0}, {1, 1}, {0, 0}};
    refused(ground, {.points = closedTwice, .loop = true}, "def.points");
    refused(ground, {.points = flatPoints(1.0f, 2), .friction = -1.0f}, "def.friction");
    refused(ground, {.points = flatPoints(1.0f, 2), .restitution = nan}, "def.restitution");
    const BodyId dynamic = createCircle(world, {5.0f, 5.0f}, 0.5f);
    const std::uint64_t withBall = stateHash(world);
    CHECK_THROWS_AS((void)world.createChain(dynamic, {.points = flatPoints(1.0f, 2)}), Error);
    CHECK(stateHash(world) == withBall);
    CHECK_THROWS_AS((void)world.createChain(BodyId{}, {.points = flatPoints(1.0f, 2)}), Error);
    CHECK_THROWS_AS(world.destroyChain(ChainId{}), Error);
}

TEST_CASE("chain: links are shapes to events, queries and filters") {
    World world(bruteForceDef());
    const BodyId ground = world.createBody({});
    const ChainId chain = world.createChain(ground, {.points = flatPoints(5.0f, 10)});
    const std::vector<ShapeId> links = world.chainSegments(chain);
    // A chain whose filter leaves out category 2: a ball of that category falls through it.
    const ChainId picky = world.createChain(
        world.createBody({.position = {20.0f, 0.0f}}),
        {.points = flatPoints(5.0f, 10), .filter = {.categoryBits = 1, .maskBits = ~2u}});
    const BodyId ball = createCircle(world, {0.25f, 1.0f}, 0.25f);
    const BodyId ghost = createCircle(world, {20.0f, 1.0f}, 0.25f, {.filter = {.categoryBits = 2}});
    bool began = false;
    for (int i = 0; i < 60 && !began; ++i) {
        world.step(kDefaultTimeStep);
        for (const ContactBeginEvent& e : world.contactEvents().begin)
            began = began || std::find(links.begin(), links.end(), e.shapeA) != links.end() ||
                    std::find(links.begin(), links.end(), e.shapeB) != links.end();
    }
    CHECK(began);
    stepFor(world, 1.0f);
    CHECK(world.position(ball).y == doctest::Approx(0.25f).epsilon(0.02));
    CHECK(world.position(ghost).y < -1.0f);
    std::vector<ShapeId> found;
    world.queryAABB({{-2.1f, -0.1f}, {-1.9f, 0.1f}}, [&](ShapeId shape) {
        found.push_back(shape);
        return true;
    });
    REQUIRE(found.size() == 2); // the two links that meet at x = -2
    for (const ShapeId shape : found) CHECK(world.shapeChain(shape) == chain);
    CHECK(world.isValid(picky));
}

TEST_CASE("chain: on a kinematic body the chain moves with it and carries what rests on it") {
    World world(bruteForceDef());
    const BodyId lift =
        world.createBody({.type = BodyType::Kinematic, .linearVelocity = {0.0f, 1.0f}});
    world.createChain(lift, {.points = flatPoints(3.0f, 6)});
    const BodyId box = createBox(world, {0.0f, 0.5f}, {0.5f, 0.5f});
    stepFor(world, 2.0f);
    CHECK(world.position(lift).y == doctest::Approx(2.0f).epsilon(0.01));
    CHECK(world.position(box).y == doctest::Approx(2.5f).epsilon(0.01));
    CHECK(world.linearVelocity(box).y == doctest::Approx(1.0f).epsilon(0.02));
}

TEST_CASE("chain: debug draw draws each link as a segment") {
    struct Recorder final : DebugDraw {
        std::vector<std::vector<Vec2>> polygons;
        void drawCircle(Vec2, float, float, Color, Color) override {}
        void drawBox(const AABB&, Color, Color) override {}
        void drawAABB(const AABB&, Color) override {}
        void drawSegment(Vec2, Vec2, Color) override {}
        void drawPoint(Vec2, float, Color) override {}
        void drawPolygon(std::span<const Vec2> vertices, float radius, Color, Color) override {
            CHECK(radius == 0.0f);
            polygons.emplace_back(vertices.begin(), vertices.end());
        }
    };
    World world(bruteForceDef());
    const std::vector<Vec2> points = {{3, 0}, {2, 0}, {1, 0.5f}, {0, 0}, {-1, 0}};
    world.createChain(world.createBody({.position = {10.0f, 1.0f}}), {.points = points});
    Recorder draw;
    world.debugDraw(draw);
    REQUIRE(draw.polygons.size() == 2);
    std::vector<std::vector<Vec2>> expected = {{{12, 1}, {11, 1.5f}}, {{11, 1.5f}, {10, 1}}};
    std::sort(draw.polygons.begin(), draw.polygons.end(),
              [](const auto& a, const auto& b) { return a[0].x > b[0].x; });
    CHECK(draw.polygons == expected);
}

TEST_CASE("chain: ray casts hit a link from the front only") {
    World world(bruteForceDef());
    world.createChain(world.createBody({}), {.points = flatPoints(5.0f, 10)});
    const auto down = world.castRayClosest({0.3f, 2.0f}, {0.0f, -4.0f});
    REQUIRE(down.has_value());
    CHECK(down->point.y == doctest::Approx(0.0f));
    CHECK(down->normal.y == doctest::Approx(1.0f));
    CHECK(down->fraction == doctest::Approx(0.5f));
    CHECK_FALSE(world.castRayClosest({0.3f, -2.0f}, {0.0f, 4.0f}).has_value());
}

TEST_CASE("chain: a snapshot round trip steps on to the same bits") {
    World world(bruteForceDef());
    const BodyId ground = world.createBody({});
    std::vector<Vec2> hills;
    for (int i = 41; i >= -1; --i) {
        const float x = -10.0f + 0.5f * static_cast<float>(i);
        hills.push_back({x, 0.8f * std::sin(0.7f * x)});
    }
    const ChainId chain = world.createChain(ground, {.points = hills});
    const ChainId dropped = world.createChain(ground, {.points = flatPoints(1.0f, 3)});
    world.destroyChain(dropped); // a free chain slot travels too
    for (int i = 0; i < 12; ++i) {
        BodyDef def;
        def.type = BodyType::Dynamic;
        def.position = {-8.0f + 1.4f * static_cast<float>(i), 3.0f};
        const BodyId body = world.createBody(def);
        world.createCapsule(body, {}, Capsule{{-0.3f, 0.0f}, {0.3f, 0.0f}, 0.2f});
    }
    stepFor(world, 0.5f);
    const std::vector<std::uint8_t> bytes = world.snapshot();
    const std::vector<ShapeId> links = world.chainSegments(chain);
    std::vector<ChainSegment> before;
    for (const ShapeId link : links) before.push_back(world.shapeChainSegment(link));
    stepFor(world, 1.0f);
    const std::uint64_t onwards = stateHash(world);
    const ChainId next = world.createChain(ground, {.points = flatPoints(1.0f, 3)});
    // Back to the snapshot: the chain, its links and the free slot as they were.
    world.restore(bytes);
    CHECK(world.isValid(chain));
    CHECK_FALSE(world.isValid(dropped));
    CHECK_FALSE(world.isValid(next));
    CHECK(world.chainSegments(chain) == links);
    for (std::size_t i = 0; i < links.size(); ++i) {
        const ChainSegment link = world.shapeChainSegment(links[i]);
        CHECK(link.ghost1 == before[i].ghost1);
        CHECK(link.ghost2 == before[i].ghost2);
        CHECK(link.segment.point1 == before[i].segment.point1);
        CHECK(link.segment.point2 == before[i].segment.point2);
    }
    stepFor(world, 1.0f);
    CHECK(stateHash(world) == onwards);
    CHECK(world.createChain(ground, {.points = flatPoints(1.0f, 3)}) == next);
}

TEST_CASE("chain: the landscape of capsules gives the same bits on every broad phase") {
    const auto run = [](BroadPhaseType type) {
        WorldDef def;
        def.broadPhase = type;
        World world(def);
        std::vector<Vec2> hills;
        for (int i = 81; i >= -1; --i) {
            const float x = -20.0f + 0.5f * static_cast<float>(i);
            hills.push_back({x, 1.5f * std::sin(0.3f * x)});
        }
        world.createChain(world.createBody({}), {.points = hills});
        for (int i = 0; i < 30; ++i) {
            BodyDef body;
            body.type = BodyType::Dynamic;
            body.position = {-18.0f + 1.2f * static_cast<float>(i), 4.0f + 0.3f * float(i % 4)};
            body.angle = 0.4f * static_cast<float>(i);
            const BodyId id = world.createBody(body);
            if (i % 3 == 0)
                world.createBox(id, {}, Box{{0.0f, 0.0f}, {0.3f, 0.2f}});
            else
                world.createCapsule(id, {}, Capsule{{-0.3f, 0.0f}, {0.3f, 0.0f}, 0.2f});
        }
        stepFor(world, 3.0f);
        CHECK(allFinite(world));
        return stateHash(world);
    };
    const std::uint64_t reference = run(BroadPhaseType::BruteForce);
    for (const BroadPhaseType type : kAllBroadPhaseTypes) {
        CAPTURE(toString(type));
        CHECK(run(type) == reference);
    }
}
