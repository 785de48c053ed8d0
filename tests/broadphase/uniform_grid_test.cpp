// The grid's lazy filing: queries after moves re-file once (no findPairs needed) and see the
// current boxes; the filing covers only the occupied cell range, so a crowd that moves from one
// end of the bounds to the other must leave no stale cells behind; const queries from two
// threads after a change agree.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "rigid2d/broad_phase.hpp"

using namespace rigid2d;

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

AABB unitBoxAt(float x, float y) { return {{x, y}, {x + 1.0f, y + 1.0f}}; }

} // namespace

TEST_CASE("grid: queries after moves re-file and never see stale cells") {
    BroadPhaseConfig config;
    config.worldBounds = {{0.0f, 0.0f}, {1000.0f, 1000.0f}};
    config.cellSize = 2.0f;
    std::unique_ptr<BroadPhase> grid = makeBroadPhase(BroadPhaseType::Grid, config);
    std::vector<ProxyId> proxies;
    // A 10 x 10 crowd near the top right corner.
    for (std::uint64_t i = 0; i < 100; ++i)
        proxies.push_back(grid->insert(unitBoxAt(900.0f + 3.0f * static_cast<float>(i % 10),
                                                 900.0f + 3.0f * static_cast<float>(i / 10)),
                                       i));
    const AABB topRight{{890.0f, 890.0f}, {940.0f, 940.0f}};
    const AABB bottomLeft{{0.0f, 0.0f}, {50.0f, 50.0f}};
    CHECK(queryIds(*grid, topRight).size() == 100);
    grid->validate();
    // Every proxy to the bottom left: the filed range moves from the top of the cell array to
    // its start.
    for (std::uint64_t i = 0; i < 100; ++i)
        grid->move(proxies[i],
                   unitBoxAt(3.0f * static_cast<float>(i % 10), 3.0f * static_cast<float>(i / 10)));
    CHECK(queryIds(*grid, topRight).empty());
    CHECK(queryIds(*grid, bottomLeft).size() == 100);
    grid->validate();
    // Half of them back: both ends are occupied, nothing in between.
    for (std::uint64_t i = 0; i < 50; ++i)
        grid->move(proxies[i], unitBoxAt(900.0f + 3.0f * static_cast<float>(i % 10),
                                         900.0f + 3.0f * static_cast<float>(i / 10)));
    CHECK(queryIds(*grid, topRight).size() == 50);
    CHECK(queryIds(*grid, bottomLeft).size() == 50);
    CHECK(queryIds(*grid, {{100.0f, 100.0f}, {800.0f, 800.0f}}).empty());
    grid->validate();
    std::vector<ProxyPair> pairs;
    grid->findPairs(pairs);
    CHECK(pairs.empty()); // 1 m boxes 3 m apart
    // A single proxy left: the range shrinks to its cells.
    for (std::uint64_t i = 1; i < 100; ++i) grid->remove(proxies[i]);
    CHECK(queryIds(*grid, {{0.0f, 0.0f}, {1000.0f, 1000.0f}}) == std::vector<std::uint64_t>{0});
    grid->validate();
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
