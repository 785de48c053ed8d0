// The pair stage refuses pairs whose shapes share a negative group before it looks them up: the
// group rules must still hold exactly, as filters change, on every broad phase.
#include <doctest/doctest.h>

#include <array>

#include "rigid2d/testing.hpp"

using namespace rigid2d;
using namespace rigid2d::testing;

namespace {

constexpr float kGap = 0.6f; // between the centres of two balls of radius 0.5

// Two overlapping balls, in zero gravity: they are pushed apart only if they collide. (The soft
// step's relaxation takes back the push's velocity, so the distance tells.)
struct BallPair {
    BodyId left, right;
    ShapeId rightShape;
};

BallPair overlappingPair(World& world, float x, const Filter& left, const Filter& right) {
    ShapeDef def;
    def.filter = left;
    BallPair pair;
    pair.left = createCircle(world, {x, 0.0f}, 0.5f, def);
    def.filter = right;
    pair.right = createCircle(world, {x + kGap, 0.0f}, 0.5f, def);
    world.forEachShape(pair.right, [&](ShapeId id) { pair.rightShape = id; });
    return pair;
}

bool pushedApart(const World& world, const BallPair& pair) {
    return world.position(pair.right).x - world.position(pair.left).x > kGap + 1e-3f;
}

} // namespace

TEST_CASE("filter groups decide pairs on every broad phase, as the filters change") {
    for (const BroadPhaseType kind :
         {BroadPhaseType::BruteForce, BroadPhaseType::SpatialHash, BroadPhaseType::Grid}) {
        CAPTURE(static_cast<int>(kind));
        WorldDef def;
        def.gravity = {0.0f, 0.0f};
        def.broadPhase = kind;
        World world(def);
        const Filter none{};
        const Filter groupA{.groupIndex = -2}, groupB{.groupIndex = -3};
        // A shared positive group collides even where the masks refuse.
        const Filter friendA{.categoryBits = 2u, .maskBits = 0u, .groupIndex = 4};
        const std::array pairs{
            overlappingPair(world, 0.0f, groupA, groupA),    // same negative group: never
            overlappingPair(world, 10.0f, friendA, friendA), // same positive group: always
            overlappingPair(world, 20.0f, groupA, groupB),   // different groups: the masks
            overlappingPair(world, 30.0f, groupA, none),     // one without a group: the masks
            overlappingPair(world, 40.0f, groupA, groupA),   // regrouped below
            overlappingPair(world, 50.0f, none, none),       // put in one group below
        };
        world.step(1.0f / 60.0f);
        CHECK_FALSE(pushedApart(world, pairs[0]));
        CHECK(pushedApart(world, pairs[1]));
        CHECK(pushedApart(world, pairs[2]));
        CHECK(pushedApart(world, pairs[3]));
        CHECK_FALSE(pushedApart(world, pairs[4]));
        CHECK(pushedApart(world, pairs[5]));

        world.setFilter(pairs[4].rightShape, groupB);
        ShapeId leftOfLast;
        world.forEachShape(pairs[5].left, [&](ShapeId id) { leftOfLast = id; });
        world.setFilter(leftOfLast, groupB);
        world.setFilter(pairs[5].rightShape, groupB);
        for (const BallPair& pair : pairs) {
            world.setLinearVelocity(pair.left, {0.0f, 0.0f});
            world.setLinearVelocity(pair.right, {0.0f, 0.0f});
            world.setTransform(pair.right, world.position(pair.left) + Vec2{kGap, 0.0f}, 0.0f);
        }
        world.step(1.0f / 60.0f);
        CHECK(pushedApart(world, pairs[4]));
        CHECK_FALSE(pushedApart(world, pairs[5]));
        CHECK_FALSE(pushedApart(world, pairs[0]));
    }
}
