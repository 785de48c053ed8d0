// The step through a scheduler: the same bits for any number of workers, on every broad phase,
// with the default pool and with a scheduler that cuts and orders pieces at random; bad scheduler
// settings refused; a restore keeps the world's scheduler.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/shuffled_scheduler.hpp"
#include "rigid2d/testing.hpp"
#include "rigid2d/thread_pool.hpp"
#include "world/digest_scenes.hpp"

using namespace rigid2d;
using namespace rigid2d::testing;

TEST_CASE("threads: the same bits for 1, 2, 3, 4 and 8 workers on every broad phase") {
    for (const BroadPhaseType type : kAllBroadPhaseTypes) {
        CAPTURE(toString(type));
        WorldDef def;
        def.broadPhase = type;
        const std::uint64_t serial = runDigest(def, 90);
        for (const std::int32_t workers : {1, 2, 3, 4, 8}) {
            CAPTURE(workers);
            ThreadPool pool(workers);
            WorldDef pooled = def;
            pool.attach(pooled);
            CHECK(runDigest(pooled, 90) == serial);
        }
    }
}

TEST_CASE("threads: the same bits when pieces are cut and run in a random order") {
    for (const BroadPhaseType type : {BroadPhaseType::BruteForce, BroadPhaseType::SpatialHash,
                                      BroadPhaseType::Tree, BroadPhaseType::Grid}) {
        CAPTURE(toString(type));
        WorldDef def;
        def.broadPhase = type;
        const std::uint64_t serial = runDigest(def, 90);
        for (const std::uint32_t seed : {1u, 2u, 3u}) {
            CAPTURE(seed);
            ShuffledScheduler scheduler(static_cast<std::int32_t>(2 + seed), seed);
            WorldDef shuffled = def;
            scheduler.attach(shuffled);
            CHECK(runDigest(shuffled, 90) == serial);
            CHECK(scheduler.tasks() > 0); // the scene is large enough to be cut
            CHECK(scheduler.unfinished() == 0);
        }
    }
}

TEST_CASE("threads: the same bits when a thousand fast bodies are swept in pieces") {
    // Enough awake bodies that continuous collision is cut into pieces too; bullets and bodies at
    // the speed clamp fired at thin walls, so the sweeps find times of impact.
    auto run = [](WorldDef def) {
        World world(def);
        const BodyId walls = world.createBody({});
        for (int w = 0; w < 4; ++w)
            world.createBox(walls, {},
                            {.center = {10.0f + 12.0f * static_cast<float>(w), 20.0f},
                             .halfExtents = {0.05f, 25.0f}});
        for (int i = 0; i < 1200; ++i) {
            BodyDef body;
            body.type = BodyType::Dynamic;
            body.bullet = i % 2 == 0;
            body.gravityScale = 0.0f;
            body.position = {-20.0f + static_cast<float>(i / 40) * 0.6f,
                             static_cast<float>(i % 40) * 1.1f};
            body.linearVelocity = {150.0f + static_cast<float>(i % 13) * 20.0f,
                                   static_cast<float>(i % 7) - 3.0f};
            const BodyId id = world.createBody(body);
            if (i % 3 == 0)
                world.createBox(id, {}, {.halfExtents = {0.12f, 0.08f}});
            else
                world.createCircle(id, {}, {.radius = 0.1f});
        }
        for (int step = 0; step < 30; ++step) world.step(kDefaultTimeStep);
        REQUIRE(allFinite(world));
        return stateHash(world);
    };
    WorldDef def;
    def.broadPhase = BroadPhaseType::Grid;
    const std::uint64_t serial = run(def);
    for (const std::int32_t workers : {2, 4}) {
        CAPTURE(workers);
        ThreadPool pool(workers);
        WorldDef pooled = def;
        pool.attach(pooled);
        CHECK(run(pooled) == serial);
    }
    ShuffledScheduler scheduler(3, 7u);
    WorldDef shuffled = def;
    scheduler.attach(shuffled);
    CHECK(run(shuffled) == serial);
}

TEST_CASE("threads: joints, kinematic bodies, overflow and restitution in pieces, the same bits") {
    WorldDef def;
    const std::uint64_t serial = runJointDigest(def, 120);
    for (const std::int32_t workers : {1, 2, 3, 4, 8}) {
        CAPTURE(workers);
        ThreadPool pool(workers);
        WorldDef pooled = def;
        pool.attach(pooled);
        CHECK(runJointDigest(pooled, 120) == serial);
    }
    for (const std::uint32_t seed : {1u, 2u}) {
        CAPTURE(seed);
        ShuffledScheduler scheduler(static_cast<std::int32_t>(2 + seed), seed);
        WorldDef shuffled = def;
        scheduler.attach(shuffled);
        CHECK(runJointDigest(shuffled, 120) == serial);
        CHECK(scheduler.unfinished() == 0);
    }
}

TEST_CASE("threads: groups of jointed islands, one after another or in pieces, the same bits") {
    WorldDef def;
    std::size_t groups = 0;
    const std::uint64_t serial = runGroupedDigest(def, 60, &groups);
    CHECK(groups > 1); // the solver did split the world
    for (const std::int32_t workers : {2, 3}) {
        CAPTURE(workers);
        ThreadPool pool(workers);
        WorldDef pooled = def;
        pool.attach(pooled);
        CHECK(runGroupedDigest(pooled, 60, &groups) == serial);
    }
    ShuffledScheduler scheduler(3, 7);
    WorldDef shuffled = def;
    scheduler.attach(shuffled);
    CHECK(runGroupedDigest(shuffled, 60, &groups) == serial);
    CHECK(scheduler.unfinished() == 0);
}

TEST_CASE("threads: bad scheduler settings are refused, naming the field") {
    auto refusal = [](const WorldDef& def) -> std::string {
        try {
            World world(def);
        } catch (const Error& e) {
            return e.what();
        }
        return "accepted";
    };
    ThreadPool pool(2);
    WorldDef good;
    pool.attach(good);
    for (const std::int32_t count : {0, -1, -100, kMaxWorkers + 1}) {
        CAPTURE(count);
        WorldDef def = good;
        def.workerCount = count;
        const std::string message = refusal(def);
        CHECK(message.find("World::World") != std::string::npos);
        CHECK(message.find("def.workerCount") != std::string::npos);
    }
    WorldDef noFinish = good;
    noFinish.finishTask = nullptr;
    CHECK(refusal(noFinish).find("def.finishTask") != std::string::npos);
    WorldDef noEnqueue = good;
    noEnqueue.enqueueTask = nullptr;
    CHECK(refusal(noEnqueue).find("def.enqueueTask") != std::string::npos);
    // Neither callback: a worker count is accepted and the step runs on the calling thread.
    WorldDef serial;
    serial.workerCount = kMaxWorkers;
    CHECK(refusal(serial) == "accepted");
    CHECK(refusal(good) == "accepted");
}

TEST_CASE("threads: a restore keeps the world's scheduler and steps on to the same bits") {
    WorldDef serialDef;
    World serial(serialDef);
    buildScene(serial);
    stepFor(serial, 0.5f);
    const std::vector<std::uint8_t> bytes = serial.snapshot();

    ThreadPool pool(3);
    WorldDef pooledDef;
    pool.attach(pooledDef);
    World pooled(pooledDef);
    pooled.restore(bytes);
    CHECK(pooled.def().workerCount == 3);
    CHECK((pooled.def().enqueueTask == pooledDef.enqueueTask));
    CHECK(pooled.def().userTaskContext == pooledDef.userTaskContext);
    stepFor(serial, 0.5f);
    stepFor(pooled, 0.5f);
    CHECK(stateHash(pooled) == stateHash(serial));
}
