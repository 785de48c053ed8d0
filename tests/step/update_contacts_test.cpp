// The contact stage while few bodies are awake: it updates only the contacts of awake bodies
// (found through their contact lists) and leaves the heads of sleeping pairs as they were. That
// must give the bits of the stage that visits every contact, through wakes in the middle of the
// stage, bodies created and destroyed at rest, and a sensor.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "rigid2d/testing.hpp"
#include "state/world_access.hpp"
#include "state/world_state.hpp"

using namespace rigid2d;
using namespace rigid2d::testing;

namespace {

struct Trace {
    std::vector<std::uint64_t> hashes;
    std::vector<std::size_t> touching;
    std::vector<std::size_t> awake;
    int sparseStepsWithAwakeBodies = 0;
};

BodyId turningBox(World& world, Vec2 position) {
    const BodyId body = world.createBody({.type = BodyType::Dynamic, .position = position});
    world.createBox(body, {}, Box{.halfExtents = {0.5f, 0.5f}});
    return body;
}

BodyId ball(World& world, Vec2 position, float radius = 0.3f) {
    return createCircle(world, position, radius);
}

// Piles that fall asleep, then are woken one at a time by a dropped ball, by the API, and by
// destroying a body; `everyContact` makes each step's stage visit every contact.
Trace run(bool everyContact) {
    World world = makeWorldWithFloor();
    detail::WorldState& state = detail::WorldAccess::state(world);
    std::vector<BodyId> piles;
    for (int pile = 0; pile < 4; ++pile)
        for (int row = 0; row < 4; ++row) {
            const float x = 6.0f * static_cast<float>(pile);
            const float y = 0.5f + static_cast<float>(row);
            piles.push_back(pile % 2 == 0 ? turningBox(world, {x, y}) : ball(world, {x, y}, 0.5f));
        }
    ShapeDef sensor;
    sensor.isSensor = true;
    world.createCircle(piles[1], sensor, Circle{{1.0f, 0.0f}, 0.6f});
    // A body created and destroyed leaves free contact slots for later contacts to take.
    const BodyId passing = ball(world, {12.0f, 6.0f});

    Trace trace;
    const auto step = [&](int steps) {
        for (int i = 0; i < steps; ++i) {
            if (everyContact) state.contactStage.headsCurrent = false;
            world.step(kDefaultTimeStep);
            trace.hashes.push_back(stateHash(world));
            trace.touching.push_back(world.stats().touchingContacts);
            trace.awake.push_back(world.stats().awakeBodies);
            if (state.contactStage.sparse && world.stats().awakeBodies > 0)
                ++trace.sparseStepsWithAwakeBodies;
        }
    };
    step(60);
    world.destroyBody(passing);
    step(300);
    REQUIRE(awakeBodyCount(world) == 0);
    const BodyId first = ball(world, {0.2f, 7.0f});
    step(120);
    world.applyLinearImpulse(piles[5], {2.0f, 0.0f}, world.position(piles[5]));
    step(60);
    const BodyId second = ball(world, {17.8f, 8.0f}, 0.4f);
    step(30);
    world.destroyBody(first);
    step(120);
    world.destroyBody(second);
    step(240);
    return trace;
}

} // namespace

TEST_CASE("contacts of sleeping bodies left alone give the bits of a stage that visits them all") {
    const Trace sparse = run(false);
    const Trace full = run(true);
    // The sparse stage did run while part of the world was awake (or this test shows nothing).
    CHECK(sparse.sparseStepsWithAwakeBodies > 100);
    CHECK(full.sparseStepsWithAwakeBodies == 0);
    REQUIRE(sparse.hashes.size() == full.hashes.size());
    for (std::size_t i = 0; i < sparse.hashes.size(); ++i) {
        INFO("step " << i);
        REQUIRE(sparse.hashes[i] == full.hashes[i]);
        REQUIRE(sparse.touching[i] == full.touching[i]);
        REQUIRE(sparse.awake[i] == full.awake[i]);
    }
}

// A restitution set on a shape of a sleeping pile changes its contacts, which a sparse stage does
// not visit: their heads (what the gather reads) must follow all the same. Found by the snapshot
// fuzzer, where the gather's check of every head failed.
TEST_CASE("a restitution set on a sleeping pile reaches its contacts' heads") {
    World world = makeWorldWithFloor();
    const BodyId bottom = turningBox(world, {0.0f, 0.5f});
    turningBox(world, {0.0f, 1.5f});
    REQUIRE(stepUntilAsleep(world, 5.0f) >= 0.0f);
    ShapeId shape;
    world.forEachShape(bottom, [&](ShapeId id) { shape = id; });
    const detail::WorldState& state = detail::WorldAccess::state(world);
    const auto bouncyHeads = [&] {
        int count = 0;
        for (std::uint32_t c = 0; c < state.contacts.size(); ++c) {
            const detail::Contact& contact = state.contacts[c];
            const bool bouncy = detail::isSolvable(contact) && contact.restitution != 0.0f;
            CHECK(state.contactStage.heads[c].bouncy == (bouncy ? 1u : 0u));
            count += bouncy ? 1 : 0;
        }
        return count;
    };
    CHECK(bouncyHeads() == 0);
    world.setRestitution(shape, 0.5f);
    CHECK(bouncyHeads() == 2); // on the floor, and under the top box
    world.step(kDefaultTimeStep);
    CHECK(state.contactStage.sparse);
    CHECK(world.stats().awakeBodies == 0);
    CHECK(bouncyHeads() == 2);
    world.setRestitution(shape, 0.0f);
    CHECK(bouncyHeads() == 0);
}

// The stage fetches a contact's whole shapes ahead only when one is polygonal: the contact says
// so from its creation, and a restored world derives it again (it is not in the bytes).
TEST_CASE("a contact knows whether a shape is polygonal, made by a step or by a restore") {
    World world = makeWorldWithFloor(); // an axis-aligned box: not polygonal
    ball(world, {-3.0f, 0.3f});
    turningBox(world, {3.0f, 0.5f});
    const BodyId capsule = world.createBody({.type = BodyType::Dynamic, .position = {0.0f, 0.3f}});
    world.createCapsule(capsule, {}, Capsule{{-0.5f, 0.0f}, {0.5f, 0.0f}, 0.3f});
    world.step(1.0f / 60.0f);
    const auto flags = [](World& w) {
        std::vector<std::pair<std::uint64_t, bool>> out;
        const detail::WorldState& state = detail::WorldAccess::state(w);
        for (const detail::Contact& contact : state.contacts) {
            if (!contact.live) continue;
            const bool expected = detail::isPolygonal(state.shapes[contact.shapeA].type) ||
                                  detail::isPolygonal(state.shapes[contact.shapeB].type);
            CHECK(contact.polygonal == expected);
            out.emplace_back(detail::pairKey(contact.shapeA, contact.shapeB), contact.polygonal);
        }
        return out;
    };
    const auto made = flags(world);
    REQUIRE(made.size() == 3);
    CHECK(std::count_if(made.begin(), made.end(), [](const auto& f) { return f.second; }) == 2);
    World restored;
    restored.restore(world.snapshot());
    CHECK(flags(restored) == made);
}

// The continuous stage finds the segment or chain link a body touches in the contact's head, so
// the head must name it whichever way the contact was made.
TEST_CASE("a contact's head names its shape without area, made by a step or by a restore") {
    World world;
    const BodyId ground = world.createBody({});
    world.createSegment(ground, {}, Segment{{-5.0f, 0.0f}, {5.0f, 0.0f}});
    ball(world, {-2.0f, 0.29f});
    turningBox(world, {2.0f, 0.49f});
    const BodyId other = world.createBody({.type = BodyType::Dynamic, .position = {2.0f, 1.5f}});
    world.createBox(other, {}, Box{.halfExtents = {0.5f, 0.5f}}); // on the turning box
    world.step(1.0f / 60.0f);
    const auto named = [](World& w) {
        std::vector<std::pair<std::uint64_t, std::uint32_t>> out;
        const detail::WorldState& state = detail::WorldAccess::state(w);
        for (std::uint32_t c = 0; c < state.contacts.size(); ++c) {
            const detail::Contact& contact = state.contacts[c];
            if (!contact.live) continue;
            const std::uint32_t thin =
                detail::hasNoArea(state.shapes[contact.shapeA].type)   ? contact.shapeA
                : detail::hasNoArea(state.shapes[contact.shapeB].type) ? contact.shapeB
                                                                       : detail::kNullIndex;
            CHECK(contact.thinShape == thin);
            CHECK(state.contactStage.heads[c].thinShape == thin);
            out.emplace_back(detail::pairKey(contact.shapeA, contact.shapeB), thin);
        }
        return out;
    };
    const auto made = named(world);
    REQUIRE(made.size() == 3);
    CHECK(std::count_if(made.begin(), made.end(),
                        [](const auto& n) { return n.second != detail::kNullIndex; }) == 2);
    World restored;
    restored.restore(world.snapshot());
    restored.step(1.0f / 60.0f); // the heads are rewritten by the restored world's first step
    world.step(1.0f / 60.0f);
    CHECK(named(restored) == named(world));
}

// A turning polygon or capsule near an axis-aligned box (a ragdoll over ground boxes): once a
// collision has found them apart by more than the margin, the cache keeps them so, as it does two
// turning polygons, and no step collides them again while they barely move.
TEST_CASE("a polygon beside an axis-aligned box stays apart without a collision a step") {
    WorldDef def;
    def.gravity = {0.0f, 0.0f};
    World world(def);
    createFloor(world, 0.0f, 1.0f); // a ledge from x = -1 to 1, its top at y = 0
    // Off its two top corners, 10 cm away along the diagonal: each shape's bounds overlap the
    // ledge's, so only a collision tells them apart. A box turned 45 degrees, a face to the corner:
    constexpr float kDiagonal = 0.70710678f;
    const float reach = 0.25f + 0.1f;
    const BodyId box = world.createBody(
        {.type = BodyType::Dynamic, .position = {1.0f + reach * kDiagonal, reach * kDiagonal}});
    world.createBox(box, {}, Box{.halfExtents = {0.25f, 0.25f}, .angle = 0.25f * 3.14159265f});
    // A capsule across the other corner's diagonal:
    const float rise = (0.1f + 0.1f) * kDiagonal;
    const BodyId capsule =
        world.createBody({.type = BodyType::Dynamic, .position = {-1.0f - rise, rise}});
    world.createCapsule(capsule, {}, Capsule{{-0.3f, -0.3f}, {0.3f, 0.3f}, 0.1f});
    for (const BodyId body : {box, capsule}) world.setLinearVelocity(body, {0.0f, 1e-4f});
    world.step(kDefaultTimeStep);
    REQUIRE(world.stats().contacts == 2);
    CHECK(world.stats().touchingContacts == 0);
    // Half a second: then they fall asleep, and their contacts are not updated at all.
    for (int i = 0; i < 20; ++i) {
        world.step(kDefaultTimeStep);
        CHECK(world.stats().touchingContacts == 0);
        INFO("step " << i);
        CHECK(world.stats().reusedManifolds == 2);
    }
}
