// Continuous collision: a 0.1 m circle at 400 m/s does not pass a 0.1 m wall when it is a bullet;
// nor, since a non-bullet whose path leaves its fat box is swept too (issue 12.6,
// tests/world/fast_bodies_test), when it is not (this check failed before that fix). A bullet that
// touches a wall is not pinned to it.
#include <doctest/doctest.h>

#include "rigid2d/testing.hpp"

using namespace rigid2d;
using namespace rigid2d::testing;

namespace {
float finalX(bool bullet, BroadPhaseType broadPhase) {
    WorldDef def;
    def.broadPhase = broadPhase;
    def.gravity = {0.0f, 0.0f};
    World world(def);
    // Wall 0.1 m thick at x in [5, 5.1].
    createBox(world, {5.05f, 0.0f}, {0.05f, 2.0f}, ShapeDef{}, BodyType::Static);
    BodyDef bodyDef;
    bodyDef.type = BodyType::Dynamic;
    bodyDef.position = {0.0f, 0.0f};
    bodyDef.linearVelocity = {400.0f, 0.0f};
    bodyDef.bullet = bullet;
    const BodyId ball = world.createBody(bodyDef);
    world.createCircle(ball, ShapeDef{}, Circle{{0.0f, 0.0f}, 0.05f});
    float maxX = 0.0f;
    for (int i = 0; i < 30; ++i) {
        world.step(kDefaultTimeStep);
        maxX = std::max(maxX, world.position(ball).x);
    }
    return maxX;
}
} // namespace

TEST_CASE("a bullet circle at 400 m/s does not pass a 0.1 m wall") {
    CHECK(finalX(true, BroadPhaseType::BruteForce) <= 5.0f - 0.05f + 1e-3f);
    CHECK(finalX(false, BroadPhaseType::BruteForce) <= 5.0f - 0.05f + 1e-3f);
}

TEST_CASE("a bullet resting against a wall slides down it under gravity, not pinned") {
    for (BroadPhaseType type : {BroadPhaseType::BruteForce, BroadPhaseType::SpatialHash}) {
        WorldDef def;
        def.broadPhase = type;
        World world(def);
        createBox(world, {0.05f, 0.0f}, {0.05f, 20.0f}, ShapeDef{}, BodyType::Static);
        BodyDef bodyDef;
        bodyDef.type = BodyType::Dynamic;
        bodyDef.position = {-0.25f, 10.0f}; // touching the wall's face at x = 0
        bodyDef.linearVelocity = {50.0f, 0.0f};
        bodyDef.bullet = true;
        const BodyId ball = world.createBody(bodyDef);
        ShapeDef shape;
        shape.friction = 0.0f;
        world.createCircle(ball, shape, Circle{{0.0f, 0.0f}, 0.25f});
        stepFor(world, 1.0f);
        // Free fall for 1 s is 5 m; the frictionless wall must not hold the ball up.
        CHECK(world.position(ball).y < 10.0f - 4.5f);
        CHECK(world.position(ball).x <= -0.25f + 0.01f);
    }
}

TEST_CASE("a bullet box already touching a thin wall does not pass through it") {
    WorldDef def;
    def.gravity = {0.0f, 0.0f};
    World world(def);
    createBox(world, {0.05f, 0.0f}, {0.05f, 2.0f}, ShapeDef{}, BodyType::Static);
    BodyDef bodyDef;
    bodyDef.type = BodyType::Dynamic;
    bodyDef.position = {-0.2f, 0.0f}; // face at x = 0: touching
    bodyDef.bullet = true;
    const BodyId box = world.createBody(bodyDef);
    world.createBox(box, ShapeDef{}, Box{{0.0f, 0.0f}, {0.2f, 0.2f}});
    world.setLinearVelocity(box, {600.0f, 0.0f});
    float maxX = -1.0f;
    for (int i = 0; i < 20; ++i) {
        world.step(kDefaultTimeStep);
        maxX = std::max(maxX, world.position(box).x);
    }
    CHECK(maxX < 0.1f);
}
