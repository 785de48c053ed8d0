// Queries: broad phase first, then exact shape tests; debug drawing honours the cull region.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "rigid2d/geometry.hpp"
#include "rigid2d/testing.hpp"

using namespace rigid2d;
using namespace rigid2d::testing;

namespace {
WorldDef staticDef() {
    WorldDef def;
    def.broadPhase = BroadPhaseType::BruteForce;
    def.gravity = {0.0f, 0.0f};
    return def;
}

struct CountingDraw final : DebugDraw {
    void drawCircle(Vec2, float, float, Color, Color) override { ++circles; }
    void drawBox(const AABB&, Color, Color) override { ++boxes; }
    void drawAABB(const AABB&, Color) override { ++aabbs; }
    void drawSegment(Vec2, Vec2, Color) override { ++segments; }
    void drawPoint(Vec2, float, Color) override { ++points; }
    int circles = 0, boxes = 0, aabbs = 0, segments = 0, points = 0;
};
} // namespace

TEST_CASE("queryAABB reports only shapes that really overlap the region") {
    World world(staticDef());
    const BodyId circle = createCircle(world, {0.0f, 0.0f}, 1.0f);
    const BodyId box = createBox(world, {5.0f, 0.0f}, {1.0f, 1.0f});
    std::vector<BodyId> found;
    auto collect = [&](const AABB& region) {
        found.clear();
        world.queryAABB(region, [&](ShapeId s) {
            found.push_back(world.shapeBody(s));
            return true;
        });
    };
    // The region touches the circle's bounding box corner but not the circle.
    collect(AABB{{0.8f, 0.8f}, {1.5f, 1.5f}});
    CHECK(found.empty());
    collect(AABB{{0.5f, 0.5f}, {1.5f, 1.5f}});
    REQUIRE(found.size() == 1);
    CHECK(found[0] == circle);
    collect(AABB{{-10.0f, -10.0f}, {10.0f, 10.0f}});
    CHECK(found.size() == 2);
    // Early stop.
    int visits = 0;
    world.queryAABB(AABB{{-10.0f, -10.0f}, {10.0f, 10.0f}}, [&](ShapeId) { return ++visits < 1; });
    CHECK(visits == 1);
    // After a teleport the query sees the new place at once.
    world.setTransform(box, {50.0f, 50.0f}, 0.0f);
    collect(AABB{{49.0f, 49.0f}, {51.0f, 51.0f}});
    REQUIRE(found.size() == 1);
    CHECK(found[0] == box);
}

TEST_CASE("castRay and castRayClosest hit the exact shapes") {
    World world(staticDef());
    const BodyId near = createCircle(world, {3.0f, 0.0f}, 0.5f);
    const BodyId far = createBox(world, {8.0f, 0.0f}, {1.0f, 2.0f});
    createCircle(world, {3.0f, 5.0f}, 0.5f); // off the ray
    const auto closest = world.castRayClosest({0.0f, 0.0f}, {20.0f, 0.0f});
    REQUIRE(closest.has_value());
    CHECK(world.shapeBody(closest->shape) == near);
    CHECK(closest->point.x == doctest::Approx(2.5f));
    CHECK(closest->normal.x == doctest::Approx(-1.0f));
    CHECK(closest->fraction == doctest::Approx(2.5f / 20.0f));
    int hits = 0;
    world.castRay({0.0f, 0.0f}, {20.0f, 0.0f}, [&](const RayHit&) {
        ++hits;
        return 1.0f; // continue unclipped
    });
    CHECK(hits == 2);
    const auto boxHit = world.castRayClosest({8.0f, 10.0f}, {0.0f, -10.0f});
    REQUIRE(boxHit.has_value());
    CHECK(world.shapeBody(boxHit->shape) == far);
    CHECK(boxHit->point.y == doctest::Approx(2.0f));
    CHECK(boxHit->normal.y == doctest::Approx(1.0f));
    CHECK_FALSE(world.castRayClosest({0.0f, 10.0f}, {20.0f, 0.0f}).has_value());
}

TEST_CASE("debugDraw draws every shape, or only those a query of the cull region returns") {
    World world = makeWorldWithFloor(staticDef());
    for (int i = 0; i < 10; ++i) createCircle(world, {static_cast<float>(i) * 3.0f, 1.0f}, 0.5f);
    world.step(kDefaultTimeStep);
    CountingDraw all;
    all.drawAABBs = true;
    world.debugDraw(all);
    CHECK(all.circles == 10);
    CHECK(all.boxes == 1);
    CHECK(all.aabbs == 11);
    CountingDraw culled;
    culled.useCullRegion = true;
    culled.cullRegion = AABB{{-1.0f, 0.0f}, {4.0f, 2.0f}};
    world.debugDraw(culled);
    CHECK(culled.circles == 2);
    CHECK(culled.boxes == 1);
}

TEST_CASE("castShape: a ball and a turned box swept at the ground and a wall stop at the touch") {
    World world = makeWorldWithFloor();
    const BodyId wall = world.createBody({});
    world.createBox(wall, {}, Box{{10.0f, 5.0f}, {0.5f, 5.0f}}); // its face at x = 9.5
    const auto ball = world.castShapeClosest(makeShapeProxy(Circle{{0.0f, 0.0f}, 0.5f}),
                                             {0.0f, 5.0f}, 0.0f, {0.0f, -10.0f});
    REQUIRE(ball.has_value());
    CHECK(10.0f * ball->fraction == doctest::Approx(4.5f).epsilon(1e-3));
    CHECK(ball->normal.y == doctest::Approx(1.0f).epsilon(1e-4));
    CHECK(ball->point.y == doctest::Approx(0.0f).scale(1.0f).epsilon(1e-3));
    // A unit box turned 45 degrees leads with a corner sqrt(0.5) ahead of its centre.
    const auto box = world.castShapeClosest(makeShapeProxy(Box{{0.0f, 0.0f}, {0.5f, 0.5f}}),
                                            {0.0f, 3.0f}, 0.785398163f, {20.0f, 0.0f});
    REQUIRE(box.has_value());
    CHECK(world.shapeBody(box->shape) == wall);
    CHECK(20.0f * box->fraction == doctest::Approx(9.5f - std::sqrt(0.5f)).epsilon(1e-3));
    CHECK(box->normal.x == doctest::Approx(-1.0f).epsilon(1e-4));
    // Nothing in the way.
    CHECK_FALSE(world
                    .castShapeClosest(makeShapeProxy(Circle{{0.0f, 0.0f}, 0.5f}), {0.0f, 5.0f},
                                      0.0f, {0.0f, 3.0f})
                    .has_value());
}

TEST_CASE("overlapShape finds exactly the shapes a placed shape overlaps") {
    World world = makeWorldWithFloor();
    const BodyId a = createCircle(world, {0.0f, 3.0f}, 0.5f);
    const BodyId b = createCircle(world, {2.0f, 3.0f}, 0.5f);
    const ShapeProxy capsule = makeShapeProxy(Capsule{{-1.0f, 0.0f}, {1.0f, 0.0f}, 0.2f});
    std::vector<BodyId> found;
    world.overlapShape(capsule, {1.0f, 3.0f}, 0.0f, [&](ShapeId s) {
        found.push_back(world.shapeBody(s));
        return true;
    });
    std::sort(found.begin(), found.end());
    std::vector<BodyId> expected{a, b};
    std::sort(expected.begin(), expected.end());
    CHECK(found == expected);
    found.clear();
    // Turned upright between them it touches neither (the gap is 1 m, the capsule 0.4 m wide).
    world.overlapShape(capsule, {1.0f, 3.0f}, 1.5707963f, [&](ShapeId s) {
        found.push_back(world.shapeBody(s));
        return true;
    });
    CHECK(found.empty());
}

TEST_CASE("shape queries refuse bad shapes and poses, naming the field") {
    World world = makeWorldWithFloor();
    const auto message = [&](auto&& call) {
        try {
            call();
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    ShapeProxy empty;
    CHECK(message([&] {
              world.overlapShape(empty, {}, 0.0f, [](ShapeId) { return true; });
          }).find("shape.count") != std::string::npos);
    ShapeProxy bad = makeShapeProxy(Circle{{0.0f, 0.0f}, 0.5f});
    bad.radius = -1.0f;
    CHECK(message([&] {
              (void)world.castShapeClosest(bad, {}, 0.0f, {1.0f, 0.0f});
          }).find("shape.radius") != std::string::npos);
    const ShapeProxy good = makeShapeProxy(Circle{{0.0f, 0.0f}, 0.5f});
    CHECK(message([&] {
              (void)world.castShapeClosest(good, {}, 0.0f,
                                           {std::numeric_limits<float>::quiet_NaN(), 0.0f});
          }).find("translation") != std::string::npos);
}

TEST_CASE("queryAABB with a region reaching to the float's limits finds turning shapes exactly") {
    // The overlap test builds a box of the region: one 1e38 wide made the distance's sums
    // overflow (found by the api-ops fuzzer under float traps).
    World world(staticDef());
    BodyDef def;
    def.type = BodyType::Dynamic;
    def.position = {3.0f, -2.0f};
    def.angle = 0.5f;
    const BodyId turning = world.createBody(def);
    world.createCapsule(turning, ShapeDef{}, {{-1.0f, 0.0f}, {1.0f, 0.0f}, 0.25f});
    std::vector<BodyId> found;
    const auto collect = [&](const AABB& region) {
        found.clear();
        world.queryAABB(region, [&](ShapeId s) {
            found.push_back(world.shapeBody(s));
            return true;
        });
    };
    collect(AABB{{-1e38f, -1e38f}, {1e38f, 1e38f}});
    REQUIRE(found.size() == 1);
    CHECK(found[0] == turning);
    // Huge, but only up to a line that passes below the capsule's lowest point (y = -2.73)
    // though inside its bounding box's reach once fattened.
    collect(AABB{{-1e38f, -1e38f}, {1e38f, -2.8f}});
    CHECK(found.empty());
    collect(AABB{{-1e38f, -1e38f}, {1e38f, -2.6f}});
    CHECK(found.size() == 1);
}
