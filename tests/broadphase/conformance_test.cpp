// Every broad phase through the same code, against brute_force: pairs (the exact sorted vector),
// region queries, ray casts, stored boxes and user data, after every batch of operations, on
// scenes chosen to break acceleration structures (clusters, 1:10000 sizes, cell borders,
// degenerate boxes, far coordinates, boxes outside a grid's bounds, long churn with id reuse).
// The harness is harness.hpp; the bad-input contract is refusals_test.cpp.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "broadphase/harness.hpp"
#include "broadphase/scenarios.hpp"
#include "rigid2d/broad_phase.hpp"
#include "rigid2d/error.hpp"

using namespace rigid2d;
using rigid2d::test::SplitMix64;

using namespace rigid2d::test;

TEST_CASE("broad phases: random uniform scenes equal brute_force") {
    runSceneForAllTypes([](SplitMix64& rng) { return test::uniformScene(rng, 400); },
                        {BroadPhaseConfig{}, fixedCellConfig(), smallBoundsConfig()});
}

TEST_CASE("broad phases: a cluster inside one cell equals brute_force") {
    runSceneForAllTypes([](SplitMix64& rng) { return test::clusteredScene(rng, 120); },
                        {BroadPhaseConfig{}, fixedCellConfig()});
}

TEST_CASE("broad phases: sizes spanning 1:10000 equal brute_force") {
    runSceneForAllTypes([](SplitMix64& rng) { return test::sizeSpanScene(rng, 300); },
                        {BroadPhaseConfig{}, smallBoundsConfig()});
}

TEST_CASE("broad phases: boxes exactly on cell borders equal brute_force") {
    runSceneForAllTypes([](SplitMix64& rng) { return test::cellBorderScene(rng, 300); },
                        {BroadPhaseConfig{}, fixedCellConfig(), smallBoundsConfig()});
}

TEST_CASE("broad phases: zero-width and zero-area boxes equal brute_force") {
    runSceneForAllTypes([](SplitMix64& rng) { return test::degenerateScene(rng, 250); },
                        {BroadPhaseConfig{}, fixedCellConfig()});
}

TEST_CASE("broad phases: negative and +-1e6 coordinates equal brute_force") {
    runSceneForAllTypes([](SplitMix64& rng) { return test::farScene(rng, 200); },
                        {BroadPhaseConfig{}});
}

TEST_CASE("broad phases: proxies outside a grid's bounds equal brute_force") {
    runSceneForAllTypes([](SplitMix64& rng) { return test::outsideBoundsScene(rng, 300); },
                        {smallBoundsConfig()});
}

TEST_CASE("broad phases: thousands of proxies outside a grid's bounds equal brute_force") {
    // Enough outside for the grid to widen its region rather than sweep its overflow.
    runSceneForAllTypes([](SplitMix64& rng) { return test::outsideBoundsScene(rng, 3000); },
                        {smallBoundsConfig()});
}

TEST_CASE("broad phases: 10000-step insert/move/remove churn with id reuse equals brute_force") {
    for (BroadPhaseType type : kAllBroadPhaseTypes) {
        auto subject = makeBroadPhase(type, smallBoundsConfig());
        INFO("broad phase: " << nameOf(type));
        Harness h(std::move(subject), 4242);
        SplitMix64 rng(99);
        const AABB region{{-30, -30}, {30, 30}};
        for (int step = 1; step <= 10000; ++step) {
            const std::size_t live = h.live().size();
            const float roll = rng.unit();
            if (live < 20 || (roll < 0.25f && live < 200)) {
                h.insert(test::randomBox(rng, region, 0.05f, rng.chance(0.05f) ? 15.0f : 2.0f));
            } else if (roll < 0.45f) {
                h.removeAt(rng.below(static_cast<std::uint32_t>(live)));
            } else {
                // One move, or now and then a batch of up to 40 (ids may repeat) by moveMany.
                const std::uint32_t moves = rng.chance(0.1f) ? 1 + rng.below(40) : 1;
                std::vector<ProxyId> ids;
                std::vector<AABB> boxes;
                for (std::uint32_t k = 0; k < moves; ++k) {
                    const ProxyId id = h.live()[rng.below(static_cast<std::uint32_t>(live))];
                    AABB box = h.subject().box(id);
                    if (rng.chance(0.9f)) {
                        const Vec2 shift{rng.uniform(-0.5f, 0.5f), rng.uniform(-0.5f, 0.5f)};
                        box = {box.lower + shift, box.upper + shift};
                    } else {
                        box = test::randomBox(rng, region, 0.05f, 3.0f);
                    }
                    ids.push_back(id);
                    boxes.push_back(box);
                }
                if (moves == 1)
                    h.move(ids[0], boxes[0]);
                else
                    h.moveMany(ids, boxes);
            }
            if (step % 100 == 0 && !h.matches()) break;
        }
    }
}

TEST_CASE("broad phases: automatic cell size follows tiny, huge, then tiny boxes exactly") {
    for (BroadPhaseType type : kAllBroadPhaseTypes) {
        auto subject = makeBroadPhase(type, BroadPhaseConfig{});
        INFO("broad phase: " << nameOf(type));
        Harness h(std::move(subject), 5);
        SplitMix64 rng(6);
        const AABB region{{-200, -200}, {200, 200}};
        for (int i = 0; i < 150; ++i)
            h.insert(test::randomBox(rng, {{0, 0}, {2, 2}}, 0.005f, 0.02f));
        if (!h.matches()) continue;
        for (int i = 0; i < 150; ++i) h.insert(test::randomBox(rng, region, 20.0f, 80.0f));
        if (!h.matches()) continue;
        // The huge ones shrink to tiny and the tiny ones grow to huge, then all huge go away.
        const std::vector<ProxyId> ids = h.live();
        for (ProxyId id : ids) {
            const bool tiny = h.subject().box(id).upper.x - h.subject().box(id).lower.x < 1.0f;
            h.move(id, tiny ? test::randomBox(rng, region, 20.0f, 80.0f)
                            : test::randomBox(rng, {{0, 0}, {2, 2}}, 0.005f, 0.02f));
        }
        if (!h.matches()) continue;
        for (std::size_t i = h.live().size(); i-- > 0;) {
            const AABB box = h.subject().box(h.live()[i]);
            if (box.upper.x - box.lower.x > 1.0f) h.removeAt(i);
        }
        for (int i = 0; i < 150; ++i)
            h.insert(test::randomBox(rng, {{0, 0}, {2, 2}}, 0.005f, 0.02f));
        h.matches();
    }
}

TEST_CASE("broad phases: rays with denormal components and boxes near the float's reach") {
    // The slab test divides by the translation: a denormal component used to overflow a float
    // quotient, a trap under the tests' float traps, and sweep-and-prune's ray extent summed two
    // magnitudes near the float's reach. Every kind must find what brute_force finds, without one.
    const std::vector<AABB> boxes{{{-1.0f, -1.0f}, {1.0f, 1.0f}},
                                  {{-1.0f, 5.0f}, {1.0f, 6.0f}},
                                  {{1e30f, 1e30f}, {1.1e30f, 1.1e30f}},
                                  {{-1.1e30f, 0.0f}, {-1e30f, 1.0f}}};
    struct Ray {
        Vec2 origin, translation;
    };
    const Ray rays[] = {{{0.0f, -10.0f}, {1e-40f, 20.0f}},      {{0.5f, -10.0f}, {-1e-44f, 3e38f}},
                        {{-10.0f, 0.5f}, {3e38f, 1e-42f}},      {{0.0f, 0.0f}, {-3.4e38f, 1e-45f}},
                        {{-3e38f, -3e38f}, {3.4e38f, 3.4e38f}}, {{0.5f, 0.5f}, {1e-40f, 1e-41f}}};
    const auto visits = [&](BroadPhase& bp, const Ray& ray) {
        std::vector<std::uint64_t> hit;
        bp.rayCast(ray.origin, ray.translation, 1.0f, [&](ProxyId id) {
            hit.push_back(bp.userData(id));
            return 1.0f;
        });
        std::sort(hit.begin(), hit.end());
        return hit;
    };
    auto reference = makeBroadPhase(BroadPhaseType::BruteForce);
    for (std::size_t i = 0; i < boxes.size(); ++i) reference->insert(boxes[i], i);
    reference->update();
    for (BroadPhaseType type : kAllBroadPhaseTypes) {
        INFO("broad phase: " << nameOf(type));
        auto subject = makeBroadPhase(type);
        for (std::size_t i = 0; i < boxes.size(); ++i) subject->insert(boxes[i], i);
        subject->update();
        for (const Ray& ray : rays) CHECK(visits(*subject, ray) == visits(*reference, ray));
    }
    CHECK(visits(*reference, rays[0]) == std::vector<std::uint64_t>{0, 1});
    CHECK(visits(*reference, rays[2]).size() == 1); // the box at the origin
}
