// FilterCensus against the masks' rule checked shape by shape, and the pair stage that relies on
// it: shapes whose filter admits no shape of the world skip the pair search, and pairs reappear
// as soon as a shape they admit joins the world, whichever way it joins.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "rigid2d/testing.hpp"
#include "state/filter_census.hpp"
#include "state/world_access.hpp"

using namespace rigid2d;
using rigid2d::testing::kDefaultTimeStep;

namespace {

// The census's question asked of every shape in turn.
bool admitsNoneByHand(const std::vector<Filter>& world, const Filter& probe) {
    if (probe.groupIndex > 0) return false;
    for (const Filter& other : world)
        if ((probe.maskBits & other.categoryBits) != 0 &&
            (probe.categoryBits & other.maskBits) != 0)
            return false;
    return true;
}

Filter randomFilter(std::mt19937& rng) {
    // A few of four bits, so that masks meet categories often enough for both answers to come
    // up; now and then all bits or none.
    std::uniform_int_distribution<int> pick(0, 9);
    auto bits = [&] {
        const int kind = pick(rng);
        if (kind == 0) return 0xFFFFFFFFu;
        if (kind == 1 && pick(rng) < 3) return 0u;
        std::uint32_t value = 1u << (pick(rng) % 4 * 9); // bits 0, 9, 18, 27
        if (pick(rng) < 3) value |= 1u << (pick(rng) % 4 * 9);
        return value;
    };
    const std::uint32_t category = bits();
    const std::uint32_t mask = pick(rng) < 3 ? ~category : bits();
    return {.categoryBits = category, .maskBits = mask, .groupIndex = pick(rng) - 7};
}

struct Row {
    std::vector<BodyId> balls;
    std::vector<ShapeId> shapes;
};

// Balls 0.8 m apart in a row, 0.5 m in radius (neighbours overlap), with a filter that refuses
// their own category.
Row addRow(World& world, int count) {
    Row row;
    for (int i = 0; i < count; ++i) {
        row.balls.push_back(world.createBody(
            {.type = BodyType::Dynamic, .position = {0.8f * static_cast<float>(i), 0.0f}}));
        row.shapes.push_back(world.createCircle(row.balls.back(),
                                                {.filter = {.categoryBits = 2u, .maskBits = ~2u}},
                                                Circle{{0.0f, 0.0f}, 0.5f}));
    }
    return row;
}

ShapeId addGround(World& world) {
    const BodyId ground = world.createBody({.type = BodyType::Static, .position = {0.0f, -1.0f}});
    return world.createBox(ground, {}, Box{{20.0f, 0.0f}, {30.0f, 0.5f}});
}

} // namespace

TEST_CASE("filter census: admitsNone agrees with the masks checked shape by shape") {
    std::mt19937 rng(20261129);
    detail::FilterCensus census;
    std::vector<Filter> world;
    std::vector<Filter> probes;
    for (int i = 0; i < 64; ++i) probes.push_back(randomFilter(rng));
    int none = 0, some = 0, classNone = 0, classSome = 0;
    for (int op = 0; op < 3000; ++op) {
        // A world of a few filters, so that it often has no class that admits none as well.
        if (world.size() >= 10 || (!world.empty() && rng() % 5 < 2)) {
            const std::size_t at = rng() % world.size();
            census.remove(world[at]);
            world.erase(world.begin() + static_cast<std::ptrdiff_t>(at));
        } else {
            world.push_back(randomFilter(rng));
            census.add(world.back());
        }
        census.refresh();
        const bool someAdmitNone = std::any_of(world.begin(), world.end(), [&](Filter f) {
            f.groupIndex = 0; // the census asks per class, whatever the group
            return admitsNoneByHand(world, f);
        });
        REQUIRE(census.someAdmitNone() == someAdmitNone);
        (someAdmitNone ? classNone : classSome) += 1;
        for (const Filter& probe : probes) {
            const bool expected = admitsNoneByHand(world, probe);
            REQUIRE(census.admitsNone(probe) == expected);
            (expected ? none : some) += 1;
        }
    }
    // Both answers came up often: the test can tell a census that always says one of them.
    CHECK(none > 10000);
    CHECK(some > 10000);
    CHECK(classNone > 100);
    CHECK(classSome > 100);
}

TEST_CASE("filter census: the pair search skips shapes that admit no shape, until one joins") {
    World world(WorldDef{.gravity = {0.0f, -10.0f}});
    const Row row = addRow(world, 8);
    for (int i = 0; i < 10; ++i) {
        world.step(kDefaultTimeStep);
        CHECK(world.stats().movedProxies == 0);
        CHECK(world.stats().contacts == 0);
    }

    SUBCASE("a ground created under them: they land on it") {
        addGround(world);
        for (int i = 0; i < 120; ++i) world.step(kDefaultTimeStep);
        CHECK(world.stats().touchingContacts == row.balls.size());
        for (const BodyId ball : row.balls) CHECK(world.position(ball).y > -0.03f);
    }
    SUBCASE("a ground destroyed: the search skips them again") {
        const ShapeId ground = addGround(world);
        world.step(kDefaultTimeStep);
        CHECK(world.stats().movedProxies > 0);
        world.destroyShape(ground);
        const float before = world.position(row.balls[0]).y;
        for (int i = 0; i < 30; ++i) {
            world.step(kDefaultTimeStep);
            CHECK(world.stats().movedProxies == 0);
        }
        // Fallen far beyond their fat boxes' margin: they moved.
        CHECK(world.position(row.balls[0]).y < before - 1.0f);
    }
    SUBCASE("a ball's filter opened to its own category: it meets its neighbours") {
        world.setFilter(row.shapes[3], {.categoryBits = 2u, .maskBits = 0xFFFFFFFFu});
        world.step(kDefaultTimeStep);
        // Its neighbours refuse category 2 from their side, so the masks still refuse the pairs;
        // opening both sides gives the two contacts.
        CHECK(world.stats().contacts == 0);
        world.setFilter(row.shapes[4], {.categoryBits = 1u, .maskBits = 0xFFFFFFFFu});
        world.step(kDefaultTimeStep);
        CHECK(world.stats().contacts == 2);
    }
    SUBCASE("a snapshot restored in another world: the ground is still seen") {
        addGround(world);
        World restored(WorldDef{.gravity = {0.0f, -10.0f}});
        restored.restore(world.snapshot());
        for (int i = 0; i < 120; ++i) restored.step(kDefaultTimeStep);
        CHECK(restored.stats().touchingContacts == row.balls.size());
    }
}

TEST_CASE("filter census: a filter set on a resting shape admits a ball that falls onto it") {
    World world(WorldDef{.gravity = {0.0f, -10.0f}});
    const BodyId post = world.createBody({.type = BodyType::Static});
    const ShapeId top =
        world.createCircle(post, {.filter = {.maskBits = 0u}}, Circle{{0.0f, 0.0f}, 1.0f});
    const BodyId ball = world.createBody({.type = BodyType::Dynamic, .position = {0.0f, 4.0f}});
    world.createCircle(ball, {.filter = {.categoryBits = 2u, .maskBits = 4u}},
                       Circle{{0.0f, 0.0f}, 0.5f});
    // Only the post's new filter admits the ball, and the post does not move again: the ball's
    // own search, once it reaches the post, must find the pair.
    world.setFilter(top, {.categoryBits = 4u, .maskBits = 2u});
    for (int i = 0; i < 120; ++i) world.step(kDefaultTimeStep);
    CHECK(world.position(ball).y == doctest::Approx(1.5f).epsilon(0.01));
}
