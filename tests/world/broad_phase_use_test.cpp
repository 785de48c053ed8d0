// The world on every broad phase: the same final state on all of them, swaps between steps that
// keep contacts and sleep state, and a user-written broad phase.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "broadphase/forwarding_kind.hpp"
#include "rigid2d/testing.hpp"

using namespace rigid2d;
using namespace rigid2d::testing;

namespace {
/// A mixed scene with collisions, resting contact, sleeping and a bullet.
void buildScene(World& world) {
    createFloor(world, 0.0f, 30.0f);
    for (int i = 0; i < 40; ++i) {
        const float x = static_cast<float>(i % 8) * 1.3f - 5.0f + 0.1f * static_cast<float>(i % 3);
        const float y = 1.0f + static_cast<float>(i / 8) * 1.4f;
        if (i % 3 == 0)
            createBox(world, {x, y}, {0.5f, 0.4f});
        else
            createCircle(world, {x, y}, 0.3f + 0.05f * static_cast<float>(i % 4));
    }
    BodyDef bullet;
    bullet.type = BodyType::Dynamic;
    bullet.bullet = true;
    bullet.position = {-20.0f, 2.0f};
    bullet.linearVelocity = {120.0f, 0.0f};
    const BodyId b = world.createBody(bullet);
    world.createCircle(b, ShapeDef{}, Circle{{0.0f, 0.0f}, 0.1f});
}

/// A user-written broad phase: forwards to brute force but is a distinct class the world only
/// sees through the interface. With `fullSearch` it answers findPairsOf from one findPairs,
/// otherwise the interface's default (a query per moved proxy) does.
class ForwardingBroadPhase final : public test::BruteForceBehind {
public:
    explicit ForwardingBroadPhase(bool fullSearch = false) : m_fullSearch(fullSearch) {}

    void move(ProxyId proxy, const AABB& box) override {
        ++moves;
        m_inner->move(proxy, box);
    }
    void update() override {
        ++updates;
        m_inner->update();
    }
    void findPairs(std::vector<ProxyPair>& out) override {
        ++pairSearches;
        m_inner->findPairs(out);
    }
    void findPairsOf(std::span<const ProxyId> moved, std::vector<ProxyPair>& out) override {
        if (!m_fullSearch) return BroadPhase::findPairsOf(moved, out);
        std::vector<ProxyPair> all;
        findPairs(all);
        std::vector<ProxyId> sorted(moved.begin(), moved.end());
        std::sort(sorted.begin(), sorted.end());
        const auto isMoved = [&](ProxyId p) {
            return std::binary_search(sorted.begin(), sorted.end(), p);
        };
        out.clear();
        for (const ProxyPair& pair : all)
            if (isMoved(pair.a) || isMoved(pair.b)) out.push_back(pair);
    }
    void query(const AABB& region, FunctionRef<bool(ProxyId)> visit) const override {
        ++queries;
        m_inner->query(region, visit);
    }
    std::string_view name() const override { return "forwarding"; }

    mutable int queries = 0;
    int moves = 0;
    int updates = 0;
    int pairSearches = 0;

private:
    bool m_fullSearch;
};
} // namespace

TEST_CASE("the same scene gives the same final state hash on every broad phase") {
    std::optional<std::uint64_t> reference;
    int tried = 0;
    for (const BroadPhaseType type : kAllBroadPhaseTypes) {
        WorldDef def;
        def.broadPhase = type;
        World world(def);
        buildScene(world);
        stepFor(world, 3.0f);
        const std::uint64_t hash = stateHash(world);
        if (!reference) reference = hash;
        CHECK_MESSAGE(hash == *reference, toString(type));
        ++tried;
    }
    CHECK(tried >= 1);
}

TEST_CASE("the same calls give bit-identical states") {
    WorldDef def;
    def.broadPhase = BroadPhaseType::BruteForce;
    World a(def), b(def);
    buildScene(a);
    buildScene(b);
    stepFor(a, 2.0f);
    stepFor(b, 2.0f);
    CHECK(stateHash(a) == stateHash(b));
}

TEST_CASE("swapping broad phases mid-run keeps contacts and changes nothing") {
    WorldDef def;
    def.broadPhase = BroadPhaseType::BruteForce;
    World swapped(def), straight(def);
    buildScene(swapped);
    buildScene(straight);
    stepFor(swapped, 1.0f);
    stepFor(straight, 1.0f);
    const std::size_t contactsBefore = swapped.stats().contacts;
    const std::size_t awakeBefore = awakeBodyCount(swapped);
    auto custom = std::make_unique<ForwardingBroadPhase>();
    ForwardingBroadPhase* customView = custom.get();
    swapped.setBroadPhase(std::move(custom));
    CHECK(swapped.broadPhase().name() == "forwarding");
    CHECK(awakeBodyCount(swapped) == awakeBefore);
    swapped.step(kDefaultTimeStep);
    straight.step(kDefaultTimeStep);
    CHECK(swapped.stats().newPairs == straight.stats().newPairs);
    CHECK(contactsBefore > 0);
    CHECK(swapped.stats().contacts == straight.stats().contacts);
    // Swap through every built-in type, then compare with the unswapped run.
    for (const BroadPhaseType type : kAllBroadPhaseTypes) {
        swapped.setBroadPhase(type);
        swapped.step(kDefaultTimeStep);
        straight.step(kDefaultTimeStep);
    }
    stepFor(swapped, 1.0f);
    stepFor(straight, 1.0f);
    CHECK(stateHash(swapped) == stateHash(straight));
    CHECK(customView != nullptr);
}

TEST_CASE("a user-written broad phase is used through the interface only") {
    WorldDef def;
    def.broadPhase = BroadPhaseType::BruteForce;
    World world(def);
    auto custom = std::make_unique<ForwardingBroadPhase>();
    ForwardingBroadPhase& view = *custom;
    world.setBroadPhase(std::move(custom));
    buildScene(world);
    stepFor(world, 1.0f);
    CHECK(view.queries > 0);
    CHECK(view.moves > 0);
    CHECK(view.updates > 0);
    CHECK(world.broadPhase().size() == world.stats().shapes);
    // A non-empty broad phase is refused.
    auto full = makeBroadPhase(BroadPhaseType::BruteForce);
    full->insert(AABB{{0, 0}, {1, 1}}, 0);
    CHECK_THROWS_AS(world.setBroadPhase(std::move(full)), Error);
    CHECK(world.broadPhase().name() == "forwarding");
}

TEST_CASE("new pairs by queries and by one findPairs are the same pairs") {
    // findPairsOf may answer either way; the world cannot tell them apart.
    auto run = [](bool fullSearch, int& queries, int& pairSearches) {
        World world;
        auto custom = std::make_unique<ForwardingBroadPhase>(fullSearch);
        ForwardingBroadPhase& view = *custom;
        world.setBroadPhase(std::move(custom));
        buildScene(world);
        std::size_t contactSteps = 0;
        for (int i = 0; i < 180; ++i) {
            world.step(kDefaultTimeStep);
            contactSteps += world.stats().contacts;
        }
        queries = view.queries;
        pairSearches = view.pairSearches;
        return std::pair{stateHash(world), contactSteps};
    };
    int queriesA = 0, searchesA = 0, queriesB = 0, searchesB = 0;
    const auto byQueries = run(false, queriesA, searchesA);
    const auto bySearch = run(true, queriesB, searchesB);
    CHECK(queriesA > 0);
    CHECK(searchesA == 0);
    // What is left are the continuous sweeps (the bullet's, and fast bodies' whose path left
    // their fat box), made on both paths.
    CHECK(queriesB < queriesA);
    CHECK(searchesB > 0);
    CHECK(byQueries.second > 0);
    CHECK(byQueries.second == bySearch.second);
    CHECK(byQueries.first == bySearch.first);
}

TEST_CASE("a world runs auto unless told otherwise, on a kind of its own choosing") {
    World world(WorldDef{});
    buildScene(world);
    world.step(kDefaultTimeStep);
    CHECK(world.broadPhase().name() == "auto");
    const std::string_view active = world.broadPhase().stats().active;
    CHECK_FALSE(active.empty());
    CHECK(active != "auto");
}
