// Sleeping and waking: what wakes a sleeping island, what filtering does, and that sleeping
// bodies cost nothing (they leave the awake set).
#include <doctest/doctest.h>

#include "rigid2d/testing.hpp"
#include "world/world_defs.hpp"

using namespace rigid2d;
using namespace rigid2d::testing;

TEST_CASE("a sleeping stack wakes on API changes and on a touching awake body") {
    World world = makeWorldWithFloor(bruteForceDef());
    const BodyId bottom = createBox(world, {0.0f, 0.5f}, {0.5f, 0.5f});
    const BodyId top = createBox(world, {0.0f, 1.5f}, {0.5f, 0.5f});
    REQUIRE(stepUntilAsleep(world, 5.0f) >= 0.0f);
    CHECK(world.stats().awakeBodies == 0);
    const std::uint64_t asleep = stateHash(world);
    stepFor(world, 1.0f);
    CHECK(stateHash(world) == asleep); // nothing moves while asleep

    // Waking one body wakes its island.
    world.applyForceToCenter(top, {1.0f, 0.0f});
    CHECK(world.isAwake(top));
    CHECK(world.isAwake(bottom));
    REQUIRE(stepUntilAsleep(world, 5.0f) >= 0.0f);
    world.setAwake(bottom, true);
    CHECK(world.isAwake(top));
    world.setAwake(bottom, false);
    CHECK_FALSE(world.isAwake(top));

    // A ball dropped on the stack wakes it when they touch.
    const BodyId ball = createCircle(world, {0.0f, 4.0f}, 0.25f);
    bool wokeTop = false;
    for (int i = 0; i < 60 && !wokeTop; ++i) {
        world.step(kDefaultTimeStep);
        wokeTop = world.isAwake(top);
    }
    CHECK(wokeTop);
    CHECK(world.position(ball).y > 2.0f); // it landed on the stack, not through it

    // Destroying a body wakes what it touched.
    REQUIRE(stepUntilAsleep(world, 5.0f) >= 0.0f);
    world.destroyBody(ball);
    CHECK(world.isAwake(top));
}

TEST_CASE("collision filtering: categories, masks and groups") {
    World world = makeWorldWithFloor(bruteForceDef());
    ShapeDef ghost;
    ghost.filter.maskBits = 0xFFFFFFFEu; // ignores category 1 (the floor)
    const BodyId fallsThrough = createCircle(world, {0.0f, 1.0f}, 0.25f, ghost);
    ShapeDef groupA;
    groupA.filter.groupIndex = -3;
    const BodyId a = createCircle(world, {5.0f, 0.25f}, 0.25f, groupA);
    const BodyId b = createCircle(world, {5.2f, 0.25f}, 0.25f, groupA); // overlaps a, never pushed
    stepFor(world, 1.0f);
    CHECK(world.position(fallsThrough).y < -1.0f);
    CHECK(world.position(a).x == doctest::Approx(5.0f));
    CHECK(world.position(b).x == doctest::Approx(5.2f));
    // Turning the filter back on makes the pair collide and separate.
    ShapeId shapeOfB;
    world.forEachShape(b, [&](ShapeId id) { shapeOfB = id; });
    world.setFilter(shapeOfB, Filter{});
    stepFor(world, 1.0f);
    CHECK(world.position(b).x - world.position(a).x > 0.45f);
}

// StepStats::touchingContacts counts the contacts the solver takes: a sensor's overlap is not
// one, whether its bodies are awake or asleep (it sizes the solver's arrays and feeds digests).
TEST_CASE("touching contacts leave out sensors, awake and asleep") {
    World world = makeWorldWithFloor(bruteForceDef());
    const BodyId left = createBox(world, {0.0f, 0.5f}, {0.5f, 0.5f});
    createBox(world, {3.0f, 0.5f}, {0.5f, 0.5f});
    ShapeDef sensor;
    sensor.isSensor = true;
    // Reaches the right box and the floor: two sensor overlaps beside the two resting boxes.
    world.createCircle(left, sensor, Circle{{1.5f, 0.0f}, 1.2f});
    world.step(kDefaultTimeStep);
    CHECK(world.stats().touchingContacts == 2);
    REQUIRE(stepUntilAsleep(world, 5.0f) >= 0.0f);
    world.step(kDefaultTimeStep);
    CHECK(world.stats().awakeBodies == 0);
    CHECK(world.stats().touchingContacts == 2);
}

TEST_CASE("islands are looked for once a body has rested for timeToSleep, not before") {
    // A box settles on the floor; a ball drifts through the air for ever (no gravity).
    World world = makeWorldWithFloor(bruteForceDef());
    const BodyId box = createBox(world, {0.0f, 0.5f}, {0.5f, 0.5f});
    const BodyId ball = world.createBody({.type = BodyType::Dynamic,
                                          .position = {10.0f, 5.0f},
                                          .linearVelocity = {1.0f, 0.0f},
                                          .gravityScale = 0.0f});
    world.createCircle(ball, {}, Circle{{0.0f, 0.0f}, 0.25f});
    int stepsBefore = 0, countedSteps = 0;
    while (world.isAwake(box) && stepsBefore + countedSteps < 240) {
        world.step(kDefaultTimeStep);
        if (world.stats().islands == 0) {
            ++stepsBefore;
            CHECK(countedSteps == 0); // no count before the box has rested
        } else {
            ++countedSteps;
            CHECK(world.stats().islands == 1); // the box's: the ball never rests
        }
    }
    // The box rested for timeToSleep (0.5 s, 30 steps) and fell asleep at the step its island
    // was first counted; the ball, never at rest, keeps moving.
    CHECK_FALSE(world.isAwake(box));
    CHECK(countedSteps == 1);
    CHECK(stepsBefore >= 29);
    CHECK(world.isAwake(ball));
    stepFor(world, 1.0f);
    CHECK(world.stats().islands == 0);
    CHECK(world.stats().awakeBodies == 1);

    // Sleep turned off: a rested body's island is still counted, and nothing sleeps.
    WorldDef awake = bruteForceDef();
    awake.enableSleep = false;
    World always = makeWorldWithFloor(awake);
    createBox(always, {0.0f, 0.5f}, {0.5f, 0.5f});
    stepFor(always, 1.0f);
    CHECK(always.stats().islands == 1);
    CHECK(always.stats().awakeBodies == 1);
}
