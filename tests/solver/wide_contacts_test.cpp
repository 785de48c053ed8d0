// The coloured solve in wide blocks, on every SIMD path (4 or 8 lanes), against the plain
// one-at-a-time solve of the same constraints in colour order: every lane does the scalar
// arithmetic, so the two agree exactly (==; a zero impulse of a missing point may flip the sign of
// a zero), or to rounding if the compiler may fuse multiply-adds in the scalar code.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "solver/contact_problem.hpp"
#include "solver/contact_solver.hpp"
#include "solver/same_solve.hpp"
#include "solver/simd_paths.hpp"

using namespace rigid2d;
using namespace rigid2d::detail;
using rigid2d::testing::checkSame;
using rigid2d::testing::checkSameBodies;
using rigid2d::testing::ForcedSimdPath;
using rigid2d::testing::WideVariant;
using rigid2d::testing::wideVariants;

namespace {

using Problem = rigid2d::testing::ContactProblem;

// Bodies in a loose cluster with random velocities; constraints between random pairs (some on the
// static slot), one or two points, touching, overlapping or speculative, warm-started, some
// bouncy. A hub body with 30 contacts forces some into the overflow list.
Problem makeProblem(std::uint32_t seed, std::uint32_t bodyCount, std::uint32_t constraintCount) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    Problem p;
    p.states.resize(bodyCount + 1);
    p.motions.resize(bodyCount + 1);
    for (std::uint32_t i = 1; i <= bodyCount; ++i) {
        p.states[i].v = {2.0f * u(rng), 2.0f * u(rng)};
        p.states[i].w = u(rng);
        p.motions[i].invMass = 1.0f / (1.5f + u(rng));
        p.motions[i].invInertia = i % 7 == 0 ? 0.0f : 2.0f / (1.5f + u(rng)); // some fixed rotation
        p.motions[i].linearAcceleration = {0.0f, -10.0f};
        p.motions[i].linearDamping = i % 5 == 0 ? 0.3f : 0.0f;
    }
    auto addConstraint = [&](std::uint32_t a, std::uint32_t b) {
        ContactConstraint& c = p.add(a, b);
        Manifold& m = c.surface->manifold;
        const float angle = 3.14159265f * u(rng);
        m.normal = {std::cos(angle), std::sin(angle)};
        c.surface->friction = 0.3f + 0.3f * u(rng);
        c.surface->restitution = p.constraints.size() % 4 == 0 ? 0.5f : 0.0f;
        m.pointCount = p.constraints.size() % 3 == 0 ? 2 : 1;
        for (int k = 0; k < m.pointCount; ++k) {
            ManifoldPoint& q = m.points[k];
            q.anchorA = {0.5f * u(rng), 0.5f * u(rng)};
            q.anchorB = {0.5f * u(rng), 0.5f * u(rng)};
            // The separation of the anchors' offset along the normal (baseSeparation).
            q.separation = 0.02f * u(rng) + dot(q.anchorB - q.anchorA, m.normal);
            q.normalImpulse = std::fabs(u(rng));
            q.tangentImpulse = 0.2f * u(rng);
        }
    };
    std::uniform_int_distribution<std::uint32_t> body(0, bodyCount);
    while (p.constraints.size() < constraintCount) {
        const std::uint32_t a = body(rng), b = body(rng);
        if (a == b || (a == 0 && b == 0)) continue;
        addConstraint(a, b);
    }
    for (std::uint32_t b = 2; b < 32 && b <= bodyCount; ++b) addConstraint(1, b);
    return p;
}

SolverSettings settings() {
    SolverSettings s;
    s.dt = 1.0f / 60.0f;
    s.substeps = 4;
    s.restitutionThreshold = 0.5f;
    return s;
}

} // namespace

TEST_CASE("the wide coloured solve equals the sequential solve in colour order") {
    for (const WideVariant& variant : wideVariants())
        for (const std::uint32_t seed : {1u, 2u, 3u}) {
            CAPTURE(variant.name);
            CAPTURE(seed);
            const ForcedSimdPath forced(variant.path);
            Problem wide = makeProblem(seed, 200, 500);
            ContactSolverScratch scratch;
            scratch.kernels8 = variant.kernels8;
            ConstraintSummary summary;
            summarizeConstraints(wide.constraints, summary);
            solveSoftStep(wide.states, wide.motions, {}, wide.constraints, summary, settings(),
                          scratch);
            const std::vector<std::uint32_t>& order = scratch.colouring.order;
            REQUIRE(!scratch.colouring.overflow().empty());
            REQUIRE(scratch.path == variant.path);
            REQUIRE(scratch.contactLayout.blockCount > 10);

            Problem sequential = makeProblem(seed, 200, 500);
            std::vector<ContactConstraint> permuted;
            for (const std::uint32_t i : order) permuted.push_back(sequential.constraints[i]);
            solveSoftStepSequential(sequential.states, sequential.motions, {}, permuted,
                                    settings());

            checkSameBodies(wide.states, sequential.states);
            // The permuted constraints store into the sequential problem's manifolds.
            std::size_t stored = 0;
            for (std::size_t k = 0; k < wide.surfaces.size(); ++k) {
                const Manifold& a = wide.surfaces[k].manifold;
                const Manifold& b = sequential.surfaces[k].manifold;
                for (int i = 0; i < a.pointCount; ++i) {
                    checkSame(a.points[i].normalImpulse, b.points[i].normalImpulse);
                    checkSame(a.points[i].tangentImpulse, b.points[i].tangentImpulse);
                    checkSame(a.points[i].maxNormalImpulse, b.points[i].maxNormalImpulse);
                    checkSame(a.points[i].approachSpeed, b.points[i].approachSpeed);
                    stored += a.points[i].maxNormalImpulse > 0.0f ? 1 : 0;
                }
            }
            CHECK(stored > wide.surfaces.size() / 4); // the manifolds did take the impulses
            // The static slot never moves.
            CHECK(wide.states[0].v.x == 0.0f);
            CHECK(wide.states[0].w == 0.0f);
        }
}

TEST_CASE("a wide solve brings a resting box to rest: its weight on its two contact points") {
    // One unit box (mass 1, inertia 1/6) resting on the static slot with two points at x = +-0.5;
    // at rest the normal impulses per substep carry the weight: sum = m g h.
    Problem p;
    p.states.resize(2);
    p.motions.resize(2);
    p.motions[1].invMass = 1.0f;
    p.motions[1].invInertia = 6.0f;
    p.motions[1].linearAcceleration = {0.0f, -10.0f};
    ContactConstraint& c = p.add(0, 1);
    Manifold& m = c.surface->manifold;
    m.normal = {0.0f, 1.0f};
    c.surface->friction = 0.6f;
    m.pointCount = 2;
    for (int i = 0; i < 2; ++i) {
        // The static slot's frame is put at the box centre: both anchors name the same point,
        // and the separation is zero.
        m.points[i].anchorB = {i == 0 ? -0.5f : 0.5f, -0.5f};
        m.points[i].anchorA = m.points[i].anchorB;
    }
    ContactSolverScratch scratch;
    ConstraintSummary summary;
    summarizeConstraints(p.constraints, summary);
    const SolverSettings s = settings();
    for (int step = 0; step < 120; ++step) {
        // The box is put back each step: only the impulses carry over (warm starting).
        p.states[1].dp = {};
        p.states[1].dq = {};
        p.states[1].dAngle = 0.0f;
        solveSoftStep(p.states, p.motions, {}, p.constraints, summary, s, scratch);
    }
    const float h = s.dt / static_cast<float>(s.substeps);
    CHECK(std::fabs(p.states[1].v.y) < 1e-3f);
    CHECK(std::fabs(p.states[1].w) < 1e-3f);
    CHECK(m.points[0].normalImpulse + m.points[1].normalImpulse ==
          doctest::Approx(10.0f * h).epsilon(1e-3));
    CHECK(m.points[0].normalImpulse == doctest::Approx(m.points[1].normalImpulse).epsilon(1e-3));
}
