// Every broad phase refuses bad arguments with an Error naming the function and field, and a
// refused call changes nothing.
#include "broadphase/forwarding_kind.hpp"
#include "broadphase/harness.hpp"
#include "broadphase/scenarios.hpp"
#include "rigid2d/broad_phase.hpp"
#include "rigid2d/error.hpp"
#include <algorithm>
#include <cstdint>
#include <doctest/doctest.h>
#include <initializer_list>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace rigid2d;
using namespace rigid2d::test;

namespace {

/// Runs `call`, which must throw rigid2d::Error naming `function` and `field`; returns the
/// message (empty when nothing was thrown).
template <class Call>
std::string expectRefusal(Call call, const std::string& function, const std::string& field) {
    try {
        call();
        FAIL_CHECK("no Error for " << function << " " << field);
    } catch (const Error& error) {
        const std::string what = error.what();
        INFO("message: " << what);
        CHECK(what.find(function) != std::string::npos);
        CHECK(what.find(field) != std::string::npos);
        return what;
    }
    return {};
}

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

/// Not finite, or lower above upper.
constexpr AABB kBadBoxes[] = {
    {{kNaN, 0}, {1, 1}}, {{0, 0}, {1, kNaN}}, {{-kInf, 0}, {1, 1}},
    {{0, 0}, {kInf, 1}}, {{2, 0}, {1, 1}},    {{0, 3}, {1, 1}},
};

/// Fills `h` with 120 boxes and removes one of them, whose (stale) id it returns.
ProxyId fillWithOneRemoved(Harness& h, std::uint64_t seed) {
    SplitMix64 rng(seed);
    h.insertAll(test::uniformScene(rng, 120));
    const ProxyId removed = h.live()[7];
    h.removeAt(7);
    return removed;
}

} // namespace

TEST_CASE("broad phases: bad input is refused, named, and changes nothing") {
    for (BroadPhaseType type : kAllBroadPhaseTypes) {
        auto subject = makeBroadPhase(type, BroadPhaseConfig{});
        INFO("broad phase: " << nameOf(type));
        Harness h(std::move(subject), 11);
        const ProxyId removed = fillWithOneRemoved(h, 12);
        const ProxyId live = h.live()[3];
        const ProxyId unknown{5000};
        const std::vector<ProxyPair> pairsBefore = h.pairs();
        const AABB probe{{20, 20}, {60, 60}};
        const std::vector<ProxyId> queryBefore = h.queryIds(probe);
        const AABB liveBox = h.subject().box(live);
        BroadPhase& bp = h.subject();

        for (const AABB& bad : kBadBoxes) {
            expectRefusal([&] { (void)bp.insert(bad, 1); }, "insert", "box");
            expectRefusal([&] { bp.move(live, bad); }, "move", "box");
            expectRefusal([&] { bp.query(bad, [](ProxyId) { return true; }); }, "query", "region");
        }
        for (ProxyId id : {removed, unknown}) {
            expectRefusal([&] { bp.move(id, {{0, 0}, {1, 1}}); }, "move", "proxy");
            expectRefusal([&] { bp.remove(id); }, "remove", "proxy");
            expectRefusal([&] { (void)bp.box(id); }, "box", "proxy");
            expectRefusal([&] { (void)bp.userData(id); }, "userData", "proxy");
        }
        expectRefusal([&] { bp.move(ProxyId::Null, {{0, 0}, {1, 1}}); }, "move", "proxy");
        std::vector<ProxyPair> pairsOf;
        for (ProxyId id : {removed, unknown}) {
            const std::vector<ProxyId> moved{live, id};
            expectRefusal([&] { bp.findPairsOf(moved, pairsOf); }, "findPairsOf", "moved");
        }
        // Listed twice, after ids that are fine (a refusal must unmark those too), both with few
        // ids (the query path) and with every id (a full search).
        const std::vector<ProxyId> twice{h.live()[0], live, h.live()[1], live};
        expectRefusal([&] { bp.findPairsOf(twice, pairsOf); }, "findPairsOf", "moved");
        std::vector<ProxyId> allTwice = h.live();
        allTwice.push_back(h.live().back());
        expectRefusal([&] { bp.findPairsOf(allTwice, pairsOf); }, "findPairsOf", "moved");
        const auto ignore = [](ProxyId) { return 1.0f; };
        expectRefusal([&] { bp.rayCast({kNaN, 0}, {1, 1}, 1.0f, ignore); }, "rayCast", "origin");
        expectRefusal(
            [&] {
                bp.rayCast({0, 0}, {kInf, 1}, 1.0f, ignore);
            },
            "rayCast", "translation");
        expectRefusal([&] { bp.rayCast({0, 0}, {1, 1}, kNaN, ignore); }, "rayCast", "maxFraction");
        expectRefusal([&] { bp.rayCast({0, 0}, {1, 1}, -1.0f, ignore); }, "rayCast", "maxFraction");

        // Unchanged: same proxies, same pairs, same query, valid, and the next id is still the
        // removed one (a refused insert consumed nothing).
        bp.validate();
        CHECK(bp.size() == h.live().size());
        CHECK(bp.box(live) == liveBox);
        CHECK(h.pairs() == pairsBefore);
        CHECK(h.queryIds(probe) == queryBefore);
        // Nothing stayed marked as moved: the pairs of one proxy are exactly its pairs.
        const std::vector<ProxyId> one{live};
        bp.findPairsOf(one, pairsOf);
        std::vector<ProxyPair> expectedOf;
        for (const ProxyPair& pair : pairsBefore)
            if (pair.a == live || pair.b == live) expectedOf.push_back(pair);
        CHECK(pairsOf == expectedOf);
        CHECK(h.insert({{1, 1}, {2, 2}}) == removed);
        CHECK(h.matches());
    }
}

TEST_CASE("broad phases: every type in kAllBroadPhaseTypes is constructible") {
    for (BroadPhaseType type : kAllBroadPhaseTypes) {
        INFO("broad phase: " << nameOf(type));
        std::unique_ptr<BroadPhase> bp;
        CHECK_NOTHROW(bp = makeBroadPhase(type));
        if (bp) CHECK(std::string(bp->name()) == nameOf(type));
        CHECK(static_cast<int>(broadPhaseTypeFromString(toString(type))) == static_cast<int>(type));
    }
    CHECK_THROWS_AS((void)broadPhaseTypeFromString("octree"), Error);
    // The refusal lists every name it would accept.
    try {
        (void)broadPhaseTypeFromString("octree");
    } catch (const Error& e) {
        const std::string message = e.what();
        for (BroadPhaseType type : kAllBroadPhaseTypes) {
            INFO("broad phase: " << nameOf(type) << ", message: " << message);
            CHECK(message.find(std::string(toString(type))) != std::string::npos);
        }
    }
}

TEST_CASE("broad phases: moveMany refuses a bad batch, naming the entry, and changes nothing") {
    std::vector<std::unique_ptr<BroadPhase>> subjects;
    for (BroadPhaseType type : kAllBroadPhaseTypes) subjects.push_back(makeBroadPhase(type));
    subjects.push_back(std::make_unique<BruteForceBehind>()); // the interface's default
    for (std::unique_ptr<BroadPhase>& subject : subjects) {
        const std::string name(subject->name());
        INFO("broad phase: " << name);
        Harness h(std::move(subject), 21);
        const ProxyId removed = fillWithOneRemoved(h, 22);
        const ProxyId first = h.live()[3];
        const ProxyId second = h.live()[40];
        const std::vector<ProxyPair> pairsBefore = h.pairs();
        const AABB firstBox = h.subject().box(first);
        const AABB secondBox = h.subject().box(second);
        BroadPhase& bp = h.subject();
        // Each batch would move `first` before reaching its bad entry, at index 2.
        const AABB good{{0, 0}, {1, 1}};
        for (const AABB& bad : kBadBoxes) {
            const std::vector<ProxyId> ids{first, second, second};
            const std::vector<AABB> boxes{good, good, bad};
            expectRefusal([&] { bp.moveMany(ids, boxes); }, "moveMany", "boxes[2]");
        }
        for (ProxyId id : {removed, ProxyId{5000}, ProxyId::Null}) {
            const std::vector<ProxyId> ids{first, second, id};
            const std::vector<AABB> boxes{good, good, good};
            expectRefusal([&] { bp.moveMany(ids, boxes); }, "moveMany", "proxies[2]");
        }
        const std::vector<ProxyId> ids{first, second};
        const std::vector<AABB> oneBox{good};
        // Every kind, the interface's default among them, says the same of it.
        const std::string unequal =
            expectRefusal([&] { bp.moveMany(ids, oneBox); }, "moveMany", "boxes");
        CHECK(unequal.find("holds 1 boxes for 2 proxies") != std::string::npos);

        CHECK(bp.box(first) == firstBox);
        CHECK(bp.box(second) == secondBox);
        CHECK(h.pairs() == pairsBefore);
        // An empty batch is no change; a good one equals its moves (the harness compares).
        bp.moveMany({}, {});
        h.moveMany({first, second, first}, {good, good, AABB{{2, 2}, {3, 4}}});
        CHECK(bp.box(first) == AABB{{2, 2}, {3, 4}});
        CHECK(h.matches());
    }
}
