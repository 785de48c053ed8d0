// Handles: destroyed ids stay invalid forever and never alias; ids of another world are refused.
#include <doctest/doctest.h>

#include <cstdint>
#include <set>
#include <vector>

#include "rigid2d/testing.hpp"
#include "state/world_state.hpp"

using namespace rigid2d;
using namespace rigid2d::testing;

TEST_CASE("a destroyed body's id is invalid and never aliases a new body") {
    WorldDef def;
    def.broadPhase = BroadPhaseType::BruteForce;
    World world(def);
    const BodyId first = createCircle(world, {0.0f, 0.0f}, 0.5f);
    ShapeId firstShape;
    world.forEachShape(first, [&](ShapeId s) { firstShape = s; });
    CHECK(world.isValid(first));
    world.destroyBody(first);
    CHECK_FALSE(world.isValid(first));
    CHECK_FALSE(world.isValid(firstShape));
    std::vector<BodyId> later;
    for (int i = 0; i < 100; ++i) {
        const BodyId b = createCircle(world, {0.0f, static_cast<float>(i)}, 0.5f);
        CHECK(b != first);
        later.push_back(b);
        if (i % 2 == 0) world.destroyBody(b);
    }
    CHECK_FALSE(world.isValid(first));
    CHECK_THROWS_AS((void)world.position(first), Error);
    CHECK_THROWS_AS(world.destroyBody(first), Error);
    CHECK_THROWS_AS(world.destroyShape(firstShape), Error);
    std::set<BodyId> unique(later.begin(), later.end());
    CHECK(unique.size() == later.size());
    CHECK_FALSE(world.isValid(BodyId{}));
    CHECK(world.bodyCount() == 50);
}

TEST_CASE("an id from another world is refused") {
    WorldDef def;
    def.broadPhase = BroadPhaseType::BruteForce;
    World a(def), b(def);
    const BodyId inA = createCircle(a, {0.0f, 0.0f}, 0.5f);
    createCircle(b, {0.0f, 0.0f}, 0.5f);
    CHECK(a.isValid(inA));
    CHECK_FALSE(b.isValid(inA));
    CHECK_THROWS_AS(b.setLinearVelocity(inA, {1.0f, 0.0f}), Error);
}

// Issue 12, case 7: the serial once had 12 bits (aliasing after 4095 worlds); a 32-bit one would
// alias after 2^32. The counter is started just below those wrap points instead of creating
// billions of worlds.
TEST_CASE("ids never alias across worlds, even after 2^32 worlds") {
    WorldDef def;
    def.broadPhase = BroadPhaseType::BruteForce;
    auto& counter = rigid2d::detail::worldSerialCounter();
    World a(def);
    const BodyId inA = createCircle(a, {0.0f, 0.0f}, 0.5f);
    const std::uint64_t serialA = inA.world;
    for (const std::uint64_t wrap : {std::uint64_t{4095}, std::uint64_t{1} << 32}) {
        // The next world gets the serial A's would wrap to under a `wrap`-sized serial.
        counter.store(serialA - 1 + wrap);
        World b(def);
        const BodyId inB = createCircle(b, {0.0f, 0.0f}, 0.5f);
        CHECK(inB.index == inA.index);
        CHECK(inB.generation == inA.generation);
        CHECK(inB.world != inA.world);
        CHECK_FALSE(b.isValid(inA));
        CHECK_FALSE(a.isValid(inB));
        CHECK_THROWS_AS((void)b.position(inA), Error);
        CHECK_THROWS_AS(a.destroyBody(inB), Error);
    }
    CHECK(a.isValid(inA));
}

// The step reads the moved shapes' list in pieces, which relies on each slot being listed once.
// A shape created (listed), destroyed and its slot taken again before the next step once left
// the slot listed twice: the broad phase refused the list, and the step threw.
TEST_CASE("a shape slot freed and reused between steps is searched once and finds its pairs") {
    WorldDef def;
    def.gravity = {0.0f, 0.0f};
    World world(def);
    const BodyId left = createCircle(world, {0.0f, 0.0f}, 0.5f);
    const BodyId right = createCircle(world, {3.0f, 0.0f}, 0.5f);
    world.step(1.0f / 60.0f);
    const ShapeId extra = world.createCircle(right, ShapeDef{}, Circle{{0.0f, 1.0f}, 0.25f});
    world.destroyShape(extra);
    // Wide enough to reach the left circle: the new shape's one pair.
    const ShapeId reused = world.createCircle(right, ShapeDef{}, Circle{{0.0f, 0.0f}, 2.6f});
    CHECK(reused.index == extra.index);
    CHECK_NOTHROW(world.step(1.0f / 60.0f));
    CHECK(world.stats().touchingContacts == 1);
    CHECK(world.isValid(left));
}
