// Events after each step: contact begin/end/hit, sensor begin/end, end events on destruction.
#include <doctest/doctest.h>

#include "rigid2d/testing.hpp"
#include "world/world_defs.hpp"

using namespace rigid2d;
using namespace rigid2d::testing;

TEST_CASE("a sensor reports exactly one begin and one end for a body passing through") {
    WorldDef def = bruteForceDef();
    def.gravity = {0.0f, 0.0f};
    World world(def);
    ShapeDef sensorDef;
    sensorDef.isSensor = true;
    const BodyId sensorBody =
        createBox(world, {0.0f, 0.0f}, {1.0f, 1.0f}, sensorDef, BodyType::Static);
    ShapeId sensorShape;
    world.forEachShape(sensorBody, [&](ShapeId s) { sensorShape = s; });
    const BodyId ball = createCircle(world, {-5.0f, 0.0f}, 0.25f);
    world.setLinearVelocity(ball, {3.0f, 0.0f});
    int begins = 0, ends = 0;
    for (int i = 0; i < 240; ++i) {
        world.step(kDefaultTimeStep);
        const SensorEvents events = world.sensorEvents();
        for (const SensorBeginEvent& e : events.begin) {
            CHECK(e.sensorShape == sensorShape);
            CHECK(world.shapeBody(e.visitorShape) == ball);
            ++begins;
        }
        ends += static_cast<int>(events.end.size());
    }
    CHECK(world.position(ball).x > 2.0f);
    CHECK(begins == 1);
    CHECK(ends == 1);
    // The sensor did not push: the ball kept its speed.
    CHECK(world.linearVelocity(ball).x == doctest::Approx(3.0f));
}

TEST_CASE("contact begin, hit and end events") {
    World world = makeWorldWithFloor(bruteForceDef());
    const BodyId ball = createCircle(world, {0.0f, 3.0f}, 0.5f);
    int begins = 0, hits = 0;
    float hitSpeed = 0.0f;
    Vec2 hitPoint{-1.0f, -1.0f};
    for (int i = 0; i < 120; ++i) {
        world.step(kDefaultTimeStep);
        begins += static_cast<int>(world.contactEvents().begin.size());
        for (const ContactHitEvent& hit : world.contactEvents().hit) {
            ++hits;
            hitSpeed = hit.approachSpeed;
            hitPoint = hit.point;
            CHECK(hit.normal.y != 0.0f);
        }
    }
    CHECK(begins == 1);
    CHECK(hits == 1);
    // Fell 2.5 m: v = sqrt(2 g h) ≈ 7.07 m/s.
    CHECK(hitSpeed == doctest::Approx(7.07f).epsilon(0.05));
    // The point is the contact's as the step found it: under the ball, midway between its surface
    // and the floor's (y = 0), which were less than one step of the fall apart (0.12 m).
    CHECK(hitPoint.x == doctest::Approx(0.0f));
    CHECK(hitPoint.y >= 0.0f);
    CHECK(hitPoint.y < 0.06f);
    world.destroyBody(ball);
    world.step(kDefaultTimeStep);
    CHECK(world.contactEvents().end.size() == 1);
    world.step(kDefaultTimeStep);
    CHECK(world.contactEvents().end.empty());
}

TEST_CASE("hit events only where a shape of the contact enables them") {
    // Two balls dropped side by side on a floor whose shape does not report hits: only the ball
    // that does reports its landing.
    World world(bruteForceDef());
    ShapeDef quiet;
    quiet.enableHitEvents = false;
    createBox(world, {0.0f, -0.5f}, {10.0f, 0.5f}, quiet, BodyType::Static);
    const BodyId loud = createCircle(world, {-2.0f, 3.0f}, 0.5f);
    createCircle(world, {2.0f, 3.0f}, 0.5f, quiet);
    int hits = 0;
    for (int i = 0; i < 120; ++i) {
        world.step(kDefaultTimeStep);
        for (const ContactHitEvent& hit : world.contactEvents().hit) {
            ++hits;
            CHECK((world.shapeBody(hit.shapeA) == loud || world.shapeBody(hit.shapeB) == loud));
            CHECK(hit.approachSpeed == doctest::Approx(7.07f).epsilon(0.05));
        }
    }
    CHECK(hits == 1);
}
