// Integration: semi-implicit Euler with substeps, against its closed form.
#include <doctest/doctest.h>

#include <cmath>

#include "rigid2d/testing.hpp"
#include "world/world_defs.hpp"

using namespace rigid2d;
using namespace rigid2d::testing;

TEST_CASE("free fall follows the substepped semi-implicit Euler closed form") {
    WorldDef def = bruteForceDef();
    World world(def);
    const BodyId ball = createCircle(world, {0.0f, 100.0f}, 0.5f);
    const int steps = 60;
    const float dt = kDefaultTimeStep;
    for (int i = 0; i < steps; ++i) world.step(dt);
    // With h = dt / substeps and M = steps * substeps: v_M = g h M, y_M = y0 + g h² M (M + 1) / 2.
    const double h = static_cast<double>(dt) / def.substeps;
    const double m = static_cast<double>(steps) * def.substeps;
    const double g = -10.0;
    CHECK(world.linearVelocity(ball).y == doctest::Approx(g * h * m).epsilon(1e-5));
    CHECK(world.position(ball).y ==
          doctest::Approx(100.0 + g * h * h * m * (m + 1.0) / 2.0).epsilon(1e-5));
    CHECK(world.linearVelocity(ball).x == 0.0f);
}

TEST_CASE("a projectile keeps its horizontal speed exactly") {
    World world(bruteForceDef());
    BodyDef bodyDef;
    bodyDef.type = BodyType::Dynamic;
    bodyDef.position = {0.0f, 50.0f};
    bodyDef.linearVelocity = {3.25f, 12.0f};
    const BodyId ball = world.createBody(bodyDef);
    world.createCircle(ball, ShapeDef{}, Circle{});
    stepFor(world, 2.0f);
    CHECK(world.linearVelocity(ball).x == 3.25f);
    CHECK(world.linearVelocity(ball).y < 12.0f);
}

TEST_CASE("gravity scale, damping and forces") {
    World world(bruteForceDef());
    BodyDef bodyDef;
    bodyDef.type = BodyType::Dynamic;
    bodyDef.gravityScale = 0.0f;
    bodyDef.linearDamping = 0.5f;
    bodyDef.linearVelocity = {4.0f, 0.0f};
    const BodyId body = world.createBody(bodyDef);
    world.createCircle(body, ShapeDef{}, Circle{});
    world.step(kDefaultTimeStep);
    // v *= 1 / (1 + h c) once per substep.
    const double h = static_cast<double>(kDefaultTimeStep) / 4.0;
    CHECK(world.linearVelocity(body).x ==
          doctest::Approx(4.0 * std::pow(1.0 / (1.0 + h * 0.5), 4)).epsilon(1e-6));
    CHECK(world.linearVelocity(body).y == 0.0f);

    const BodyId pushed = createCircle(world, {10.0f, 10.0f}, 0.5f);
    const float m = world.mass(pushed);
    world.setGravity({0.0f, 0.0f});
    world.applyForceToCenter(pushed, {m * 6.0f, 0.0f});
    world.step(kDefaultTimeStep);
    CHECK(world.linearVelocity(pushed).x == doctest::Approx(6.0f * kDefaultTimeStep).epsilon(1e-5));
    world.step(kDefaultTimeStep); // forces last one step
    CHECK(world.linearVelocity(pushed).x == doctest::Approx(6.0f * kDefaultTimeStep).epsilon(1e-5));

    world.applyLinearImpulse(pushed, {0.0f, m * 2.0f}, world.worldCenterOfMass(pushed));
    CHECK(world.linearVelocity(pushed).y == doctest::Approx(2.0f));
}

TEST_CASE("translation per step is clamped to maxTranslation") {
    WorldDef def = bruteForceDef();
    def.gravity = {0.0f, 0.0f};
    def.maxTranslation = 1.0f;
    World world(def);
    const BodyId body = createCircle(world, {0.0f, 0.0f}, 0.5f);
    world.setLinearVelocity(body, {1000.0f, 0.0f});
    world.step(kDefaultTimeStep);
    CHECK(world.position(body).x == doctest::Approx(1.0f).epsilon(1e-4));
}

TEST_CASE("mass, centre of mass and inertia from density") {
    World world(bruteForceDef());
    BodyDef bodyDef;
    bodyDef.type = BodyType::Dynamic;
    const BodyId body = world.createBody(bodyDef);
    ShapeDef shape;
    shape.density = 2.0f;
    world.createCircle(body, shape, Circle{{0.0f, 0.0f}, 0.5f});
    const float pi = 3.14159265f;
    const float m1 = 2.0f * pi * 0.25f;
    CHECK(world.mass(body) == doctest::Approx(m1));
    CHECK(world.inertia(body) == doctest::Approx(0.5f * m1 * 0.25f));
    // A second, offset circle: centre of mass between them, parallel-axis inertia.
    world.createCircle(body, shape, Circle{{2.0f, 0.0f}, 0.5f});
    CHECK(world.mass(body) == doctest::Approx(2.0f * m1));
    CHECK(world.worldCenterOfMass(body).x == doctest::Approx(1.0f));
    CHECK(world.inertia(body) == doctest::Approx(2.0f * (0.5f * m1 * 0.25f + m1 * 1.0f)));

    const BodyId boxBody = world.createBody(bodyDef);
    const ShapeId box = world.createBox(boxBody, shape, Box{{0.0f, 0.0f}, {1.0f, 0.5f}});
    const float mb = 2.0f * 2.0f * 1.0f;
    CHECK(world.mass(boxBody) == doctest::Approx(mb));
    CHECK(world.inertia(boxBody) == doctest::Approx(mb * (4.0f + 1.0f) / 12.0f));
    // A box on a body that may turn turns with it (a four-vertex polygon) ...
    CHECK(world.shapeType(box) == ShapeType::Polygon);
    world.setAngularVelocity(boxBody, 3.0f);
    CHECK(world.angularVelocity(boxBody) == 3.0f);
    // ... and on a fixed-rotation body it stays an axis-aligned box, and the body does not turn.
    BodyDef fixedDef = bodyDef;
    fixedDef.fixedRotation = true;
    const BodyId fixedBody = world.createBody(fixedDef);
    const ShapeId fixedBox = world.createBox(fixedBody, shape, Box{{0.0f, 0.0f}, {1.0f, 0.5f}});
    CHECK(world.shapeType(fixedBox) == ShapeType::Box);
    CHECK(world.mass(fixedBody) == doctest::Approx(mb));
    world.setAngularVelocity(fixedBody, 3.0f);
    CHECK(world.angularVelocity(fixedBody) == 0.0f);
}
