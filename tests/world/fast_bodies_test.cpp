// Issue 12, case 6: bodies at the speed clamp (maxTranslation per step, 480 m/s at 60 Hz) that are
// not bullets must not pass through static geometry: the broad phase must find the pair one step
// before the body arrives, whatever the phase of its fat-box updates, so that the speculative
// contact stops it at the surface.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "rigid2d/testing.hpp"

using namespace rigid2d;
using namespace rigid2d::testing;

namespace {

constexpr float kSpeed = 480.0f; // the clamp: 8 m per step at 60 Hz

struct Shot {
    float start; ///< x of the body's centre
    bool box;    ///< a 0.25 m box instead of a 0.25 m circle
    float speed; ///< m/s towards +x
};

// The wall is 1 m thick, x in [0, 1]; returns how many bodies ended past its near face.
int passedWall(BroadPhaseType type, const Shot* shots, int count, float wallHalfWidth = 0.5f) {
    WorldDef def;
    def.broadPhase = type;
    def.gravity = {0.0f, 0.0f};
    World world(def);
    createBox(world, {wallHalfWidth, 0.0f}, {wallHalfWidth, 100.0f}, ShapeDef{}, BodyType::Static);
    std::vector<BodyId> bodies;
    for (int i = 0; i < count; ++i) {
        BodyDef bodyDef;
        bodyDef.type = BodyType::Dynamic;
        bodyDef.position = {shots[i].start, -60.0f + 1.5f * static_cast<float>(i)};
        bodyDef.linearVelocity = {shots[i].speed, 0.0f};
        const BodyId b = world.createBody(bodyDef);
        if (shots[i].box)
            world.createBox(b, {}, Box{{0, 0}, {0.25f, 0.25f}});
        else
            world.createCircle(b, {}, Circle{{0, 0}, 0.25f});
        bodies.push_back(b);
    }
    int passed = 0;
    std::vector<float> maxX(bodies.size(), -1e9f);
    for (int step = 0; step < 120; ++step) {
        world.step(kDefaultTimeStep);
        for (std::size_t i = 0; i < bodies.size(); ++i)
            maxX[i] = std::max(maxX[i], world.position(bodies[i]).x);
    }
    for (const float x : maxX) passed += x > 0.0f ? 1 : 0;
    return passed;
}

} // namespace

TEST_CASE("issue 12.6: non-bullets at the speed clamp do not pass a 1 m static wall") {
    // 20 circles and 20 boxes at every phase of an 8 m step, from far away and from within one
    // step of the wall (the first step already reaches it).
    std::vector<Shot> shots;
    for (int i = 0; i < 20; ++i) {
        const float phase = 0.4f * static_cast<float>(i);
        shots.push_back({-40.0f - phase, false, kSpeed});
        shots.push_back({-40.0f - phase, true, kSpeed});
        shots.push_back({-0.3f - phase, i % 2 == 0, kSpeed});
        shots.push_back({-23.0f - phase, i % 2 == 1, 0.93f * kSpeed});
    }
    for (const BroadPhaseType type : kAllBroadPhaseTypes) {
        CAPTURE(toString(type));
        CHECK(passedWall(type, shots.data(), static_cast<int>(shots.size())) == 0);
    }
}

TEST_CASE("issue 12.6: a fast body whose velocity is set between steps does not tunnel") {
    for (const BroadPhaseType type : kAllBroadPhaseTypes) {
        CAPTURE(toString(type));
        WorldDef def;
        def.broadPhase = type;
        def.gravity = {0.0f, 0.0f};
        World world(def);
        createBox(world, {0.5f, 0.0f}, {0.5f, 10.0f}, ShapeDef{}, BodyType::Static);
        const BodyId ball = createCircle(world, {-3.0f, 0.0f}, 0.25f);
        stepFor(world, 0.5f); // at rest, its fat box small and settled
        world.setLinearVelocity(ball, {kSpeed, 0.0f});
        float maxX = -10.0f;
        for (int i = 0; i < 30; ++i) {
            world.step(kDefaultTimeStep);
            maxX = std::max(maxX, world.position(ball).x);
        }
        CHECK(maxX <= -0.25f + 0.01f);
    }
}

TEST_CASE("issue 12.6: fast non-bullets do not pass static geometry in any direction") {
    // A 1 m wall on each side of the origin; in each direction, bodies start at every phase of a
    // step and fly towards it at the clamp (under gravity: straight down is a drop from high up).
    const Vec2 directions[] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    for (const BroadPhaseType type : kAllBroadPhaseTypes) {
        for (const Vec2 d : directions) {
            CAPTURE(toString(type));
            CAPTURE(d.x);
            CAPTURE(d.y);
            WorldDef def;
            def.broadPhase = type;
            World world(def);
            createBox(world, 60.5f * d, {d.x != 0 ? 0.5f : 61.0f, d.y != 0 ? 0.5f : 61.0f},
                      ShapeDef{}, BodyType::Static);
            std::vector<BodyId> bodies;
            for (int i = 0; i < 20; ++i) {
                const float lateral = -30.0f + 3.0f * static_cast<float>(i);
                BodyDef bodyDef;
                bodyDef.type = BodyType::Dynamic;
                bodyDef.position = Vec2{d.y * lateral, d.x * lateral} + 0.4f * float(i) * d;
                bodyDef.linearVelocity = kSpeed * d;
                const BodyId b = world.createBody(bodyDef);
                if (i % 3 == 0)
                    world.createBox(b, {}, Box{{0, 0}, {0.25f, 0.25f}});
                else
                    world.createCircle(b, {}, Circle{{0, 0}, 0.25f});
                bodies.push_back(b);
            }
            float deepest = -100.0f; // how far past the wall's face (at 60) a centre got
            for (int step = 0; step < 60; ++step) {
                world.step(kDefaultTimeStep);
                for (const BodyId b : bodies)
                    deepest = std::max(deepest, world.position(b).x * d.x +
                                                    world.position(b).y * d.y - 60.0f);
            }
            CHECK(deepest <= -0.25f + 0.01f);
        }
    }
}

TEST_CASE("issue 14: a body squeezed against a static segment does not leave through it") {
    // v3_spinner's blade drives a pile into its ring of segments, and bodies left through it. A
    // kinematic box pressing a body down onto a two-sided segment is the same squeeze made sure:
    // nothing can stop the box, so the body has to give; its centre must stay above the line, and
    // once the box has passed it the body rests on the segment again.
    for (const bool capsule : {false, true}) {
        CAPTURE(capsule);
        World world;
        BodyDef groundDef;
        const BodyId ground = world.createBody(groundDef);
        world.createSegment(ground, ShapeDef{}, {{-5.0f, 0.0f}, {5.0f, 0.0f}});
        BodyDef bodyDef;
        bodyDef.type = BodyType::Dynamic;
        bodyDef.position = {0.0f, 0.25f};
        const BodyId body = world.createBody(bodyDef);
        if (capsule)
            world.createCapsule(body, ShapeDef{}, {{-0.25f, 0.0f}, {0.25f, 0.0f}, 0.25f});
        else
            world.createCircle(body, ShapeDef{}, {{0.0f, 0.0f}, 0.25f});
        BodyDef pressDef;
        pressDef.type = BodyType::Kinematic;
        pressDef.position = {0.0f, 0.75f};
        pressDef.linearVelocity = {0.0f, -2.0f};
        const BodyId press = world.createBody(pressDef);
        world.createBox(press, ShapeDef{}, {{0.0f, 0.0f}, {1.0f, 0.25f}});
        float lowest = 1.0f;
        for (int i = 0; i < 120; ++i) {
            world.step(kDefaultTimeStep);
            lowest = std::min(lowest, world.position(body).y);
        }
        CHECK(lowest > 0.0f);
        CHECK(world.position(body).y == doctest::Approx(0.25f).epsilon(0.1));
    }
}

TEST_CASE("issue 14: a body driven across a segment it had no point on does not pass it") {
    // Wide fat boxes (a setting a game may choose) keep the path inside them, so no sweep runs:
    // the centre check alone must stop a body that a kinematic disc drives through the ring,
    // whether it touched the neighbouring link only or no link at all at the start of the step.
    // A body that moves already has a wider margin (its speed times the step): driven farther
    // than that, it too must be checked against every link its path crosses.
    struct Case {
        Vec2 start, push; ///< the body's centre; the disc's velocity, m/s
        Vec2 velocity{};  ///< the body's own, m/s
    };
    const Case cases[] = {
        {{-0.3f, 0.25f}, {48.0f, -30.0f}}, // on link [-5, 0], driven across link [0, 5]
        {{2.0f, 0.4f}, {0.0f, -60.0f}},    // 15 cm above link [0, 5], driven down through it
        // Moving along 15 cm above link [0, 5]: a 12 cm margin, short of it.
        {{2.0f, 0.4f}, {0.0f, -60.0f}, {6.0f, 0.0f}},
    };
    // Restored from a snapshot too: the restored world must know it has thin walls to check.
    for (const Case& c : cases)
        for (const bool restored : {false, true}) {
            CAPTURE(c.start.x);
            CAPTURE(c.velocity.x);
            CAPTURE(restored);
            WorldDef def;
            def.aabbMargin = 1.0f;
            def.gravity = {0.0f, 0.0f};
            World world(def);
            const BodyId ground = world.createBody({});
            world.createSegment(ground, ShapeDef{}, {{-5.0f, 0.0f}, {0.0f, 0.0f}});
            world.createSegment(ground, ShapeDef{}, {{0.0f, 0.0f}, {5.0f, 0.0f}});
            const BodyId body = createCircle(world, c.start, 0.25f);
            world.setLinearVelocity(body, c.velocity);
            const float speed = std::hypot(c.push.x, c.push.y);
            BodyDef discDef;
            discDef.type = BodyType::Kinematic;
            discDef.position = c.start - (0.76f / speed) * c.push; // 1 cm from the body
            discDef.linearVelocity = c.push;
            world.createCircle(world.createBody(discDef), ShapeDef{}, {{0.0f, 0.0f}, 0.5f});
            if (restored) world.restore(world.snapshot());
            float lowest = 1.0f;
            for (int i = 0; i < 30; ++i) {
                world.step(kDefaultTimeStep);
                lowest = std::min(lowest, world.position(body).y);
            }
            CHECK(lowest > 0.0f);
        }
}
