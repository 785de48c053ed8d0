// BuiltInBroadPhase::reserve: auto reserves a candidate's room before building it a slice at a
// time, so that no array grows (copying itself into fresh memory) in the middle of a slice.

#include <doctest/doctest.h>

#include <memory>
#include <vector>

#include "broadphase/built_in_broad_phase.hpp"
#include "broadphase/harness.hpp"
#include "broadphase/scenarios.hpp"
#include "rigid2d/broad_phase.hpp"

namespace rigid2d::test {

TEST_CASE("broad phases: reserve makes room for that many proxies and changes no answer") {
    for (BroadPhaseType type : kAllBroadPhaseTypes) {
        std::unique_ptr<BroadPhase> made = makeBroadPhase(type);
        auto& subject = static_cast<detail::BuiltInBroadPhase&>(*made);
        INFO("broad phase: " << subject.name());
        constexpr int kProxies = 500;
        subject.reserve(kProxies);
        const AABB* room = subject.proxies().boxes().data();
        Harness h(std::move(made), 5);
        SplitMix64 rng(6);
        h.insertAll(clusteredScene(rng, kProxies));
        CHECK(subject.proxies().boxes().data() == room);
        // Past the room, it grows as before.
        h.insertAll(uniformScene(rng, 50));
        CHECK(h.matches());
    }
}

} // namespace rigid2d::test
