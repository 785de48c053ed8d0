#include <doctest/doctest.h>

#include <vector>

#include "rigid2d/broad_phase.hpp"
#include "rigid2d/error.hpp"

using namespace rigid2d;

TEST_CASE("brute_force reports touching boxes once, in canonical order") {
    auto bp = makeBroadPhase(BroadPhaseType::BruteForce);
    const ProxyId a = bp->insert({{0, 0}, {1, 1}}, 10);
    const ProxyId b = bp->insert({{1, 0}, {2, 1}}, 11); // shares an edge with a
    const ProxyId c = bp->insert({{5, 5}, {6, 6}}, 12);
    std::vector<ProxyPair> pairs;
    bp->findPairs(pairs);
    REQUIRE(pairs.size() == 1);
    CHECK(pairs[0] == ProxyPair{a, b});
    bp->remove(a);
    CHECK(bp->insert({{5.5f, 5.5f}, {7, 7}}, 13) == a); // LIFO id reuse
    bp->findPairs(pairs);
    REQUIRE(pairs.size() == 1);
    CHECK(pairs[0] == ProxyPair{a, c});
    CHECK_THROWS_AS(bp->move(ProxyId{99}, {{0, 0}, {1, 1}}), Error);
    bp->validate();
}
