// The grid's lazy filing: the first query or ray cast after changes files the proxies once (no
// findPairs needed) and answers from the current boxes; a crowd that moves from one end of the
// bounds to the other leaves no stale cells behind; queries interleaved with inserts, moves and
// removals (ids reused, boxes leaving the bounds) agree with brute_force; const queries from
// two threads after a change agree; a dense pile refines the automatic cells and a spread-out
// world coarsens them again; a long walk of moves alone, refreshed in place, stays exact.
#include <cfloat>
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "broadphase/harness.hpp"
#include "broadphase/scenarios.hpp"
#include "rigid2d/broad_phase.hpp"

using namespace rigid2d;
using rigid2d::test::SplitMix64;

namespace {

std::vector<std::uint64_t> queryIds(const BroadPhase& bp, const AABB& region) {
    std::vector<std::uint64_t> ids;
    bp.query(region, [&](ProxyId proxy) {
        ids.push_back(bp.userData(proxy));
        return true;
    });
    std::sort(ids.begin(), ids.end());
    return ids;
}

std::vector<std::uint64_t> rayIds(const BroadPhase& bp, Vec2 origin, Vec2 translation) {
    std::vector<std::uint64_t> ids;
    bp.rayCast(origin, translation, 1.0f, [&](ProxyId proxy) {
        ids.push_back(bp.userData(proxy));
        return 1.0f; // keep the full ray: every proxy it touches
    });
    std::sort(ids.begin(), ids.end());
    return ids;
}

/// The pairs as sorted (lower, higher) user data, comparable across broad phases.
std::vector<std::pair<std::uint64_t, std::uint64_t>> pairData(const BroadPhase& bp,
                                                              const std::vector<ProxyPair>& pairs) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
    for (const ProxyPair& p : pairs) {
        const std::uint64_t a = bp.userData(p.a);
        const std::uint64_t b = bp.userData(p.b);
        out.emplace_back(std::min(a, b), std::max(a, b));
    }
    std::sort(out.begin(), out.end());
    return out;
}

AABB unitBoxAt(float x, float y) { return {{x, y}, {x + 1.0f, y + 1.0f}}; }

AABB crowdBox(std::uint64_t i, float x, float y) {
    return unitBoxAt(x + 3.0f * static_cast<float>(i % 10), y + 3.0f * static_cast<float>(i / 10));
}

BroadPhaseConfig fixedGrid() {
    BroadPhaseConfig config;
    config.worldBounds = {{0.0f, 0.0f}, {1000.0f, 1000.0f}};
    config.cellSize = 2.0f;
    return config;
}

/// Occupied cells of a fresh grid holding `boxes`, filed by findPairs.
std::size_t freshCells(const std::vector<AABB>& boxes) {
    std::unique_ptr<BroadPhase> grid = makeBroadPhase(BroadPhaseType::Grid, fixedGrid());
    for (std::size_t i = 0; i < boxes.size(); ++i) grid->insert(boxes[i], i);
    std::vector<ProxyPair> pairs;
    grid->findPairs(pairs);
    return grid->stats().cells;
}

} // namespace

TEST_CASE("grid: queries before update() skip stale cells, update() re-files") {
    std::unique_ptr<BroadPhase> grid = makeBroadPhase(BroadPhaseType::Grid, fixedGrid());
    std::vector<ProxyId> proxies;
    std::vector<AABB> boxes;
    // A 10 x 10 crowd near the top right corner.
    for (std::uint64_t i = 0; i < 100; ++i) {
        boxes.push_back(crowdBox(i, 900.0f, 900.0f));
        proxies.push_back(grid->insert(boxes.back(), i));
    }
    const AABB topRight{{890.0f, 890.0f}, {940.0f, 940.0f}};
    const AABB bottomLeft{{0.0f, 0.0f}, {50.0f, 50.0f}};
    // Not filed yet: a query finds them all the slow way and files nothing (it is const).
    CHECK(queryIds(*grid, topRight).size() == 100);
    CHECK(grid->stats().cells == 0);
    grid->validate();
    grid->update();
    CHECK(grid->stats().cells == freshCells(boxes));
    CHECK(queryIds(*grid, topRight).size() == 100);
    grid->validate();
    // Every proxy to the bottom left: the occupied cells move from the end of the cell array to
    // its start. Before the update the old cells still hold every proxy, and are skipped.
    const std::size_t cornerCells = grid->stats().cells;
    for (std::uint64_t i = 0; i < 100; ++i) {
        boxes[i] = crowdBox(i, 0.0f, 0.0f);
        grid->move(proxies[i], boxes[i]);
    }
    for (int updated = 0; updated < 2; ++updated) {
        CAPTURE(updated);
        CHECK(rayIds(*grid, {895.0f, 895.5f}, {50.0f, 0.0f}).empty());
        CHECK(rayIds(*grid, {-1.0f, 0.5f}, {50.0f, 0.0f}).size() == 10); // the bottom row
        CHECK(grid->stats().cells == (updated != 0 ? freshCells(boxes) : cornerCells));
        CHECK(queryIds(*grid, topRight).empty());
        CHECK(queryIds(*grid, bottomLeft).size() == 100);
        grid->validate();
        grid->update();
    }
    // Half of them back: both ends are occupied, nothing in between.
    for (std::uint64_t i = 0; i < 50; ++i) {
        boxes[i] = crowdBox(i, 900.0f, 900.0f);
        grid->move(proxies[i], boxes[i]);
    }
    for (int updated = 0; updated < 2; ++updated) {
        CAPTURE(updated);
        CHECK(queryIds(*grid, topRight).size() == 50);
        CHECK(queryIds(*grid, bottomLeft).size() == 50);
        CHECK(queryIds(*grid, {{100.0f, 100.0f}, {800.0f, 800.0f}}).empty());
        grid->validate();
        grid->update();
    }
    CHECK(grid->stats().cells == freshCells(boxes));
    std::vector<ProxyPair> pairs;
    grid->findPairs(pairs);
    CHECK(pairs.empty()); // 1 m boxes 3 m apart
    grid->validate();
    // A single proxy left: queries see it at once; update() shrinks the filing to its cells.
    for (std::uint64_t i = 1; i < 100; ++i) grid->remove(proxies[i]);
    CHECK(queryIds(*grid, {{0.0f, 0.0f}, {1000.0f, 1000.0f}}) == std::vector<std::uint64_t>{0});
    grid->validate();
    grid->update();
    CHECK(queryIds(*grid, {{0.0f, 0.0f}, {1000.0f, 1000.0f}}) == std::vector<std::uint64_t>{0});
    CHECK(grid->stats().cells == freshCells({boxes[0]}));
    grid->validate();
}

TEST_CASE("grid: queries between changes, without findPairs, agree with brute_force") {
    BroadPhaseConfig config;
    config.worldBounds = {{0.0f, 0.0f}, {100.0f, 100.0f}};
    std::unique_ptr<BroadPhase> grid = makeBroadPhase(BroadPhaseType::Grid, config);
    std::unique_ptr<BroadPhase> brute = makeBroadPhase(BroadPhaseType::BruteForce, config);
    SplitMix64 rng(7);
    // Boxes from just below the bounds to just above them: some overflow, some cross the edge.
    auto randomBox = [&] {
        const float x = rng.uniform(-10.0f, 105.0f);
        const float y = rng.uniform(-10.0f, 105.0f);
        const float w =
            rng.uniform(0.0f, 1.0f) < 0.05f ? rng.uniform(5.0f, 30.0f) : rng.uniform(0.1f, 2.0f);
        return AABB{{x, y}, {x + w, y + rng.uniform(0.1f, 2.0f)}};
    };
    std::vector<std::pair<ProxyId, ProxyId>> live; // (grid, brute)
    std::uint64_t nextData = 0;
    for (int round = 0; round < 60; ++round) {
        const int changes = 1 + static_cast<int>(rng.uniform(0.0f, 80.0f));
        for (int c = 0; c < changes; ++c) {
            const float op = rng.uniform(0.0f, 1.0f);
            if (live.empty() || op < 0.3f) {
                const AABB box = randomBox();
                live.emplace_back(grid->insert(box, nextData), brute->insert(box, nextData));
                ++nextData;
            } else if (op < 0.85f) {
                const auto& [g, b] = live[rng.below(static_cast<std::uint32_t>(live.size()))];
                const AABB box = randomBox();
                grid->move(g, box);
                brute->move(b, box);
            } else {
                const std::size_t k = rng.below(static_cast<std::uint32_t>(live.size()));
                grid->remove(live[k].first);
                brute->remove(live[k].second);
                live[k] = live.back();
                live.pop_back();
            }
        }
        for (int q = 0; q < 4; ++q) {
            const AABB region = randomBox();
            CHECK(queryIds(*grid, region) == queryIds(*brute, region));
            const Vec2 origin{rng.uniform(-10.0f, 110.0f), rng.uniform(-10.0f, 110.0f)};
            const Vec2 translation{rng.uniform(-60.0f, 60.0f), rng.uniform(-60.0f, 60.0f)};
            CHECK(rayIds(*grid, origin, translation) == rayIds(*brute, origin, translation));
        }
        grid->validate();
        if (round % 10 == 9) {
            std::vector<ProxyPair> gridPairs, brutePairs;
            grid->findPairs(gridPairs);
            brute->findPairs(brutePairs);
            CHECK(pairData(*grid, gridPairs) == pairData(*brute, brutePairs));
            grid->validate();
        }
    }
}

TEST_CASE("grid: concurrent const queries after a move agree") {
    std::unique_ptr<BroadPhase> grid = makeBroadPhase(BroadPhaseType::Grid);
    std::vector<ProxyId> proxies;
    for (std::uint64_t i = 0; i < 400; ++i)
        proxies.push_back(grid->insert(
            unitBoxAt(2.0f * static_cast<float>(i % 20), 2.0f * static_cast<float>(i / 20)), i));
    for (std::uint64_t i = 0; i < 400; i += 2)
        grid->move(proxies[i], unitBoxAt(100.0f + 2.0f * static_cast<float>(i % 20),
                                         2.0f * static_cast<float>(i / 20)));
    const AABB region{{0.0f, 0.0f}, {40.0f, 40.0f}};
    std::vector<std::uint64_t> a, b;
    std::thread first([&] { a = queryIds(*grid, region); });
    std::thread second([&] { b = queryIds(*grid, region); });
    first.join();
    second.join();
    CHECK(a.size() == 200);
    CHECK(a == b);
    grid->validate();
}

TEST_CASE("grid: bounds as wide as a float with one cell allowed lay out without overflow") {
    // The layout coarsens its cells until they fit maxGridCells; over bounds FLT_MAX wide and a
    // metre high that used to step the cell size past the float range (a trap under the float
    // traps of the tests, an infinite cell otherwise).
    BroadPhaseConfig config;
    config.worldBounds = {{-0.5f * FLT_MAX, 0.0f}, {0.5f * FLT_MAX, 1.0f}};
    config.maxGridCells = 1;
    std::unique_ptr<BroadPhase> grid = makeBroadPhase(BroadPhaseType::Grid, config);
    const ProxyId a = grid->insert({{0.0f, 0.0f}, {1.0f, 1.0f}}, 0);
    grid->insert({{0.5f, 0.5f}, {2.0f, 1.0f}}, 1);
    grid->insert({{1e30f, 0.0f}, {1.1e30f, 1.0f}}, 2);
    grid->update();
    std::vector<ProxyPair> pairs;
    grid->findPairs(pairs);
    REQUIRE(pairs.size() == 1);
    CHECK(pairs[0].a == a);
    CHECK(grid->stats().cells >= 1);
    grid->validate();
}

TEST_CASE("grid: a dense pile refines the automatic cells, a spread-out world coarsens them") {
    // 900 equal boxes of half extent 0.5: packed 0.25 apart they crowd the cells of four median
    // extents; 10 apart they leave them nearly empty. Either way the pairs are brute_force's.
    BroadPhaseConfig config;
    config.worldBounds = {{-100.0f, -100.0f}, {400.0f, 400.0f}};
    std::unique_ptr<BroadPhase> grid = makeBroadPhase(BroadPhaseType::Grid, config);
    std::unique_ptr<BroadPhase> brute = makeBroadPhase(BroadPhaseType::BruteForce, config);
    const auto boxAt = [](std::uint64_t i, float spacing) {
        return unitBoxAt(spacing * static_cast<float>(i % 30),
                         spacing * static_cast<float>(i / 30));
    };
    std::vector<std::pair<ProxyId, ProxyId>> ids;
    for (std::uint64_t i = 0; i < 900; ++i)
        ids.emplace_back(grid->insert(boxAt(i, 0.25f), i), brute->insert(boxAt(i, 0.25f), i));
    // Every box moved (to `spacing`), then one filing: the cell edge it used.
    const auto fileAt = [&](float spacing) {
        for (std::uint64_t i = 0; i < ids.size(); ++i) {
            grid->move(ids[i].first, boxAt(i, spacing));
            brute->move(ids[i].second, boxAt(i, spacing));
        }
        std::vector<ProxyPair> gridPairs, brutePairs;
        grid->findPairs(gridPairs);
        brute->findPairs(brutePairs);
        CHECK(pairData(*grid, gridPairs) == pairData(*brute, brutePairs));
        return grid->stats().cellSize;
    };
    const float coarse = fileAt(0.25f); // from the sizes alone, at first
    CHECK(coarse > 3.0f);
    CHECK(fileAt(0.25f) == doctest::Approx(coarse / 2)); // that filing found the cells crowded
    CHECK(fileAt(0.25f) == doctest::Approx(coarse / 2)); // and they stay fine while they are
    CHECK(fileAt(10.0f) == doctest::Approx(coarse / 2));
    CHECK(fileAt(10.0f) == doctest::Approx(coarse)); // spread out: the coarse cells again
    CHECK(fileAt(10.0f) == doctest::Approx(coarse));
}

TEST_CASE("grid: a long random walk of moves alone stays exact through refreshes and filings") {
    // Batches of moves without insertions or removals are refreshed in place: boxes cross cell
    // borders every frame, crowd into cells past their free slots, leave the bounds and come
    // back, for more frames than a run of refreshes lasts. Every frame equals brute_force.
    BroadPhaseConfig config;
    config.worldBounds = {{0.0f, 0.0f}, {60.0f, 60.0f}};
    rigid2d::test::Harness h(makeBroadPhase(BroadPhaseType::Grid, config), 7);
    SplitMix64& rng = h.rng();
    struct Walker {
        Vec2 center, half, velocity;
    };
    std::vector<Walker> walkers;
    for (int i = 0; i < 1200; ++i) {
        const Walker w{{rng.uniform(-5.0f, 65.0f), rng.uniform(-5.0f, 65.0f)},
                       {rng.uniform(0.25f, 1.0f), rng.uniform(0.25f, 1.0f)},
                       {rng.uniform(-0.6f, 0.6f), rng.uniform(-0.6f, 0.6f)}};
        walkers.push_back(w);
        h.insert({w.center - w.half, w.center + w.half});
    }
    REQUIRE(h.matches());
    std::size_t mostOutliers = 0;
    for (int frame = 0; frame < 40; ++frame) {
        std::vector<ProxyId> ids;
        std::vector<AABB> boxes;
        for (std::size_t i = 0; i < walkers.size(); ++i) {
            Walker& w = walkers[i];
            // At frame 20 half of them turn toward one point, which they all cross at frame 30:
            // a crowd in few cells.
            if (frame == 20 && i % 2 == 0) w.velocity = (Vec2{10.0f, 10.0f} - w.center) / 10.0f;
            w.center += w.velocity;
            if (w.center.x < -5.0f || w.center.x > 65.0f) w.velocity.x = -w.velocity.x;
            if (w.center.y < -5.0f || w.center.y > 65.0f) w.velocity.y = -w.velocity.y;
            ids.push_back(h.live()[i]);
            boxes.push_back({w.center - w.half, w.center + w.half});
        }
        h.moveMany(ids, boxes);
        INFO("frame " << frame);
        REQUIRE(h.matches());
        mostOutliers = std::max(mostOutliers, h.subject().stats().outliers);
    }
    CHECK(mostOutliers > 0); // some left the bounds, or found no free slot
}
