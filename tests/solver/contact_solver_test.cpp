// The contact solver against textbook results: restitution, 1D elastic collisions, momentum
// conservation, Coulomb friction.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "rigid2d/testing.hpp"

using namespace rigid2d;
using namespace rigid2d::testing;

namespace {
WorldDef zeroGravityDef() {
    WorldDef def;
    def.broadPhase = BroadPhaseType::BruteForce;
    def.gravity = {0.0f, 0.0f};
    def.enableSleep = false;
    return def;
}

BodyId movingCircle(World& world, Vec2 position, float radius, Vec2 velocity, float density,
                    float restitution) {
    BodyDef bodyDef;
    bodyDef.type = BodyType::Dynamic;
    bodyDef.position = position;
    bodyDef.linearVelocity = velocity;
    const BodyId body = world.createBody(bodyDef);
    ShapeDef shape;
    shape.density = density;
    shape.restitution = restitution;
    shape.friction = 0.0f;
    world.createCircle(body, shape, Circle{{0.0f, 0.0f}, radius});
    return body;
}
} // namespace

TEST_CASE("bounce heights follow e squared") {
    WorldDef def;
    def.broadPhase = BroadPhaseType::BruteForce;
    def.restitutionThreshold = 0.5f;
    World world = makeWorldWithFloor(def);
    const float e = 0.8f;
    ShapeDef shape;
    shape.restitution = e;
    const float radius = 0.25f;
    const float drop = 5.0f;
    const BodyId ball = createCircle(world, {0.0f, radius + drop}, radius, shape);
    // Record the apex of each flight: a local maximum of the height.
    std::vector<float> apexes;
    float previousY = world.position(ball).y;
    float previousVy = 0.0f;
    for (int i = 0; i < 60 * 6 && apexes.size() < 2; ++i) {
        world.step(kDefaultTimeStep);
        const float vy = world.linearVelocity(ball).y;
        if (previousVy > 0.0f && vy <= 0.0f)
            apexes.push_back(std::fmax(previousY, world.position(ball).y) - radius);
        previousVy = vy;
        previousY = world.position(ball).y;
    }
    REQUIRE(apexes.size() == 2);
    CHECK(apexes[0] == doctest::Approx(e * e * drop).epsilon(0.05));
    CHECK(apexes[1] == doctest::Approx(e * e * e * e * drop).epsilon(0.05));
}

TEST_CASE("equal circles in a 1D elastic collision swap velocities") {
    World world(zeroGravityDef());
    const BodyId a = movingCircle(world, {-2.0f, 0.0f}, 0.5f, {3.0f, 0.0f}, 1.0f, 1.0f);
    const BodyId b = movingCircle(world, {2.0f, 0.0f}, 0.5f, {-1.0f, 0.0f}, 1.0f, 1.0f);
    stepFor(world, 2.0f);
    CHECK(world.linearVelocity(a).x == doctest::Approx(-1.0f).epsilon(1e-3));
    CHECK(world.linearVelocity(b).x == doctest::Approx(3.0f).epsilon(1e-3));
    CHECK(std::fabs(world.linearVelocity(a).y) < 1e-6f);
    CHECK(std::fabs(world.linearVelocity(b).y) < 1e-6f);
}

TEST_CASE("unequal masses in a 1D elastic collision give the textbook velocities") {
    World world(zeroGravityDef());
    const BodyId a = movingCircle(world, {-2.0f, 0.0f}, 0.5f, {2.0f, 0.0f}, 3.0f, 1.0f);
    const BodyId b = movingCircle(world, {2.0f, 0.0f}, 0.5f, {0.0f, 0.0f}, 1.0f, 1.0f);
    const float mA = world.mass(a), mB = world.mass(b);
    const float u = 2.0f;
    stepFor(world, 3.0f);
    // v_A = (mA - mB) / (mA + mB) u, v_B = 2 mA / (mA + mB) u
    CHECK(world.linearVelocity(a).x == doctest::Approx((mA - mB) / (mA + mB) * u).epsilon(1e-3));
    CHECK(world.linearVelocity(b).x == doctest::Approx(2.0f * mA / (mA + mB) * u).epsilon(1e-3));
}

TEST_CASE("momentum is conserved among free colliding circles") {
    World world(zeroGravityDef());
    for (int i = 0; i < 16; ++i) {
        const float x = static_cast<float>(i % 4) * 2.0f;
        const float y = static_cast<float>(i / 4) * 2.0f;
        const Vec2 v{std::sin(static_cast<float>(i) * 1.7f) * 3.0f,
                     std::cos(static_cast<float>(i) * 2.3f) * 3.0f};
        movingCircle(world, {x, y}, 0.4f + 0.05f * static_cast<float>(i % 3), v,
                     1.0f + static_cast<float>(i % 2), 0.5f);
    }
    const Vec2 before = totalMomentum(world);
    std::size_t maxTouching = 0;
    for (int i = 0; i < 120; ++i) {
        world.step(kDefaultTimeStep);
        maxTouching = std::max(maxTouching, world.stats().touchingContacts);
    }
    CHECK(maxTouching > 0); // they did collide
    const Vec2 after = totalMomentum(world);
    CHECK(after.x == doctest::Approx(before.x).epsilon(1e-4).scale(1.0));
    CHECK(after.y == doctest::Approx(before.y).epsilon(1e-4).scale(1.0));
}

TEST_CASE("a box sliding with friction stops after v0^2 / (2 mu g)") {
    WorldDef def;
    def.broadPhase = BroadPhaseType::BruteForce;
    ShapeDef ground;
    ground.friction = 0.5f;
    World world(def);
    BodyDef floorDef;
    floorDef.position = {0.0f, -1.0f};
    const BodyId floor = world.createBody(floorDef);
    world.createBox(floor, ground, Box{{0.0f, 0.0f}, {100.0f, 1.0f}});
    ShapeDef boxShape;
    boxShape.friction = 0.5f; // mixed: sqrt(0.5 * 0.5) = 0.5
    const BodyId box = createBox(world, {0.0f, 0.5f}, {0.5f, 0.5f}, boxShape);
    stepFor(world, 0.5f); // settle
    const float x0 = world.position(box).x;
    const float v0 = 5.0f;
    world.setLinearVelocity(box, {v0, 0.0f});
    for (int i = 0; i < 600 && world.linearVelocity(box).x > 0.0f; ++i)
        world.step(kDefaultTimeStep);
    const float expected = v0 * v0 / (2.0f * 0.5f * 10.0f);
    CHECK(world.position(box).x - x0 == doctest::Approx(expected).epsilon(0.02));
}
