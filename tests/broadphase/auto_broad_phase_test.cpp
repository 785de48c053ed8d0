// The automatic broad phase: whatever kind it runs and however often it changes, it finds the
// pairs brute_force finds, under the same ids.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "broadphase/auto_broad_phase.hpp"
#include "broadphase/brute_force.hpp"
#include "broadphase/scenarios.hpp"

using namespace rigid2d;
using detail::AutoBroadPhase;

namespace {

using test::SplitMix64;

AABB randomBox(SplitMix64& rng, float extent) {
    return test::randomBox(rng, {{0, 0}, {extent, extent}}, 0.1f, 1.5f);
}

/// Inserts `count` random boxes into both, checking they hand out the same ids.
std::vector<ProxyId> insertBoth(AutoBroadPhase& subject, detail::BruteForce& reference,
                                SplitMix64& rng, int count, float extent) {
    std::vector<ProxyId> ids;
    for (int i = 0; i < count; ++i) {
        const AABB box = randomBox(rng, extent);
        ids.push_back(subject.insert(box, 0));
        REQUIRE(ids.back() == reference.insert(box, 0));
    }
    return ids;
}

void moveBoth(AutoBroadPhase& subject, detail::BruteForce& reference, ProxyId id, AABB box) {
    subject.move(id, box);
    reference.move(id, box);
}

void checkQuerySame(AutoBroadPhase& subject, detail::BruteForce& reference, AABB region) {
    std::vector<ProxyId> got, expected;
    subject.query(region, [&](ProxyId id) { return got.push_back(id), true; });
    reference.query(region, [&](ProxyId id) { return expected.push_back(id), true; });
    std::sort(got.begin(), got.end());
    std::sort(expected.begin(), expected.end());
    REQUIRE(got == expected);
}

void checkSame(AutoBroadPhase& subject, detail::BruteForce& reference) {
    std::vector<ProxyPair> got, expected;
    subject.findPairs(got);
    reference.findPairs(expected);
    REQUIRE(got == expected);
    subject.validate();
}

} // namespace

TEST_CASE("auto: switching kinds mid-run keeps every id and finds the brute-force pairs") {
    AutoBroadPhase subject({});
    detail::BruteForce reference;
    SplitMix64 rng(7);
    std::vector<ProxyId> ids = insertBoth(subject, reference, rng, 300, 40);
    const BroadPhaseType kinds[] = {BroadPhaseType::Tree,       BroadPhaseType::SortedGrid,
                                    BroadPhaseType::Quadtree,   BroadPhaseType::SweepAndPrune,
                                    BroadPhaseType::Grid,       BroadPhaseType::HierarchicalHash,
                                    BroadPhaseType::SpatialHash};
    std::size_t switches = 0;
    for (const BroadPhaseType kind : kinds) {
        // Holes in the ids before the switch: the new kind must still answer with our ids.
        for (int k = 0; k < 20; ++k) {
            const std::size_t at = rng.below(static_cast<std::uint32_t>(ids.size()));
            subject.remove(ids[at]);
            reference.remove(ids[at]);
            const AABB box = randomBox(rng, 40);
            ids[at] = subject.insert(box, 7);
            REQUIRE(ids[at] == reference.insert(box, 7));
        }
        subject.switchTo(kind);
        ++switches;
        CHECK_UNARY(subject.active() == kind);
        CHECK(std::string(subject.stats().active) == std::string(toString(kind)));
        CHECK(subject.stats().switches == switches);
        for (int frame = 0; frame < 3; ++frame) {
            for (const ProxyId id : ids) moveBoth(subject, reference, id, randomBox(rng, 40));
            checkSame(subject, reference);
        }
        CHECK(subject.box(ids[0]) == reference.box(ids[0]));
        checkQuerySame(subject, reference, AABB{{10, 10}, {20, 20}});
    }
}

TEST_CASE("auto: its own probes and switches never change the pairs") {
    // Long enough for several probes (one every 240 searches) on a workload that changes midway
    // from a sparse spread to a dense pile.
    AutoBroadPhase subject({});
    subject.setProbeFloor(0); // so few proxies cost less than the floor
    detail::BruteForce reference;
    SplitMix64 rng(11);
    const std::vector<ProxyId> ids = insertBoth(subject, reference, rng, 200, 400);
    for (int frame = 0; frame < 1000; ++frame) {
        const float extent = frame < 500 ? 400.0f : 15.0f;
        for (std::size_t i = 0; i < ids.size(); i += 3)
            moveBoth(subject, reference, ids[i], randomBox(rng, extent));
        std::vector<ProxyPair> got, expected;
        subject.findPairs(got);
        reference.findPairs(expected);
        REQUIRE(got == expected);
    }
    subject.validate();
    CHECK_FALSE(subject.stats().active.empty());
    CHECK(subject.probesStarted() > 0);
}

TEST_CASE("auto: no probes while the active kind's frames cost less than the floor") {
    // The same proxies and moves either way: only the floor differs, so its test is what stops
    // the probes (a probe's first build would be the run's slowest frame by far).
    const auto probesWith = [](double floorMs) {
        AutoBroadPhase subject({});
        subject.setProbeFloor(floorMs);
        SplitMix64 rng(3);
        std::vector<ProxyId> ids;
        for (int i = 0; i < 400; ++i) ids.push_back(subject.insert(randomBox(rng, 60), 0));
        std::vector<ProxyPair> pairs;
        for (int frame = 0; frame < 600; ++frame) {
            for (const ProxyId id : ids) subject.move(id, randomBox(rng, 60));
            subject.findPairs(pairs);
        }
        return subject.probesStarted();
    };
    CHECK(probesWith(1e9) == 0);
    CHECK(probesWith(0) > 0);
}

TEST_CASE("auto: probes run through searches by queries and timed queries, pairs unchanged") {
    // Few proxies move each frame, so findPairsOf answers by queries: the probes must still
    // start, be fed and end, and the queries timed on both kinds must answer as brute force.
    AutoBroadPhase subject({});
    subject.setProbeFloor(0);
    detail::BruteForce reference;
    SplitMix64 rng(5);
    const std::vector<ProxyId> ids = insertBoth(subject, reference, rng, 400, 60);
    std::vector<ProxyId> moved;
    for (int frame = 0; frame < 600; ++frame) {
        moved.clear();
        for (int k = 0; k < 5; ++k) {
            const ProxyId id = ids[rng.below(static_cast<std::uint32_t>(ids.size()))];
            if (std::find(moved.begin(), moved.end(), id) != moved.end()) continue;
            moveBoth(subject, reference, id, randomBox(rng, 60));
            moved.push_back(id);
        }
        subject.update();
        std::vector<ProxyPair> got, expected;
        subject.findPairsOf(moved, got);
        reference.findPairsOf(moved, expected);
        REQUIRE(got == expected);
        checkQuerySame(subject, reference, randomBox(rng, 60));
        if (frame % 50 == 0) subject.validate();
    }
    CHECK(subject.probesStarted() > 0);
}

TEST_CASE("auto: proxies inserted, moved and removed while a candidate is built are all found") {
    // A candidate is built a slice per search: the proxies below the build's cursor must follow
    // every move and removal, and those inserted meanwhile must not be inserted twice.
    AutoBroadPhase subject({});
    subject.capBuildSlice(100);
    detail::BruteForce reference;
    SplitMix64 rng(23);
    std::vector<ProxyId> ids = insertBoth(subject, reference, rng, 1500, 80);
    bool sawBuild = false;
    for (int frame = 0; frame < 300; ++frame) {
        for (std::size_t i = frame % 2; i < ids.size(); i += 2)
            moveBoth(subject, reference, ids[i], randomBox(rng, 80));
        for (int k = 0; k < 4; ++k) {
            const std::size_t at = rng.below(static_cast<std::uint32_t>(ids.size()));
            subject.remove(ids[at]);
            reference.remove(ids[at]);
            const AABB box = randomBox(rng, 80);
            ids[at] = subject.insert(box, 3);
            REQUIRE(ids[at] == reference.insert(box, 3));
        }
        sawBuild = sawBuild || subject.buildingCandidate();
        checkSame(subject, reference);
    }
    CHECK(sawBuild);
}

TEST_CASE("auto: a candidate being compared answers the searches, in our ids") {
    // Holes in our ids before each build: the candidate numbers its proxies its own way, and
    // the pairs it answers with must still be brute force's, under our ids.
    AutoBroadPhase subject({});
    subject.setProbeFloor(0);
    subject.capBuildSlice(400);
    detail::BruteForce reference;
    SplitMix64 rng(31);
    std::vector<ProxyId> ids = insertBoth(subject, reference, rng, 1200, 70);
    for (int frame = 0; frame < 700; ++frame) {
        if (frame % 50 == 0) {
            for (int k = 0; k < 30; ++k) {
                const std::size_t at = rng.below(static_cast<std::uint32_t>(ids.size()));
                subject.remove(ids[at]);
                reference.remove(ids[at]);
                ids[at] = ids.back();
                ids.pop_back();
            }
        }
        for (std::size_t i = frame % 3; i < ids.size(); i += 3)
            moveBoth(subject, reference, ids[i], randomBox(rng, 70));
        checkSame(subject, reference);
    }
    CHECK(subject.probesStarted() > 0);
    CHECK(subject.candidateAnswers() > 0);
}

namespace {

struct Opening {
    BroadPhaseType kind;
    std::size_t switches;
};

/// The kind an auto broad phase opens on, given `count` proxies `boxOf(rng, i)` and one search.
template <typename BoxOf>
Opening openingFor(const BroadPhaseConfig& config, int count, BoxOf boxOf) {
    AutoBroadPhase subject(config);
    SplitMix64 rng(static_cast<std::uint64_t>(count));
    for (int i = 0; i < count; ++i) subject.insert(boxOf(rng, i), 0);
    std::vector<ProxyPair> pairs;
    subject.findPairs(pairs);
    return {subject.active(), subject.stats().switches};
}

AABB smallBoxIn(SplitMix64& rng, float side) {
    return test::randomBox(rng, {{0, 0}, {side, side}}, 0.25f, 1.0f);
}

} // namespace

TEST_CASE("auto: the opening kind suits the proxies") {
    const auto small = [](float side) {
        return [side](SplitMix64& rng, int) { return smallBoxIn(rng, side); };
    };
    SUBCASE("boxes of one size filling a square open on the grid") {
        const Opening opening = openingFor({}, 4000, small(190));
        CHECK_UNARY(opening.kind == BroadPhaseType::Grid);
        CHECK(opening.switches == 1);
    }
    SUBCASE("a small cluster in wide bounds stays on the spatial hash") {
        BroadPhaseConfig config;
        config.worldBounds = {{-1e5f, -1e5f}, {1e5f, 1e5f}};
        const Opening opening = openingFor(config, 4000, small(190));
        CHECK_UNARY(opening.kind == BroadPhaseType::SpatialHash);
        CHECK(opening.switches == 0);
    }
    SUBCASE("sizes spread over orders of magnitude open on the hierarchical hash") {
        const Opening opening = openingFor({}, 4000, [](SplitMix64& rng, int i) {
            const float size = i % 4 == 0 ? 40.0f : 0.5f;
            return test::randomBox(rng, {{0, 0}, {400, 400}}, size, size * 1.5f);
        });
        CHECK_UNARY(opening.kind == BroadPhaseType::HierarchicalHash);
    }
    SUBCASE("a handful of proxies waits for the probes") {
        CHECK_UNARY(openingFor({}, 100, small(20)).kind == BroadPhaseType::SpatialHash);
    }
}
