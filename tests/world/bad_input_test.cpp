// DESIGN.md "Bad input": every bad argument is refused with rigid2d::Error naming the function and
// the field, and the world is exactly as it was (state hash, counts).
#include <doctest/doctest.h>

#include <functional>
#include <limits>
#include <string>

#include "rigid2d/testing.hpp"

using namespace rigid2d;
using namespace rigid2d::testing;

namespace {
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

struct Fixture {
    Fixture() : world(makeWorld()) {
        body = createCircle(world, {0.0f, 2.0f}, 0.5f);
        world.forEachShape(body, [&](ShapeId s) { shape = s; });
        stale = createCircle(world, {3.0f, 2.0f}, 0.5f);
        world.destroyBody(stale);
        stepFor(world, 0.25f);
    }
    static World makeWorld() {
        WorldDef def;
        def.broadPhase = BroadPhaseType::BruteForce;
        return makeWorldWithFloor(def);
    }
    World world;
    BodyId body;
    ShapeId shape;
    BodyId stale;
};

/// Calls `bad` and checks that it throws an Error mentioning `function` and `field`, and that the
/// world did not change.
void expectRefused(Fixture& f, const std::string& function, const std::string& field,
                   const std::function<void()>& bad) {
    const std::uint64_t hash = stateHash(f.world);
    const std::size_t bodies = f.world.bodyCount();
    const std::size_t proxies = f.world.broadPhase().size();
    std::string message;
    try {
        bad();
    } catch (const Error& e) {
        message = e.what();
    }
    CAPTURE(function);
    CAPTURE(field);
    CHECK_MESSAGE(message.find(function) != std::string::npos, message);
    CHECK_MESSAGE(message.find(field) != std::string::npos, message);
    CHECK(stateHash(f.world) == hash);
    CHECK(f.world.bodyCount() == bodies);
    CHECK(f.world.broadPhase().size() == proxies);
}
} // namespace

TEST_CASE("bad body definitions are refused") {
    Fixture f;
    auto withDef = [&](auto change) {
        BodyDef def;
        def.type = BodyType::Dynamic;
        change(def);
        return [&f, def] { (void)f.world.createBody(def); };
    };
    expectRefused(f, "World::createBody", "def.position",
                  withDef([](BodyDef& d) { d.position.x = kNaN; }));
    expectRefused(f, "World::createBody", "def.angle", withDef([](BodyDef& d) { d.angle = kInf; }));
    expectRefused(f, "World::createBody", "def.linearVelocity",
                  withDef([](BodyDef& d) { d.linearVelocity.y = -kInf; }));
    expectRefused(f, "World::createBody", "def.angularVelocity",
                  withDef([](BodyDef& d) { d.angularVelocity = kNaN; }));
    expectRefused(f, "World::createBody", "def.linearDamping",
                  withDef([](BodyDef& d) { d.linearDamping = -1.0f; }));
    expectRefused(f, "World::createBody", "def.angularDamping",
                  withDef([](BodyDef& d) { d.angularDamping = kNaN; }));
    expectRefused(f, "World::createBody", "def.gravityScale",
                  withDef([](BodyDef& d) { d.gravityScale = kInf; }));
}

TEST_CASE("bad shapes are refused") {
    Fixture f;
    const BodyId body = f.body;
    auto circle = [&](ShapeDef def, Circle c) {
        return [&f, body, def, c] { (void)f.world.createCircle(body, def, c); };
    };
    auto box = [&](ShapeDef def, Box b) {
        return [&f, body, def, b] { (void)f.world.createBox(body, def, b); };
    };
    expectRefused(f, "World::createCircle", "circle.radius", circle({}, Circle{{0, 0}, 0.0f}));
    expectRefused(f, "World::createCircle", "circle.radius", circle({}, Circle{{0, 0}, -1.0f}));
    expectRefused(f, "World::createCircle", "circle.radius", circle({}, Circle{{0, 0}, kNaN}));
    expectRefused(f, "World::createCircle", "circle.center", circle({}, Circle{{kInf, 0}, 1.0f}));
    expectRefused(f, "World::createBox", "box.halfExtents", box({}, Box{{0, 0}, {0.0f, 1.0f}}));
    expectRefused(f, "World::createBox", "box.halfExtents", box({}, Box{{0, 0}, {1.0f, -2.0f}}));
    expectRefused(f, "World::createBox", "box.center", box({}, Box{{0, kNaN}, {1.0f, 1.0f}}));
    ShapeDef negativeDensity;
    negativeDensity.density = -1.0f;
    expectRefused(f, "World::createCircle", "def.density", circle(negativeDensity, Circle{}));
    ShapeDef negativeFriction;
    negativeFriction.friction = -0.1f;
    expectRefused(f, "World::createBox", "def.friction", box(negativeFriction, Box{}));
    ShapeDef bouncy;
    bouncy.restitution = 1.5f;
    expectRefused(f, "World::createCircle", "def.restitution", circle(bouncy, Circle{}));
    bouncy.restitution = -0.5f;
    expectRefused(f, "World::createBox", "def.restitution", box(bouncy, Box{}));
    expectRefused(f, "World::setFriction", "friction", [&] { f.world.setFriction(f.shape, kNaN); });
    expectRefused(f, "World::setRestitution", "restitution",
                  [&] { f.world.setRestitution(f.shape, 2.0f); });
}

TEST_CASE("bad numbers to body functions and step are refused") {
    Fixture f;
    const BodyId b = f.body;
    expectRefused(f, "World::setTransform", "position", [&] {
        f.world.setTransform(b, {kNaN, 0}, 0.0f);
    });
    expectRefused(f, "World::setTransform", "angle", [&] {
        f.world.setTransform(b, {0, 0}, kInf);
    });
    expectRefused(f, "World::setLinearVelocity", "velocity", [&] {
        f.world.setLinearVelocity(b, {0, kNaN});
    });
    expectRefused(f, "World::setAngularVelocity", "velocity",
                  [&] { f.world.setAngularVelocity(b, kInf); });
    expectRefused(f, "World::applyForce", "force", [&] {
        f.world.applyForce(b, {kNaN, 0}, {0, 0});
    });
    expectRefused(f, "World::applyForce", "worldPoint", [&] {
        f.world.applyForce(b, {1, 0}, {0, kInf});
    });
    expectRefused(f, "World::applyForceToCenter", "force", [&] {
        f.world.applyForceToCenter(b, {kInf, 0});
    });
    expectRefused(f, "World::applyTorque", "torque", [&] { f.world.applyTorque(b, kNaN); });
    expectRefused(f, "World::applyLinearImpulse", "impulse", [&] {
        f.world.applyLinearImpulse(b, {kNaN, 0}, {0, 0});
    });
    expectRefused(f, "World::setGravity", "gravity", [&] { f.world.setGravity({0, kNaN}); });
    expectRefused(f, "World::step", "dt", [&] { f.world.step(0.0f); });
    expectRefused(f, "World::step", "dt", [&] { f.world.step(-0.01f); });
    expectRefused(f, "World::step", "dt", [&] { f.world.step(kNaN); });
    expectRefused(f, "World::step", "dt", [&] { f.world.step(kInf); });
    expectRefused(f, "World::queryAABB", "region", [&] {
        f.world.queryAABB(AABB{{1, 1}, {0, 0}}, [](ShapeId) { return true; });
    });
    expectRefused(f, "World::castRay", "origin", [&] {
        f.world.castRay({kNaN, 0}, {1, 0}, [](const RayHit&) { return 1.0f; });
    });
    expectRefused(f, "makeBroadPhase", "config.cellSize", [&] {
        BroadPhaseConfig config;
        config.cellSize = -1.0f;
        f.world.setBroadPhase(BroadPhaseType::BruteForce, config);
    });
    // A cell below the smallest shape, down to where its inverse is no float.
    for (const float tiny : {5e-7f, 1e-30f, 1e-40f}) {
        expectRefused(f, "makeBroadPhase", "config.cellSize", [&] {
            BroadPhaseConfig config;
            config.cellSize = tiny;
            f.world.setBroadPhase(BroadPhaseType::SpatialHash, config);
        });
        expectRefused(f, "makeBroadPhase", "config.finestCellSize", [&] {
            BroadPhaseConfig config;
            config.finestCellSize = tiny;
            f.world.setBroadPhase(BroadPhaseType::HierarchicalHash, config);
        });
    }
}

TEST_CASE("stale, null and foreign ids are refused") {
    Fixture f;
    World other = Fixture::makeWorld();
    const BodyId foreign = createCircle(other, {0, 5}, 0.5f);
    for (const BodyId bad : {f.stale, BodyId{}, foreign}) {
        expectRefused(f, "World::destroyBody", "body", [&] { f.world.destroyBody(bad); });
        expectRefused(f, "World::setLinearVelocity", "body", [&] {
            f.world.setLinearVelocity(bad, {1, 0});
        });
        expectRefused(f, "World::createCircle", "body",
                      [&] { (void)f.world.createCircle(bad, {}, Circle{}); });
        expectRefused(f, "World::setAwake", "body", [&] { f.world.setAwake(bad, true); });
        expectRefused(f, "World::position", "body", [&] { (void)f.world.position(bad); });
    }
    expectRefused(f, "World::destroyShape", "shape", [&] { f.world.destroyShape(ShapeId{}); });
    expectRefused(f, "World::shapeBox", "shape",
                  [&] { (void)f.world.shapeBox(f.shape); }); // a circle
}

TEST_CASE("changing the world from inside a callback is refused") {
    Fixture f;
    int visits = 0;
    f.world.queryAABB(AABB{{-10, -10}, {10, 10}}, [&](ShapeId) {
        ++visits;
        expectRefused(f, "World::destroyBody", "world", [&] { f.world.destroyBody(f.body); });
        expectRefused(f, "World::createBody", "world",
                      [&] { (void)f.world.createBody(BodyDef{}); });
        expectRefused(f, "World::step", "world", [&] { f.world.step(kDefaultTimeStep); });
        expectRefused(f, "World::setTransform", "world", [&] {
            f.world.setTransform(f.body, {0, 0}, 0);
        });
        expectRefused(f, "World::setBroadPhase", "world",
                      [&] { f.world.setBroadPhase(BroadPhaseType::BruteForce); });
        return true;
    });
    CHECK(visits == 2);
    f.world.castRay({0, 10}, {0, -20}, [&](const RayHit&) {
        expectRefused(f, "World::applyLinearImpulse", "world", [&] {
            f.world.applyLinearImpulse(f.body, {1, 0}, {0, 0});
        });
        return 1.0f;
    });
    // After the callbacks the world is usable again.
    f.world.step(kDefaultTimeStep);
}

TEST_CASE("bad world definitions are refused") {
    WorldDef def;
    def.substeps = 0;
    CHECK_THROWS_WITH_AS(World{def}, doctest::Contains("def.substeps"), Error);
    def = WorldDef{};
    def.gravity = {kNaN, 0};
    CHECK_THROWS_WITH_AS(World{def}, doctest::Contains("def.gravity"), Error);
    def = WorldDef{};
    def.contactHertz = -1.0f;
    CHECK_THROWS_WITH_AS(World{def}, doctest::Contains("def.contactHertz"), Error);
}
