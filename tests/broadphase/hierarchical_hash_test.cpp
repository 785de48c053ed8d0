// The hash family's filing: the spatial hash (one level) keeps a box spanning more than 64 cells
// as an outlier and files it in cells again once it shrinks; the hierarchical hash files a
// 1000 m ground on a coarse level beside 0.5 m pebbles on the finest, and moves a proxy between
// levels as its size changes. Pairs, outlier and level counts after every change; the pair
// search itself is checked against brute_force by conformance_test.cpp.
#include <doctest/doctest.h>

#include <memory>
#include <vector>

#include "rigid2d/broad_phase.hpp"

using namespace rigid2d;

namespace {

std::vector<ProxyPair> pairsOf(BroadPhase& bp) {
    std::vector<ProxyPair> pairs;
    bp.findPairs(pairs);
    bp.validate();
    return pairs;
}

} // namespace

TEST_CASE("spatial_hash: a box over more than 64 cells is an outlier until it shrinks") {
    BroadPhaseConfig config;
    config.cellSize = 1.0f;
    const std::unique_ptr<BroadPhase> hash = makeBroadPhase(BroadPhaseType::SpatialHash, config);
    const ProxyId pebble = hash->insert({{0.25f, 0.25f}, {0.75f, 0.75f}}, 1);
    const ProxyId wide = hash->insert({{-10.0f, -10.0f}, {10.0f, 10.0f}}, 2); // 21 x 21 cells
    const std::vector<ProxyPair> expected{{pebble, wide}};
    CHECK(pairsOf(*hash) == expected);
    CHECK(hash->stats().outliers == 1);
    CHECK(hash->stats().cells == 1);

    hash->move(wide, {{0.5f, 0.5f}, {7.5f, 7.5f}}); // 8 x 8 cells: back in cells
    CHECK(pairsOf(*hash) == expected);
    CHECK(hash->stats().outliers == 0);
    CHECK(hash->stats().cells == 64);

    hash->move(wide, {{0.5f, 0.5f}, {8.5f, 7.5f}}); // 9 x 8 cells
    CHECK(pairsOf(*hash) == expected);
    CHECK(hash->stats().outliers == 1);
    CHECK(hash->stats().cells == 1);
    CHECK(hash->stats().levels == 1);

    hash->remove(wide);
    CHECK(pairsOf(*hash).empty());
    CHECK(hash->stats().outliers == 0);
}

TEST_CASE("hierarchical_hash: a ground and pebbles on their own levels, moved between them") {
    BroadPhaseConfig config;
    config.finestCellSize = 1.0f;
    const std::unique_ptr<BroadPhase> hash =
        makeBroadPhase(BroadPhaseType::HierarchicalHash, config);
    const ProxyId ground = hash->insert({{-500.0f, -1.0f}, {500.0f, 0.0f}}, 0); // 1024 m cells
    std::vector<ProxyId> pebbles;
    for (int i = 0; i < 4; ++i) {
        const float x = 10.0f * static_cast<float>(i);
        pebbles.push_back(hash->insert({{x, -0.25f}, {x + 0.5f, 0.25f}}, 1));
    }
    std::vector<ProxyPair> expected;
    for (ProxyId pebble : pebbles) expected.push_back({ground, pebble});
    CHECK(pairsOf(*hash) == expected);
    CHECK(hash->stats().levels == 2);
    CHECK(hash->stats().outliers == 0);
    CHECK(hash->stats().cells == 4 + 4 * 2); // ground 2 x 2, pebbles across y = 0

    hash->move(ground, {{-0.5f, -1.0f}, {0.5f, 0.0f}}); // now as small as a pebble
    CHECK(pairsOf(*hash) == std::vector<ProxyPair>{{ground, pebbles[0]}});
    CHECK(hash->stats().levels == 1);

    hash->move(ground, {{-500.0f, -1.0f}, {500.0f, 0.0f}});
    CHECK(pairsOf(*hash) == expected);
    CHECK(hash->stats().levels == 2);
}
