// Islands gathered into groups: whole islands, up to the target, in the order of their first
// constraint; and the soft step run group by group gives the bits it gives colour by colour on
// workers, and the sequential solve's (to the sign of a zero).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "core/shuffled_scheduler.hpp"
#include "solver/contact_groups.hpp"
#include "solver/contact_problem.hpp"
#include "solver/contact_solver.hpp"
#include "solver/same_solve.hpp"

using namespace rigid2d;
using namespace rigid2d::detail;

namespace {

// `islands` islands of `size` consecutive slots from slot 1 on, each a chain of constraints
// with a few to the static slot, listed in a shuffled order.
std::vector<ConstraintBodies> islandConstraints(std::uint32_t islands, std::uint32_t size,
                                                std::uint32_t seed) {
    std::vector<ConstraintBodies> out;
    for (std::uint32_t i = 0; i < islands; ++i) {
        const std::uint32_t first = 1 + i * size;
        for (std::uint32_t k = 0; k + 1 < size; ++k) out.push_back({first + k, first + k + 1});
        out.push_back({0, first});
        if (i % 3 == 0) out.push_back({first + size - 1, 0});
    }
    std::mt19937 rng(seed);
    std::shuffle(out.begin(), out.end(), rng);
    return out;
}

std::uint32_t islandOfSlot(std::uint32_t slot, std::uint32_t size) { return (slot - 1) / size; }

} // namespace

TEST_CASE("groups hold whole islands, in the order of their first constraint, up to the target") {
    constexpr std::uint32_t kIslands = 60, kSize = 5, kTarget = 20;
    const std::vector<ConstraintBodies> constraints = islandConstraints(kIslands, kSize, 7);
    const std::size_t slots = 1 + kIslands * kSize + 9; // nine slots of no constraint
    ContactGroups groups;
    groupIslands({constraints}, slots, kTarget, groups);
    REQUIRE(groups.count > 1);
    REQUIRE(groups.groupOf.size() == constraints.size());
    // Each island in one group; the groups' islands in order of their first constraint.
    std::vector<std::uint32_t> groupOfIsland(kIslands, ~0u);
    std::uint32_t lastGroup = 0;
    std::vector<std::uint32_t> constraintsOf(groups.count, 0);
    for (std::size_t i = 0; i < constraints.size(); ++i) {
        const ConstraintBodies& c = constraints[i];
        const std::uint32_t island = islandOfSlot(c.a != 0 ? c.a : c.b, kSize);
        const std::uint32_t g = groups.groupOf[i];
        if (groupOfIsland[island] == ~0u) {
            CHECK(g >= lastGroup);
            lastGroup = g;
            groupOfIsland[island] = g;
        }
        CHECK(groupOfIsland[island] == g);
        ++constraintsOf[g];
    }
    for (const std::uint32_t n : constraintsOf) {
        CHECK(n > 0);
        CHECK(n <= kTarget);
    }
    // Every slot but the static one listed once: the groups' bodies, then those of none.
    REQUIRE(groups.bodyStart.size() == groups.count + 2);
    REQUIRE(groups.bodies.size() == slots - 1);
    for (std::uint32_t g = 0; g <= groups.count; ++g)
        for (std::uint32_t k = groups.bodyStart[g]; k < groups.bodyStart[g + 1]; ++k) {
            const std::uint32_t slot = groups.bodies[k];
            if (slot > kIslands * kSize)
                CHECK(g == groups.count);
            else
                CHECK(groupOfIsland[islandOfSlot(slot, kSize)] == g);
        }
    std::vector<std::uint32_t> sorted = groups.bodies;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t k = 0; k < sorted.size(); ++k) CHECK(sorted[k] == k + 1);

    // The same constraints give the same groups.
    ContactGroups again;
    groupIslands({constraints}, slots, kTarget, again);
    CHECK(again.groupOf == groups.groupOf);
    CHECK(again.bodies == groups.bodies);
}

TEST_CASE("one group: few constraints, or all but a group's worth in one island") {
    ContactGroups groups;
    groupIslands({islandConstraints(4, 5, 1)}, 21, 100, groups);
    CHECK(groups.count == 1);
    // One island of 200 slots and three small ones: the rest fits in one group of 20.
    std::vector<ConstraintBodies> constraints = islandConstraints(1, 200, 2);
    for (const ConstraintBodies& c : islandConstraints(3, 4, 3)) {
        const auto shift = [](std::uint32_t s) { return s == 0 ? 0u : s + 200u; };
        constraints.push_back({shift(c.a), shift(c.b)});
    }
    groupIslands({constraints}, 213, 20, groups);
    CHECK(groups.count == 1);
    groupIslands({constraints}, 213, 5, groups);
    CHECK(groups.count > 1);
}

TEST_CASE("a moving slot joins islands, the static slot does not") {
    // Slots 1 and 2 touch slot 3 (kinematic or not, it moves) and the static slot; 4 and 5 touch
    // only the static slot.
    const std::vector<ConstraintBodies> constraints = {{1, 0}, {2, 0}, {1, 3}, {3, 2},
                                                       {0, 4}, {5, 0}, {0, 5}};
    ContactGroups groups;
    groupIslands({constraints}, 6, 1, groups);
    REQUIRE(groups.count == 3);
    CHECK(groups.groupOf == std::vector<std::uint32_t>{0, 0, 0, 0, 1, 2, 2});
}

TEST_CASE("a grouped step: the same bits on one participant as on workers, by group or colour") {
    // 120 islands of four bodies stacked on the static slot, and with `chain` a chain of 300
    // bodies too, in a shuffled contact order.
    static constexpr std::uint32_t kIslands = 120, kSize = 4, kChain = 300;
    const auto makeProblem = [&](bool chain) {
        rigid2d::testing::ContactProblem p;
        p.states.resize(1 + kIslands * kSize + (chain ? kChain : 0));
        p.motions.resize(p.states.size());
        std::mt19937 rng(5);
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        for (std::size_t i = 1; i < p.states.size(); ++i) {
            p.states[i].v = {u(rng), u(rng)};
            p.states[i].w = u(rng);
            p.motions[i].invMass = 1.0f / (1.5f + u(rng));
            p.motions[i].invInertia = 2.0f / (1.5f + u(rng));
            p.motions[i].linearAcceleration = {0.0f, -10.0f};
        }
        std::vector<ConstraintBodies> constraints = islandConstraints(kIslands, kSize, 11);
        if (chain)
            for (const ConstraintBodies& c : islandConstraints(1, kChain, 13)) {
                const auto shift = [](std::uint32_t s) {
                    return s == 0 ? 0u : s + kIslands * kSize;
                };
                constraints.push_back({shift(c.a), shift(c.b)});
            }
        for (const ConstraintBodies& c : constraints) {
            ContactConstraint& constraint = p.add(c.a, c.b);
            Manifold& m = constraint.surface->manifold;
            m.normal = {0.0f, 1.0f};
            constraint.surface->friction = 0.5f;
            constraint.surface->restitution = c.a % 5 == 0 ? 0.4f : 0.0f;
            m.pointCount = (c.a + c.b) % 3 == 0 ? 1 : 2;
            for (int k = 0; k < m.pointCount; ++k) {
                m.points[k].anchorA = {0.4f * u(rng), 0.5f};
                m.points[k].anchorB = {m.points[k].anchorA.x, -0.5f};
                m.points[k].separation =
                    0.01f * u(rng) + dot(m.points[k].anchorB - m.points[k].anchorA, m.normal);
                m.points[k].normalImpulse = std::fabs(u(rng));
            }
        }
        return p;
    };
    SolverSettings settings;
    settings.dt = 1.0f / 60.0f;
    settings.restitutionThreshold = 0.5f;
    const auto solve = [&](rigid2d::testing::ContactProblem& p, const WorldDef* scheduler,
                           bool groupMajor) {
        ContactSolverScratch scratch;
        scratch.groupConstraints = 40;
        ConstraintSummary summary;
        summarizeConstraints(p.constraints, summary);
        solveSoftStep(p.states, p.motions, {}, p.constraints, summary, settings, scratch,
                      scheduler);
        CHECK(scratch.contactGroups.count > 5);
        CHECK(scratch.contactLayout.groupMajor == groupMajor);
        return scratch.colouring.order;
    };
    for (const bool chain : {false, true}) {
        CAPTURE(chain);
        rigid2d::testing::ContactProblem grouped = makeProblem(chain);
        const std::vector<std::uint32_t> order = solve(grouped, nullptr, true);
        for (const std::uint32_t seed : {1u, 2u}) {
            // Three workers: the chain's group is too large a share to run on one of them alone,
            // so they go colour by colour over all groups.
            rigid2d::testing::ContactProblem shared = makeProblem(chain);
            rigid2d::testing::ShuffledScheduler scheduler(3, seed);
            WorldDef def;
            scheduler.attach(def);
            (void)solve(shared, &def, !chain);
            CHECK(std::memcmp(shared.states.data(), grouped.states.data(),
                              grouped.states.size() * sizeof(SolverState)) == 0);
            for (std::size_t k = 0; k < grouped.surfaces.size(); ++k)
                CHECK(std::memcmp(&shared.surfaces[k].manifold, &grouped.surfaces[k].manifold,
                                  sizeof(Manifold)) == 0);
        }
        // One at a time in the colouring's order: the same arithmetic.
        rigid2d::testing::ContactProblem sequential = makeProblem(chain);
        std::vector<ContactConstraint> permuted;
        for (const std::uint32_t i : order) permuted.push_back(sequential.constraints[i]);
        solveSoftStepSequential(sequential.states, sequential.motions, {}, permuted, settings);
        rigid2d::testing::checkSameBodies(grouped.states, sequential.states);
    }
}
