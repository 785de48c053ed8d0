#pragma once
// Scenes whose runs are compared bit for bit (tests/world/threads_test.cpp: any worker count;
// tests/solver/simd_path_test.cpp: any SIMD path), and their digests: the final state hash mixed
// with what every step reported.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include <doctest/doctest.h>

#include "rigid2d/geometry.hpp"
#include "rigid2d/testing.hpp"

namespace rigid2d::testing {

// Several hundred bodies (enough that every stage is cut into pieces) of every kind: circles,
// axis-aligned and turning boxes, hexagons and capsules falling on segments and into a pile that
// starts asleep, sensors, and bullets fired at a wall.
inline void buildScene(World& world) {
    const BodyId ground = world.createBody({});
    world.createSegment(ground, {}, {{-30.0f, 0.0f}, {30.0f, 0.0f}});
    world.createSegment(ground, {}, {{-30.0f, 0.0f}, {-32.0f, 20.0f}});
    world.createBox(ground, {}, {.center = {30.0f, 10.0f}, .halfExtents = {0.2f, 10.0f}});
    ShapeDef sensorDef;
    sensorDef.isSensor = true;
    world.createBox(ground, sensorDef, {.center = {0.0f, 3.0f}, .halfExtents = {6.0f, 2.0f}});
    const Vec2 hexagonPoints[6] = {{0.3f, 0.0f},  {0.15f, 0.26f},   {-0.15f, 0.26f},
                                   {-0.3f, 0.0f}, {-0.15f, -0.26f}, {0.15f, -0.26f}};
    const Polygon hexagon = makePolygon(hexagonPoints);
    for (int i = 0; i < 360; ++i) {
        const float x =
            -24.0f + static_cast<float>(i % 30) * 1.6f + 0.05f * static_cast<float>(i % 7);
        const float y = 1.0f + static_cast<float>(i / 30) * 1.3f;
        BodyDef body;
        body.type = BodyType::Dynamic;
        body.position = {x, y};
        body.angle = 0.1f * static_cast<float>(i % 5);
        // A settled-looking pile on the left starts asleep: falling bodies must wake it.
        body.isAwake = !(x < -12.0f && i < 90);
        const BodyId id = world.createBody(body);
        switch (i % 5) {
        case 0: world.createCircle(id, {}, {.radius = 0.35f}); break;
        case 1: world.createBox(id, {}, {.halfExtents = {0.4f, 0.3f}}); break;
        case 2: world.createPolygon(id, {}, hexagon); break;
        case 3: world.createCapsule(id, {}, {{-0.3f, 0.0f}, {0.3f, 0.0f}, 0.2f}); break;
        default: createBox(world, {x + 0.7f, y}, {0.3f, 0.3f}); break;
        }
    }
    for (int i = 0; i < 4; ++i) {
        BodyDef bullet;
        bullet.type = BodyType::Dynamic;
        bullet.bullet = true;
        bullet.position = {-20.0f, 8.0f + 2.0f * static_cast<float>(i)};
        bullet.linearVelocity = {200.0f, -5.0f};
        world.createCircle(world.createBody(bullet), {}, {.radius = 0.1f});
    }
}

// Mixes a value into an FNV-1a style digest.
inline void mix(std::uint64_t& digest, std::uint64_t value) {
    digest ^= value;
    digest *= 0x100000001b3ull;
}

// The state hash after `steps` steps, mixed with every event of every step in order.
inline std::uint64_t runDigest(WorldDef def, int steps) {
    World world(def);
    buildScene(world);
    std::uint64_t digest = 0xcbf29ce484222325ull;
    for (int step = 0; step < steps; ++step) {
        world.step(kDefaultTimeStep);
        const ContactEvents contacts = world.contactEvents();
        const SensorEvents sensors = world.sensorEvents();
        for (const auto& e : contacts.begin)
            mix(digest, e.shapeA.index * 65536ull + e.shapeB.index);
        for (const auto& e : contacts.end) mix(digest, e.shapeA.index * 65536ull + e.shapeB.index);
        for (const auto& e : contacts.hit) mix(digest, e.shapeA.index * 65536ull + e.shapeB.index);
        for (const auto& e : sensors.begin)
            mix(digest, e.sensorShape.index * 65536ull + e.visitorShape.index);
        for (const auto& e : sensors.end)
            mix(digest, e.sensorShape.index * 65536ull + e.visitorShape.index);
        mix(digest, world.stats().touchingContacts);
    }
    REQUIRE(allFinite(world));
    mix(digest, stateHash(world));
    return digest;
}

// A joint between `a` and `b` at `anchor` (world frame), the other settings at their defaults.
template <class Def>
Def anchoredDef(BodyId a, BodyId b, Vec2 anchor) {
    Def def;
    def.bodyA = a;
    def.bodyB = b;
    def.anchor = anchor;
    return def;
}

// A scene for the solver in pieces: contacts and joints together. Chains of plain hinges (the
// wide point joints, two colours), limited and motorised hinges (the other wide revolute joints),
// every scalar kind, a kinematic platform that many contacts of one colour share (bodies the
// workers must not write back), bouncing balls (restitution and hit events) and a plank under
// forty balls, more contacts on one body than there are colours (the overflow list).
inline std::vector<JointId> buildJointScene(World& world) {
    std::vector<JointId> joints;
    const BodyId ground = world.createBody({});
    world.createSegment(ground, {}, {{-40.0f, 0.0f}, {40.0f, 0.0f}});
    for (int chain = 0; chain < 6; ++chain) {
        const float x0 = -30.0f + 4.0f * static_cast<float>(chain);
        BodyId previous = ground;
        for (int link = 0; link < 16; ++link) {
            BodyDef def;
            def.type = BodyType::Dynamic;
            def.position = {x0 + 0.5f * static_cast<float>(link) + 0.25f, 20.0f};
            const BodyId body = world.createBody(def);
            world.createBox(body, {}, {.halfExtents = {0.25f, 0.08f}});
            auto hinge = anchoredDef<RevoluteJointDef>(
                previous, body, {x0 + 0.5f * static_cast<float>(link), 20.0f});
            if (chain % 3 == 2) { // a ragdoll's kind of hinge
                hinge.enableLimit = true;
                hinge.lowerAngle = -0.5f;
                hinge.upperAngle = 0.5f;
                hinge.enableMotor = link % 2 == 0;
                hinge.motorSpeed = 1.0f;
                hinge.maxMotorTorque = 5.0f;
            }
            joints.push_back(world.createRevoluteJoint(hinge));
            previous = body;
        }
    }
    // One joint of every scalar kind, between bodies that also touch others.
    BodyId bodies[8];
    for (int i = 0; i < 8; ++i) {
        BodyDef def;
        def.type = BodyType::Dynamic;
        def.position = {2.0f + 1.5f * static_cast<float>(i), 6.0f};
        bodies[i] = world.createBody(def);
        world.createBox(bodies[i], {}, {.halfExtents = {0.4f, 0.4f}});
    }
    DistanceJointDef rod;
    rod.bodyA = bodies[0];
    rod.bodyB = bodies[1];
    rod.anchorA = {2.0f, 6.0f};
    rod.anchorB = {3.5f, 6.0f};
    joints.push_back(world.createDistanceJoint(rod));
    auto slider = anchoredDef<PrismaticJointDef>(bodies[2], bodies[3], {5.0f, 6.0f});
    slider.enableSpring = true;
    slider.hertz = 2.0f;
    joints.push_back(world.createPrismaticJoint(slider));
    joints.push_back(
        world.createWeldJoint(anchoredDef<WeldJointDef>(bodies[4], bodies[5], {8.75f, 6.0f})));
    auto wheel = anchoredDef<WheelJointDef>(bodies[6], bodies[7], {12.5f, 6.0f});
    wheel.enableMotor = true;
    wheel.motorSpeed = 2.0f;
    wheel.maxMotorTorque = 10.0f;
    joints.push_back(world.createWheelJoint(wheel));
    joints.push_back(
        world.createMouseJoint({.body = bodies[1], .target = {3.5f, 7.0f}, .maxForce = 500.0f}));
    // A kinematic platform under a layer of boxes.
    BodyDef platformDef;
    platformDef.type = BodyType::Kinematic;
    platformDef.position = {-20.0f, 3.0f};
    platformDef.linearVelocity = {0.5f, 0.0f};
    const BodyId platform = world.createBody(platformDef);
    world.createBox(platform, {}, {.halfExtents = {8.0f, 0.25f}});
    for (int i = 0; i < 40; ++i) {
        BodyDef def;
        def.type = BodyType::Dynamic;
        def.position = {-27.8f + 0.4f * static_cast<float>(i), 3.45f};
        world.createBox(world.createBody(def), {}, {.halfExtents = {0.18f, 0.18f}});
    }
    // A plank under forty balls, and bouncing balls everywhere.
    BodyDef plankDef;
    plankDef.type = BodyType::Dynamic;
    plankDef.position = {25.0f, 0.5f};
    const BodyId plank = world.createBody(plankDef);
    world.createBox(plank, {}, {.halfExtents = {10.0f, 0.25f}});
    ShapeDef bouncy;
    bouncy.restitution = 0.7f;
    for (int i = 0; i < 40; ++i) {
        BodyDef def;
        def.type = BodyType::Dynamic;
        def.position = {15.5f + 0.48f * static_cast<float>(i), 1.0f};
        world.createCircle(world.createBody(def), {}, {.radius = 0.22f});
    }
    for (int i = 0; i < 300; ++i) {
        BodyDef def;
        def.type = BodyType::Dynamic;
        def.position = {-36.0f + 0.9f * static_cast<float>(i % 80),
                        8.0f + 1.1f * static_cast<float>(i / 80)};
        world.createCircle(world.createBody(def), bouncy, {.radius = 0.3f});
    }
    return joints;
}

// The state hash after `steps` steps, mixed with every joint's reaction and every hit event.
inline std::uint64_t runJointDigest(WorldDef def, int steps) {
    World world(def);
    const std::vector<JointId> joints = buildJointScene(world);
    std::uint64_t digest = 0xcbf29ce484222325ull;
    for (int step = 0; step < steps; ++step) {
        world.step(kDefaultTimeStep);
        for (const auto& e : world.contactEvents().hit)
            mix(digest, std::bit_cast<std::uint32_t>(e.approachSpeed));
        for (const JointId joint : joints) {
            mix(digest, std::bit_cast<std::uint32_t>(world.jointReactionForce(joint).x));
            mix(digest, std::bit_cast<std::uint32_t>(world.jointReactionTorque(joint)));
        }
    }
    REQUIRE(allFinite(world));
    mix(digest, stateHash(world));
    return digest;
}

// Many small islands, enough constraints that the solver splits them into groups: ragdoll-like
// trios of boxes (two hinges, one limited and driven, and a rod), some welded to a neighbour
// trio, dropped in five rows onto the ground and a kinematic platform: each column becomes an
// island, some joined by welds, a platform or trios that topple onto their neighbours.
inline std::uint64_t runGroupedDigest(WorldDef def, int steps, std::size_t* mostGroups) {
    World world(def);
    const BodyId ground = world.createBody({});
    world.createSegment(ground, {}, {{-80.0f, 0.0f}, {80.0f, 0.0f}});
    BodyDef platformDef;
    platformDef.type = BodyType::Kinematic;
    platformDef.position = {-60.0f, 1.0f};
    platformDef.linearVelocity = {0.3f, 0.0f};
    world.createBox(world.createBody(platformDef), {}, {.halfExtents = {6.0f, 0.2f}});
    BodyId previousFirst{};
    for (int trio = 0; trio < 440; ++trio) {
        const float x = -70.0f + 1.6f * static_cast<float>(trio % 88);
        const float y = 2.0f + 3.0f * static_cast<float>(trio / 88);
        BodyId bodies[3];
        for (int k = 0; k < 3; ++k) {
            BodyDef body;
            body.type = BodyType::Dynamic;
            body.position = {x, y + 0.6f * static_cast<float>(k)};
            body.angle = 0.1f * static_cast<float>(trio % 7);
            bodies[k] = world.createBody(body);
            world.createBox(bodies[k], {}, {.halfExtents = {0.3f, 0.25f}});
        }
        auto lower = anchoredDef<RevoluteJointDef>(bodies[0], bodies[1], {x, y + 0.3f});
        lower.enableLimit = true;
        lower.lowerAngle = -0.4f;
        lower.upperAngle = 0.4f;
        lower.enableMotor = true;
        lower.motorSpeed = trio % 2 == 0 ? 1.0f : -1.0f;
        lower.maxMotorTorque = 2.0f;
        world.createRevoluteJoint(lower);
        world.createRevoluteJoint(
            anchoredDef<RevoluteJointDef>(bodies[1], bodies[2], {x, y + 0.9f}));
        DistanceJointDef rod;
        rod.bodyA = bodies[0];
        rod.bodyB = bodies[2];
        rod.anchorA = {x, y};
        rod.anchorB = {x, y + 1.2f};
        world.createDistanceJoint(rod);
        if (trio % 9 == 1 && trio % 88 != 0)
            world.createWeldJoint(
                anchoredDef<WeldJointDef>(previousFirst, bodies[0], {x - 0.6f, y}));
        previousFirst = bodies[0];
    }
    std::uint64_t digest = 0xcbf29ce484222325ull;
    *mostGroups = 0;
    for (int step = 0; step < steps; ++step) {
        world.step(kDefaultTimeStep);
        *mostGroups = std::max(*mostGroups, world.stats().solverGroups);
        mix(digest, stateHash(world));
    }
    REQUIRE(allFinite(world));
    return digest;
}

} // namespace rigid2d::testing
