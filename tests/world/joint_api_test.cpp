// The joint API: bad definitions refused naming the field with the world unchanged, ids that go
// stale, joints destroyed with their bodies, collideConnected, islands that sleep and wake as one,
// setters for the wrong kind refused, the same bits on every broad phase.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "rigid2d/testing.hpp"
#include "world_defs.hpp"

using namespace rigid2d;
using namespace rigid2d::testing;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

BodyId dynamicBox(World& world, Vec2 position, float half = 0.5f) {
    BodyDef def;
    def.type = BodyType::Dynamic;
    def.position = position;
    const BodyId body = world.createBody(def);
    world.createBox(body, ShapeDef{}, Box{{0.0f, 0.0f}, {half, half}});
    return body;
}

// Runs `call`, which must throw an Error whose message names `function` and `field`, and checks
// that the world's state is what it was.
template <class Call>
void checkRefused(World& world, Call call, const std::string& function, const std::string& field) {
    const std::uint64_t before = stateHash(world);
    const std::size_t joints = world.jointCount();
    try {
        call();
        FAIL("not refused: " << function << " " << field);
    } catch (const Error& error) {
        const std::string what = error.what();
        CHECK_MESSAGE(what.find(function) != std::string::npos, what);
        CHECK_MESSAGE(what.find(field) != std::string::npos, what);
    }
    CHECK(stateHash(world) == before);
    CHECK(world.jointCount() == joints);
}

} // namespace

TEST_CASE("bad joint definitions are refused naming the field, the world unchanged") {
    World world(bruteForceDef());
    const BodyId ground = createFloor(world);
    const BodyId a = dynamicBox(world, {0.0f, 2.0f});
    const BodyId b = dynamicBox(world, {1.0f, 2.0f});
    const BodyId otherStatic = world.createBody(BodyDef{});
    const std::string revolute = "World::createRevoluteJoint";

    RevoluteJointDef def;
    def.bodyA = a;
    def.bodyB = b;
    def.anchor = {0.5f, 2.0f};
    RevoluteJointDef bad = def;
    bad.bodyB = a;
    checkRefused(
        world, [&] { world.createRevoluteJoint(bad); }, revolute, "def.bodyB");
    bad = def;
    bad.bodyA = ground;
    bad.bodyB = otherStatic;
    checkRefused(
        world, [&] { world.createRevoluteJoint(bad); }, revolute, "def.bodyB");
    bad = def;
    bad.anchor.x = kNaN;
    checkRefused(
        world, [&] { world.createRevoluteJoint(bad); }, revolute, "def.anchor");
    bad = def;
    bad.anchor = {1e30f, 0.0f};
    checkRefused(
        world, [&] { world.createRevoluteJoint(bad); }, revolute, "def.anchor");
    bad = def;
    bad.lowerAngle = 1.0f;
    bad.upperAngle = -1.0f;
    checkRefused(
        world, [&] { world.createRevoluteJoint(bad); }, revolute, "def.lowerAngle");
    bad = def;
    bad.maxMotorTorque = -1.0f;
    checkRefused(
        world, [&] { world.createRevoluteJoint(bad); }, revolute, "def.maxMotorTorque");
    bad = def;
    bad.hertz = std::numeric_limits<float>::infinity();
    checkRefused(
        world, [&] { world.createRevoluteJoint(bad); }, revolute, "def.hertz");

    // Stale and foreign ids.
    const BodyId doomed = dynamicBox(world, {5.0f, 5.0f});
    world.destroyBody(doomed);
    bad = def;
    bad.bodyB = doomed;
    checkRefused(
        world, [&] { world.createRevoluteJoint(bad); }, revolute, "def.bodyB");
    World other;
    bad = def;
    bad.bodyA = other.createBody(BodyDef{});
    checkRefused(
        world, [&] { world.createRevoluteJoint(bad); }, revolute, "def.bodyA");

    DistanceJointDef distance;
    distance.bodyA = a;
    distance.bodyB = b;
    distance.anchorA = world.position(a);
    distance.anchorB = world.position(b);
    distance.minLength = 2.0f;
    distance.maxLength = 1.0f;
    checkRefused(
        world, [&] { world.createDistanceJoint(distance); }, "World::createDistanceJoint",
        "def.minLength");
    distance.minLength = distance.maxLength = std::nullopt;
    distance.length = -1.0f;
    checkRefused(
        world, [&] { world.createDistanceJoint(distance); }, "World::createDistanceJoint",
        "def.length");

    PrismaticJointDef prismatic;
    prismatic.bodyA = ground;
    prismatic.bodyB = a;
    prismatic.axis = {0.0f, 0.0f};
    checkRefused(
        world, [&] { world.createPrismaticJoint(prismatic); }, "World::createPrismaticJoint",
        "def.axis");
    WheelJointDef wheel;
    wheel.bodyA = a;
    wheel.bodyB = b;
    wheel.axis = {kNaN, 1.0f};
    checkRefused(
        world, [&] { world.createWheelJoint(wheel); }, "World::createWheelJoint", "def.axis");
    WeldJointDef weld;
    weld.bodyA = a;
    weld.bodyB = b;
    weld.angularDampingRatio = -0.5f;
    checkRefused(
        world, [&] { world.createWeldJoint(weld); }, "World::createWeldJoint",
        "def.angularDampingRatio");
    MouseJointDef mouse;
    mouse.body = ground;
    checkRefused(
        world, [&] { world.createMouseJoint(mouse); }, "World::createMouseJoint", "def.body");
    mouse.body = a;
    mouse.hertz = 0.0f;
    checkRefused(
        world, [&] { world.createMouseJoint(mouse); }, "World::createMouseJoint", "def.hertz");

    // A good one still goes in afterwards.
    const JointId joint = world.createRevoluteJoint(def);
    CHECK(world.isValid(joint));
    CHECK(world.jointCount() == 1);
}

TEST_CASE("setters for a setting the joint's kind lacks are refused, values are checked") {
    World world(bruteForceDef());
    const BodyId ground = createFloor(world);
    const BodyId a = dynamicBox(world, {0.0f, 2.0f});
    WeldJointDef def;
    def.bodyA = ground;
    def.bodyB = a;
    def.anchor = {0.0f, 1.5f};
    const JointId weld = world.createWeldJoint(def);
    checkRefused(
        world, [&] { world.setJointMotorSpeed(weld, 1.0f); }, "World::setJointMotorSpeed", "joint");
    checkRefused(
        world, [&] { world.setJointLimits(weld, 0.0f, 1.0f); }, "World::setJointLimits", "joint");
    checkRefused(
        world, [&] { world.setJointTarget(weld, {}); }, "World::setJointTarget", "joint");
    world.destroyJoint(weld);
    CHECK_FALSE(world.isValid(weld));
    checkRefused(
        world, [&] { world.destroyJoint(weld); }, "World::destroyJoint", "joint");

    RevoluteJointDef hinge;
    hinge.bodyA = ground;
    hinge.bodyB = a;
    hinge.anchor = {0.0f, 1.5f};
    const JointId revolute = world.createRevoluteJoint(hinge);
    checkRefused(
        world, [&] { world.setJointLimits(revolute, 1.0f, 0.0f); }, "World::setJointLimits",
        "lower");
    checkRefused(
        world, [&] { world.setJointMotorSpeed(revolute, kNaN); }, "World::setJointMotorSpeed",
        "speed");
    world.setJointLimits(revolute, -0.5f, 0.25f);
    world.enableJointLimit(revolute, true);
    CHECK(world.isJointLimitEnabled(revolute));
    CHECK(world.jointLowerLimit(revolute) == -0.5f);
    CHECK(world.jointUpperLimit(revolute) == 0.25f);
    world.enableJointMotor(revolute, true);
    world.setJointMotorSpeed(revolute, 2.0f);
    world.setJointMaxMotorForce(revolute, 10.0f);
    CHECK(world.jointMotorSpeed(revolute) == 2.0f);
    CHECK(world.jointMaxMotorForce(revolute) == 10.0f);
    world.setJointSpring(revolute, 3.0f, 0.5f);
    CHECK(world.jointSpringHertz(revolute) == 3.0f);
    CHECK(world.jointBodyA(revolute) == ground);
    CHECK(world.jointBodyB(revolute) == a);
    CHECK(world.jointType(revolute) == JointType::Revolute);
}

TEST_CASE("joints are destroyed with their bodies and their ids go stale") {
    World world(bruteForceDef());
    const BodyId a = dynamicBox(world, {0.0f, 2.0f});
    const BodyId b = dynamicBox(world, {2.0f, 2.0f});
    const BodyId c = dynamicBox(world, {4.0f, 2.0f});
    DistanceJointDef def;
    def.bodyA = a;
    def.bodyB = b;
    def.anchorA = world.position(a);
    def.anchorB = world.position(b);
    const JointId ab = world.createDistanceJoint(def);
    def.bodyA = b;
    def.bodyB = c;
    def.anchorA = world.position(b);
    def.anchorB = world.position(c);
    const JointId bc = world.createDistanceJoint(def);
    std::vector<JointId> ofB;
    world.forEachJoint(b, [&](JointId j) { ofB.push_back(j); });
    CHECK(ofB.size() == 2);
    world.destroyBody(b);
    CHECK_FALSE(world.isValid(ab));
    CHECK_FALSE(world.isValid(bc));
    CHECK(world.jointCount() == 0);
    // The freed slot is reused with a new generation: the old id does not alias it.
    def.bodyA = a;
    def.anchorA = world.position(a);
    const JointId ac = world.createDistanceJoint(def);
    CHECK(ac != ab);
    CHECK(ac != bc);
    CHECK_FALSE(world.isValid(ab));
    world.step(kDefaultTimeStep);
    CHECK(allFinite(world));
}

TEST_CASE("collideConnected decides whether jointed bodies collide, and destroying the joint "
          "lets them") {
    World world(bruteForceDef());
    world.setGravity({0.0f, 0.0f});
    // Two boxes overlapping by half their width.
    const BodyId a = dynamicBox(world, {0.0f, 0.0f});
    const BodyId b = dynamicBox(world, {0.5f, 0.0f});
    DistanceJointDef def;
    def.bodyA = a;
    def.bodyB = b;
    def.anchorA = {0.0f, 2.0f};
    def.anchorB = {0.5f, 2.0f};
    def.enableSpring = true; // a rope: free to approach, no push apart from the joint
    def.minLength = 0.0f;
    def.maxLength = 10.0f;
    const JointId joint = world.createDistanceJoint(def);
    stepFor(world, 0.5f);
    CHECK(world.position(b).x - world.position(a).x == doctest::Approx(0.5f).epsilon(1e-3));
    world.destroyJoint(joint);
    stepFor(world, 1.0f);
    CHECK(world.position(b).x - world.position(a).x > 0.99f); // pushed apart by the contact

    World touching(bruteForceDef());
    touching.setGravity({0.0f, 0.0f});
    const BodyId c = dynamicBox(touching, {0.0f, 0.0f});
    const BodyId d = dynamicBox(touching, {0.5f, 0.0f});
    def.bodyA = c;
    def.bodyB = d;
    def.collideConnected = true;
    touching.createDistanceJoint(def);
    stepFor(touching, 1.0f);
    CHECK(touching.position(d).x - touching.position(c).x > 0.99f);
}

TEST_CASE("jointed bodies sleep and wake as one island") {
    World world(bruteForceDef());
    createFloor(world);
    const BodyId a = dynamicBox(world, {0.0f, 0.5f});
    const BodyId b = dynamicBox(world, {4.0f, 0.5f});
    DistanceJointDef def;
    def.bodyA = a;
    def.bodyB = b;
    def.anchorA = world.position(a);
    def.anchorB = world.position(b);
    world.createDistanceJoint(def);
    CHECK(stepUntilAsleep(world, 10.0f) >= 0.0f);
    CHECK_FALSE(world.isAwake(a));
    CHECK_FALSE(world.isAwake(b));
    // Waking one wakes the other through the joint (they do not touch).
    world.applyLinearImpulse(a, {0.0f, 1.0f}, world.position(a));
    CHECK(world.isAwake(a));
    CHECK(world.isAwake(b));
}

TEST_CASE("joints step to the same bits on every broad phase, run after run") {
    auto run = [](BroadPhaseType type) {
        WorldDef def;
        def.broadPhase = type;
        World world(def);
        createFloor(world);
        // A swinging chain of boxes falling onto a pile, with a motorised wheel and a slider.
        BodyId previous = world.createBody(BodyDef{.position = {0.0f, 8.0f}});
        for (int i = 0; i < 8; ++i) {
            const Vec2 p{0.5f + static_cast<float>(i), 8.0f};
            const BodyId link = dynamicBox(world, p, 0.3f);
            RevoluteJointDef joint;
            joint.bodyA = previous;
            joint.bodyB = link;
            joint.anchor = p - Vec2{0.5f, 0.0f};
            world.createRevoluteJoint(joint);
            previous = link;
        }
        for (int i = 0; i < 10; ++i)
            dynamicBox(world, {1.0f + 0.3f * static_cast<float>(i), 0.5f + static_cast<float>(i)},
                       0.25f);
        const BodyId wheel = createCircle(world, {-3.0f, 0.5f}, 0.5f);
        RevoluteJointDef motor;
        motor.bodyA = dynamicBox(world, {-3.0f, 2.0f});
        motor.bodyB = wheel;
        motor.anchor = world.position(wheel);
        motor.enableMotor = true;
        motor.motorSpeed = -4.0f;
        motor.maxMotorTorque = 50.0f;
        motor.collideConnected = true;
        world.createRevoluteJoint(motor);
        stepFor(world, 3.0f);
        return stateHash(world);
    };
    const std::uint64_t reference = run(BroadPhaseType::BruteForce);
    CHECK(run(BroadPhaseType::BruteForce) == reference);
    for (const BroadPhaseType type : kAllBroadPhaseTypes) {
        CAPTURE(static_cast<int>(type));
        CHECK(run(type) == reference);
    }
}
