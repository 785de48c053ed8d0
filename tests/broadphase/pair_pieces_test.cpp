// A built-in broad phase lent a world's workers may cut its full search into pieces run at once:
// the pairs (sorted) and the count of box tests must be those of the search on one thread, and
// the pairs those of brute_force, with the default pool and with a scheduler that cuts pieces
// and runs them in a random order. Enough proxies to be cut (over BuiltInBroadPhase's 4096),
// of mixed sizes: several hash levels, proxies searching coarser levels, outliers, and grid
// proxies over many cells. The same
// for the query per moved proxy, on every kind.
#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "broadphase/built_in_broad_phase.hpp"
#include "core/shuffled_scheduler.hpp"
#include "rigid2d/broad_phase.hpp"
#include "rigid2d/thread_pool.hpp"

using namespace rigid2d;

namespace {

std::vector<AABB> mixedBoxes(std::uint32_t seed) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> position(-200.0f, 200.0f);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    std::vector<AABB> boxes;
    for (int i = 0; i < 6000; ++i) {
        // Mostly pebbles, some crates, a few planks across many cells.
        const float r = unit(random);
        const float half = r < 0.9f ? 0.3f + unit(random) : r < 0.995f ? 4.0f : 60.0f;
        const Vec2 c{position(random), position(random)};
        boxes.push_back({{c.x - half, c.y - half * (0.5f + unit(random))},
                         {c.x + half, c.y + half * (0.5f + unit(random))}});
    }
    return boxes;
}

struct Search {
    std::vector<ProxyPair> pairs;
    std::size_t tests = 0;
};

Search search(BroadPhaseType type, const std::vector<AABB>& boxes, const WorldDef* workers) {
    // Bounds far wider than the boxes: auto then opens on a kind of the hash family (a grid of
    // them would need coarse cells; broadphase/first_kind.hpp). The grid keeps the default
    // bounds, which hold its boxes in many cells.
    BroadPhaseConfig config;
    if (type != BroadPhaseType::Grid) config.worldBounds = {{-1e6f, -1e6f}, {1e6f, 1e6f}};
    std::unique_ptr<BroadPhase> bp = makeBroadPhase(type, config);
    if (workers != nullptr) static_cast<detail::BuiltInBroadPhase&>(*bp).setWorkers(workers);
    std::vector<ProxyId> ids;
    for (std::size_t i = 0; i < boxes.size(); ++i) ids.push_back(bp->insert(boxes[i], i));
    // A second search after moves: the pieces' storage is reused.
    Search result;
    bp->findPairs(result.pairs);
    for (std::size_t i = 0; i < boxes.size(); i += 7) {
        AABB moved = boxes[i];
        moved.lower.x += 1.5f;
        moved.upper.x += 1.5f;
        bp->move(ids[i], moved);
    }
    bp->update();
    bp->findPairs(result.pairs);
    result.tests = bp->stats().overlapTests;
    bp->validate();
    return result;
}

} // namespace

TEST_CASE("threads: a full search in pieces finds what one thread finds") {
    const std::vector<AABB> boxes = mixedBoxes(7);
    const Search reference = search(BroadPhaseType::BruteForce, boxes, nullptr);
    REQUIRE(reference.pairs.size() > 6000);
    for (const BroadPhaseType type : {BroadPhaseType::SpatialHash, BroadPhaseType::HierarchicalHash,
                                      BroadPhaseType::Grid, BroadPhaseType::Auto}) {
        CAPTURE(toString(type));
        // auto picks its kind by measured time: its count of tests may come from another kind.
        const bool sameKind = type != BroadPhaseType::Auto;
        const Search serial = search(type, boxes, nullptr);
        CHECK(serial.pairs == reference.pairs);
        ThreadPool pool(3);
        WorldDef pooled;
        pool.attach(pooled);
        const Search pieces = search(type, boxes, &pooled);
        CHECK(pieces.pairs == serial.pairs);
        CHECK((!sameKind || pieces.tests == serial.tests));
        for (const std::uint32_t seed : {1u, 2u}) {
            CAPTURE(seed);
            testing::ShuffledScheduler scheduler(4, seed);
            WorldDef shuffled;
            scheduler.attach(shuffled);
            const Search random = search(type, boxes, &shuffled);
            CHECK(random.pairs == serial.pairs);
            CHECK((!sameKind || random.tests == serial.tests));
            CHECK(scheduler.tasks() > 0);
            CHECK(scheduler.unfinished() == 0);
        }
    }
}

TEST_CASE("threads: the pairs of many moved proxies, queried in pieces, are those of one thread") {
    // 1200 of 6000 moved: enough to be cut, too few for a full search in most kinds. 300 moved:
    // cut into fewer pieces than the workers ask for, each still worth a hand-over.
    const std::vector<AABB> boxes = mixedBoxes(11);
    for (const std::size_t stride : {std::size_t{5}, std::size_t{20}}) {
        CAPTURE(stride);
        const auto pairsOf = [&](BroadPhaseType type, const WorldDef* workers) {
            std::unique_ptr<BroadPhase> bp = makeBroadPhase(type);
            if (workers != nullptr)
                static_cast<detail::BuiltInBroadPhase&>(*bp).setWorkers(workers);
            std::vector<ProxyId> ids;
            for (std::size_t i = 0; i < boxes.size(); ++i) ids.push_back(bp->insert(boxes[i], i));
            std::vector<ProxyId> moved;
            for (std::size_t i = 0; i < boxes.size(); i += stride) moved.push_back(ids[i]);
            bp->update();
            std::vector<ProxyPair> pairs;
            bp->findPairsOf(moved, pairs);
            return pairs;
        };
        const std::vector<ProxyPair> reference = pairsOf(BroadPhaseType::BruteForce, nullptr);
        REQUIRE(reference.size() > 5000 / stride);
        for (const BroadPhaseType type : kAllBroadPhaseTypes) {
            CAPTURE(toString(type));
            ThreadPool pool(2);
            WorldDef pooled;
            pool.attach(pooled);
            CHECK(pairsOf(type, &pooled) == reference);
            testing::ShuffledScheduler scheduler(3, 5);
            WorldDef shuffled;
            scheduler.attach(shuffled);
            CHECK(pairsOf(type, &shuffled) == reference);
            CHECK(scheduler.unfinished() == 0);
        }
        // The hash queries in pieces here (a full search pays from 1501 moved).
        testing::ShuffledScheduler scheduler(3, 6);
        WorldDef shuffled;
        scheduler.attach(shuffled);
        CHECK(pairsOf(BroadPhaseType::SpatialHash, &shuffled) == reference);
        CHECK(scheduler.tasks() > 0);
    }
}
