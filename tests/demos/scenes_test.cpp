// Every registered demo scene runs headless for a short while without blowing up.
#include <doctest/doctest.h>

#include <cmath>
#include <set>
#include <string>

#include "rigid2d/world.hpp"
#include "scene.hpp"

namespace rigid2d::demos {
namespace {

constexpr int kSteps = 45;

/// The reference broad phase, so these tests do not depend on which others are ready.
World makeWorld() {
    WorldDef def;
    def.broadPhase = BroadPhaseType::BruteForce;
    return World(def);
}

bool finite(Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); }

} // namespace

TEST_CASE("demo scenes: names are unique and findScene finds each") {
    std::set<std::string> names;
    for (const SceneInfo& info : sceneList()) {
        CHECK(names.insert(std::string(info.name)).second);
        CHECK(findScene(info.name) == &info);
        CHECK(!info.description.empty());
        CHECK(info.defaultSize >= info.testSize);
        CHECK(info.testSize > 0);
        REQUIRE(static_cast<bool>(info.create));
    }
    for (const char* required :
         {"rain", "pyramid", "stack", "cradle", "bullets", "mixed", "sparse", "churn", "culling",
          "melee", "sensors", "bridge", "hanging_chain", "ragdolls", "car", "spinner", "gather"})
        CHECK_MESSAGE(findScene(required) != nullptr, required);
    CHECK(findScene("no-such-scene") == nullptr);
}

TEST_CASE("demo scenes: each runs without NaN or escaped bodies") {
    for (const SceneInfo& info : sceneList()) {
        CAPTURE(info.name);
        World world = makeWorld();
        auto scene = info.create();
        scene->build(world, info.testSize);
        REQUIRE(world.bodyCount() > 0);
        const AABB bounds = scene->bounds();
        REQUIRE(isValid(bounds));
        for (int step = 0; step < kSteps; ++step) {
            scene->update(world, static_cast<float>(step) * kSceneTimeStep);
            world.step(kSceneTimeStep);
        }
        std::size_t nonFinite = 0;
        std::size_t escaped = 0;
        world.forEachBody([&](BodyId body) {
            const Vec2 p = world.position(body);
            if (!finite(p) || !finite(world.linearVelocity(body)) ||
                !std::isfinite(world.angle(body))) {
                ++nonFinite;
                return;
            }
            if (world.bodyType(body) == BodyType::Dynamic && !overlaps(bounds, AABB{p, p}))
                ++escaped;
        });
        CHECK(nonFinite == 0);
        CHECK(escaped == 0);
    }
}

TEST_CASE("demo scenes: the same scene built twice steps to the same state") {
    // Scenes use their own seeded random source, so a rebuilt scene is the same scene.
    const SceneInfo& info = *findScene("mixed");
    auto run = [&] {
        World world = makeWorld();
        auto scene = info.create();
        scene->build(world, info.testSize);
        for (int step = 0; step < 20; ++step) {
            scene->update(world, static_cast<float>(step) * kSceneTimeStep);
            world.step(kSceneTimeStep);
        }
        std::vector<Vec2> positions;
        world.forEachBody([&](BodyId body) { positions.push_back(world.position(body)); });
        return positions;
    };
    CHECK(run() == run());
}

TEST_CASE("demo scenes: gather throws every body into its pit") {
    // Each body is thrown to pass over the pit (|x| < 35 m, 5 m above its 50 m walls) 3 to 5 s
    // after the start, still falling (the fast ones hit the far wall and drop in); at 7 s all
    // have landed, and nearly all lie in the pit (thrown at half the speed across, 110 of 300).
    const SceneInfo* info = findScene("gather");
    REQUIRE(info != nullptr);
    World world = makeWorld();
    auto scene = info->create();
    scene->build(world, 300);
    for (int step = 0; step < 420; ++step) {
        scene->update(world, static_cast<float>(step) * kSceneTimeStep);
        world.step(kSceneTimeStep);
    }
    std::size_t bodies = 0;
    std::size_t inPit = 0;
    world.forEachBody([&](BodyId body) {
        if (world.bodyType(body) != BodyType::Dynamic) return;
        ++bodies;
        const Vec2 p = world.position(body);
        if (std::abs(p.x) < 40.0f && p.y > 0.0f && p.y < 50.0f) ++inPit;
    });
    CHECK(bodies == 300);
    CHECK(inPit >= 285);
}

} // namespace rigid2d::demos
