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
          "melee", "sensors", "bridge", "hanging_chain", "ragdolls", "car", "spinner"})
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

} // namespace rigid2d::demos
