// Joints against closed forms: a pendulum's period, a spring's frequency, a wheel's static
// deflection, a motor's travel, a hanging weight's reaction; and against what a game needs of
// them: a chain that stays connected and comes to rest, limits that hold, a rope that never
// stretches, a weld cantilever that barely sags, a mouse joint that drags within its force.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "rigid2d/testing.hpp"

using namespace rigid2d;
using namespace rigid2d::testing;

namespace {

constexpr float kG = 10.0f;
constexpr float kPi = std::numbers::pi_v<float>;

WorldDef awakeWorld(Vec2 gravity = {0.0f, -kG}) {
    WorldDef def;
    def.gravity = gravity;
    def.enableSleep = false;
    return def;
}

BodyId staticBody(World& world, Vec2 position = {}) {
    BodyDef def;
    def.position = position;
    return world.createBody(def);
}

// A dynamic body with one circle of `radius` and `density`.
BodyId ball(World& world, Vec2 position, float radius, float density = 1.0f) {
    BodyDef def;
    def.type = BodyType::Dynamic;
    def.position = position;
    const BodyId body = world.createBody(def);
    ShapeDef shape;
    shape.density = density;
    world.createCircle(body, shape, Circle{{0.0f, 0.0f}, radius});
    return body;
}

// A dynamic body with one box (turning).
BodyId plank(World& world, Vec2 position, Vec2 halfExtents, float density = 1.0f) {
    BodyDef def;
    def.type = BodyType::Dynamic;
    def.position = position;
    const BodyId body = world.createBody(def);
    ShapeDef shape;
    shape.density = density;
    world.createBox(body, shape, Box{{0.0f, 0.0f}, halfExtents});
    return body;
}

float length(Vec2 v) { return std::sqrt(v.x * v.x + v.y * v.y); }

// Seconds between the first and the last of `crossings` upward zero crossings of `signal`,
// divided by their count minus one: the period of an oscillation, interpolated between steps.
template <class Signal>
float measurePeriod(World& world, Signal signal, int crossings, float dt = kDefaultTimeStep) {
    std::vector<float> times;
    float previous = signal();
    for (int i = 1; i < 20000 && static_cast<int>(times.size()) < crossings; ++i) {
        world.step(dt);
        const float value = signal();
        if (previous < 0.0f && value >= 0.0f)
            times.push_back((static_cast<float>(i) - value / (value - previous)) * dt);
        previous = value;
    }
    REQUIRE(static_cast<int>(times.size()) == crossings);
    return (times.back() - times.front()) / static_cast<float>(crossings - 1);
}

} // namespace

TEST_CASE("a pendulum on a revolute joint swings with the period of the closed form") {
    // A disc of radius r on a massless arm of length L: T = 2 pi sqrt((L^2 + r^2 / 2) / (g L)).
    World world(awakeWorld());
    const float L = 1.0f, r = 0.05f, amplitude = 0.1f;
    const BodyId pivot = staticBody(world);
    const BodyId bob = ball(world, {L * std::sin(amplitude), -L * std::cos(amplitude)}, r);
    RevoluteJointDef def;
    def.bodyA = pivot;
    def.bodyB = bob;
    def.anchor = {0.0f, 0.0f};
    world.createRevoluteJoint(def);
    const float expected = 2.0f * kPi * std::sqrt((L * L + 0.5f * r * r) / (kG * L));
    const float period = measurePeriod(
        world, [&] { return world.position(bob).x; }, 6);
    CHECK(period == doctest::Approx(expected).epsilon(0.02));
    CHECK(length(world.position(bob)) == doctest::Approx(L).epsilon(0.005));
}

TEST_CASE("a pendulum on a rigid distance joint swings with the period of the closed form") {
    World world(awakeWorld());
    const float L = 2.0f, r = 0.05f, amplitude = 0.1f;
    const BodyId pivot = staticBody(world);
    const BodyId bob = ball(world, {L * std::sin(amplitude), -L * std::cos(amplitude)}, r);
    DistanceJointDef def;
    def.bodyA = pivot;
    def.bodyB = bob;
    def.anchorA = {0.0f, 0.0f};
    def.anchorB = world.position(bob);
    world.createDistanceJoint(def);
    // The joint holds the disc's centre, which swings as a point mass (the disc keeps its spin
    // apart from the swing): T = 2 pi sqrt(L / g).
    const float expected = 2.0f * kPi * std::sqrt(L / kG);
    const float period = measurePeriod(
        world, [&] { return world.position(bob).x; }, 5);
    CHECK(period == doctest::Approx(expected).epsilon(0.02));
}

TEST_CASE("a distance-joint spring oscillates at its hertz") {
    World world(awakeWorld({0.0f, 0.0f}));
    const float hertz = 2.0f, rest = 1.0f;
    const BodyId anchor = staticBody(world);
    const BodyId body = ball(world, {rest + 0.2f, 0.0f}, 0.1f);
    DistanceJointDef def;
    def.bodyA = anchor;
    def.bodyB = body;
    def.anchorA = {0.0f, 0.0f};
    def.anchorB = world.position(body);
    def.length = rest;
    def.minLength = 0.0f;
    def.maxLength = 10.0f;
    def.enableSpring = true;
    def.hertz = hertz;
    def.dampingRatio = 0.0f;
    world.createDistanceJoint(def);
    const float period = measurePeriod(
        world, [&] { return world.position(body).x - rest; }, 6);
    CHECK(1.0f / period == doctest::Approx(hertz).epsilon(0.03));
}

TEST_CASE("a wheel's static deflection is m g / k") {
    // The spring's stiffness is k = m w^2 with w = 2 pi hertz (the chassis is static): the wheel
    // settles g / w^2 below where it was made.
    World world(awakeWorld());
    const float hertz = 2.0f;
    const BodyId chassis = staticBody(world, {0.0f, 1.0f});
    const BodyId wheel = ball(world, {0.0f, 0.0f}, 0.3f);
    WheelJointDef def;
    def.bodyA = chassis;
    def.bodyB = wheel;
    def.anchor = {0.0f, 0.0f};
    def.axis = {0.0f, 1.0f};
    def.hertz = hertz;
    def.dampingRatio = 0.7f;
    const JointId joint = world.createWheelJoint(def);
    stepFor(world, 5.0f);
    const float omega = 2.0f * kPi * hertz;
    CHECK(-world.position(wheel).y == doctest::Approx(kG / (omega * omega)).epsilon(0.02));
    CHECK(world.jointTranslation(joint) == doctest::Approx(world.position(wheel).y).epsilon(1e-4));
    CHECK(std::fabs(world.position(wheel).x) < 1e-4f);
}

TEST_CASE("a prismatic motor at 2 m/s moves its body 2 m in 1 s") {
    World world(awakeWorld());
    const BodyId ground = staticBody(world);
    const BodyId slider = plank(world, {0.0f, 1.0f}, {0.5f, 0.25f});
    PrismaticJointDef def;
    def.bodyA = ground;
    def.bodyB = slider;
    def.anchor = {0.0f, 1.0f};
    def.axis = {1.0f, 0.0f};
    def.enableMotor = true;
    def.motorSpeed = 2.0f;
    def.maxMotorForce = 1000.0f;
    const JointId joint = world.createPrismaticJoint(def);
    stepFor(world, 1.0f);
    CHECK(world.position(slider).x == doctest::Approx(2.0f).epsilon(0.02));
    CHECK(world.jointTranslation(joint) == doctest::Approx(world.position(slider).x));
    // The joint holds the body against gravity and keeps it from turning.
    CHECK(std::fabs(world.position(slider).y - 1.0f) < 0.005f);
    CHECK(std::fabs(world.angle(slider)) < 1e-3f);
}

TEST_CASE("a prismatic limit stops a falling slider at the lower translation") {
    World world(awakeWorld());
    const BodyId ground = staticBody(world);
    const BodyId slider = plank(world, {0.0f, 3.0f}, {0.25f, 0.25f});
    PrismaticJointDef def;
    def.bodyA = ground;
    def.bodyB = slider;
    def.anchor = {0.0f, 3.0f};
    def.axis = {0.0f, 1.0f};
    def.enableLimit = true;
    def.lowerTranslation = -1.5f;
    def.upperTranslation = 0.5f;
    const JointId joint = world.createPrismaticJoint(def);
    stepFor(world, 3.0f);
    CHECK(world.jointTranslation(joint) == doctest::Approx(-1.5f).epsilon(0.005));
}

TEST_CASE("a revolute limit holds a loaded arm") {
    // A 2 m plank hinged at its left end, free to fall but limited to 0.3 rad below horizontal,
    // with a ball three times its mass welded to its tip: the angle stays at the limit.
    World world(awakeWorld());
    const BodyId pivot = staticBody(world);
    const BodyId arm = plank(world, {1.0f, 0.0f}, {1.0f, 0.05f});
    const BodyId load = ball(world, {2.0f, 0.0f}, 0.2f, 5.0f);
    WeldJointDef weld;
    weld.bodyA = arm;
    weld.bodyB = load;
    weld.anchor = {2.0f, 0.0f};
    world.createWeldJoint(weld);
    RevoluteJointDef def;
    def.bodyA = pivot;
    def.bodyB = arm;
    def.anchor = {0.0f, 0.0f};
    def.enableLimit = true;
    def.lowerAngle = -0.3f;
    def.upperAngle = 0.3f;
    const JointId hinge = world.createRevoluteJoint(def);
    float lowest = 0.0f;
    for (int i = 0; i < 180; ++i) {
        world.step(kDefaultTimeStep);
        lowest = std::min(lowest, world.jointAngle(hinge));
    }
    CHECK(world.jointAngle(hinge) == doctest::Approx(-0.3f).epsilon(0.01));
    CHECK(lowest > -0.3f - 0.02f);
    // The hinge carries the weight of arm and load.
    const float weight = kG * (world.mass(arm) + world.mass(load));
    CHECK(world.jointReactionForce(hinge).y == doctest::Approx(weight).epsilon(0.02));
}

TEST_CASE("a revolute motor turns a wheel at its speed within its torque") {
    World world(awakeWorld({0.0f, 0.0f}));
    const BodyId axle = staticBody(world);
    const BodyId wheel = ball(world, {0.0f, 0.0f}, 1.0f);
    RevoluteJointDef def;
    def.bodyA = axle;
    def.bodyB = wheel;
    def.enableMotor = true;
    def.motorSpeed = 3.0f;
    def.maxMotorTorque = 0.5f;
    const JointId joint = world.createRevoluteJoint(def);
    // Torque-limited spin-up: w(t) = (torque / I) t until the motor speed is reached.
    const float inertia = world.inertia(wheel);
    stepFor(world, 1.0f);
    CHECK(world.angularVelocity(wheel) == doctest::Approx(0.5f / inertia).epsilon(0.02));
    CHECK(world.jointReactionTorque(joint) == doctest::Approx(0.5f).epsilon(0.01));
    stepFor(world, 10.0f);
    CHECK(world.angularVelocity(wheel) == doctest::Approx(3.0f).epsilon(0.001));
}

TEST_CASE("a hanging weight's reaction force is its weight") {
    World world(awakeWorld());
    const BodyId pivot = staticBody(world);
    const BodyId weight = ball(world, {0.0f, -1.0f}, 0.25f, 2.0f);
    RevoluteJointDef def;
    def.bodyA = pivot;
    def.bodyB = weight;
    const JointId joint = world.createRevoluteJoint(def);
    stepFor(world, 1.0f);
    const Vec2 force = world.jointReactionForce(joint);
    CHECK(force.y == doctest::Approx(world.mass(weight) * kG).epsilon(0.005));
    CHECK(std::fabs(force.x) < 1e-3f);
}

TEST_CASE("a 20-link chain hangs connected and comes to rest") {
    // Released 30 degrees off the vertical. A frictionless pendulum swings for ever: air drag
    // (linear damping) and joint friction (motors at speed 0 with a small torque, as games give
    // chains) let it settle.
    WorldDef worldDef;
    worldDef.gravity = {0.0f, -kG};
    World world(worldDef);
    const Vec2 top{0.0f, 12.0f};
    const BodyId ceiling = staticBody(world, top);
    const float link = 0.25f, tilt = 0.5f;
    const Vec2 down{std::sin(tilt), -std::cos(tilt)};
    std::vector<JointId> joints;
    BodyId previous = ceiling;
    for (int i = 0; i < 20; ++i) {
        BodyDef def;
        def.type = BodyType::Dynamic;
        def.position = top + (static_cast<float>(i) + 0.5f) * 2.0f * link * down;
        def.angle = tilt - 0.5f * kPi;
        def.linearDamping = 0.5f;
        const BodyId body = world.createBody(def);
        world.createCapsule(body, ShapeDef{}, Capsule{{-link, 0.0f}, {link, 0.0f}, 0.05f});
        RevoluteJointDef joint;
        joint.bodyA = previous;
        joint.bodyB = body;
        joint.anchor = top + static_cast<float>(i) * 2.0f * link * down;
        joint.enableMotor = true;
        joint.maxMotorTorque = 0.05f;
        joints.push_back(world.createRevoluteJoint(joint));
        previous = body;
    }
    float worst = 0.0f;
    for (int i = 0; i < 60 * 60 && awakeBodyCount(world) > 0; ++i) {
        world.step(kDefaultTimeStep);
        for (const JointId j : joints)
            worst = std::max(worst, length(world.jointAnchorB(j) - world.jointAnchorA(j)));
    }
    CHECK(worst < 0.01f);
    CHECK(awakeBodyCount(world) == 0); // the chain sleeps as one
    // Hanging straight down from the ceiling, 10 m long.
    const Vec2 end = world.jointAnchorB(joints.back()) +
                     (world.position(previous) - world.jointAnchorB(joints.back())) * 2.0f;
    CHECK(std::fabs(end.x) < 0.1f); // the joint friction holds it where it came to rest
    CHECK(end.y == doctest::Approx(top.y - 10.0f).epsilon(0.01));
}

TEST_CASE("a rope never lets its weight fall further than its max length") {
    World world(awakeWorld());
    const BodyId hook = staticBody(world, {0.0f, 5.0f});
    const BodyId weight = ball(world, {0.5f, 5.0f}, 0.2f, 10.0f);
    DistanceJointDef def;
    def.bodyA = hook;
    def.bodyB = weight;
    def.anchorA = {0.0f, 5.0f};
    def.anchorB = {0.5f, 5.0f};
    def.minLength = 0.0f;
    def.maxLength = 3.0f;
    def.enableSpring = true;
    def.hertz = 0.0f;
    world.createDistanceJoint(def);
    float longest = 0.0f;
    for (int i = 0; i < 300; ++i) {
        world.step(kDefaultTimeStep);
        longest = std::max(longest, length(world.position(weight) - Vec2{0.0f, 5.0f}));
    }
    CHECK(longest <= 3.0f + 0.02f);
    CHECK(longest > 2.9f); // it did fall to the rope's length
}

namespace {
// Five 1 m boxes welded end to end from a wall: the tip's height after 3 s.
float cantileverTip(WorldDef def) {
    def.enableSleep = false;
    World world(def);
    BodyId previous = staticBody(world);
    BodyId last{};
    for (int i = 0; i < 5; ++i) {
        const float x = 0.5f + static_cast<float>(i);
        last = plank(world, {x, 0.0f}, {0.5f, 0.125f});
        WeldJointDef weld;
        weld.bodyA = previous;
        weld.bodyB = last;
        weld.anchor = {x - 0.5f, 0.0f};
        world.createWeldJoint(weld);
        previous = last;
    }
    stepFor(world, 3.0f);
    CHECK(world.position(last).x == doctest::Approx(4.5f).epsilon(0.01));
    return world.position(last).y;
}
} // namespace

TEST_CASE("a weld cantilever of five boxes sags less than 5 cm") {
    // A soft joint's steady error is its load times the bodies' inverse mass over (2 pi hertz)^2:
    // slim links (little inertia) under the moment of the links beyond them bend. The joint
    // hertz is bounded by the substep rate (beyond a quarter of it one iteration per substep
    // diverges), so a stiff structure asks for substeps: at 8, jointHertz 120 holds it within
    // 5 cm; at the defaults (4 substeps, 60 Hz) it sags about 10 cm and stays there.
    WorldDef stiff;
    stiff.substeps = 8;
    stiff.jointHertz = 120.0f;
    CHECK(cantileverTip(stiff) > -0.05f);
    const float atDefaults = cantileverTip(WorldDef{});
    CHECK(atDefaults > -0.12f);
    CHECK(atDefaults < -0.05f); // the bound above is what the settings buy, not a given
}

TEST_CASE("a mouse joint drags a body to its target, within its max force") {
    World world(awakeWorld());
    createFloor(world);
    const BodyId box = plank(world, {0.0f, 0.5f}, {0.5f, 0.5f});
    const float weight = world.mass(box) * kG;
    MouseJointDef def;
    def.body = box;
    def.target = {0.0f, 0.5f};
    def.maxForce = 0.5f * weight; // cannot lift it
    const JointId mouse = world.createMouseJoint(def);
    world.setJointTarget(mouse, {0.0f, 3.0f});
    stepFor(world, 2.0f);
    CHECK(world.position(box).y < 0.55f);
    world.setJointMaxForce(mouse, 20.0f * weight);
    world.setJointTarget(mouse, {2.0f, 3.0f});
    stepFor(world, 3.0f);
    CHECK(length(world.jointAnchorB(mouse) - Vec2{2.0f, 3.0f}) < 0.02f);
}

TEST_CASE("two bodies of the same negative filter group pass through each other") {
    World world(awakeWorld({0.0f, 0.0f}));
    ShapeDef shape;
    shape.filter.groupIndex = -1;
    BodyDef def;
    def.type = BodyType::Dynamic;
    def.position = {-1.0f, 0.0f};
    def.linearVelocity = {2.0f, 0.0f};
    const BodyId a = world.createBody(def);
    world.createCircle(a, shape, Circle{{0.0f, 0.0f}, 0.5f});
    def.position = {1.0f, 0.0f};
    def.linearVelocity = {-2.0f, 0.0f};
    const BodyId b = world.createBody(def);
    world.createCircle(b, shape, Circle{{0.0f, 0.0f}, 0.5f});
    stepFor(world, 1.0f);
    CHECK(world.position(a).x == doctest::Approx(1.0f).epsilon(0.01));
    CHECK(world.position(b).x == doctest::Approx(-1.0f).epsilon(0.01));
}
