// The wide solver's SIMD paths (portable, SSE2, AVX2, AVX-512; simd_path.hpp): chosen and
// overridden as documented, and the same world bits on every path, with one worker and with two, on
// scenes with contacts and every joint kind.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/cpu_features.hpp"
#include "rigid2d/testing.hpp"
#include "rigid2d/thread_pool.hpp"
#include "solver/contact_problem.hpp"
#include "solver/contact_solver.hpp"
#include "solver/simd_paths.hpp"
#include "world/digest_scenes.hpp"

using namespace rigid2d;
using namespace rigid2d::detail;
using namespace rigid2d::testing;

TEST_CASE("simd paths: the widest available unless overridden, portable always there") {
    CHECK(simdPathAvailable(SimdPath::Portable));
    CHECK(simdPathName(SimdPath::Avx2) == "avx2");
    CHECK(simdPathName(SimdPath::Avx512) == "avx512");
    // AVX2 and AVX-512 are taken only where the CPU has them, AVX-512 only with AVX2 (its kernels
    // are AVX2's, compiled with more registers).
    if (!cpuHasAvx2()) CHECK_FALSE(simdPathAvailable(SimdPath::Avx2));
    if (!cpuHasAvx512()) CHECK_FALSE(simdPathAvailable(SimdPath::Avx512));
    if (simdPathAvailable(SimdPath::Avx512)) CHECK(simdPathAvailable(SimdPath::Avx2));
    const std::vector<SimdPath> paths = availableSimdPaths();
    MESSAGE("SIMD paths available: " << paths.size() << ", widest "
                                     << std::string(simdPathName(paths.back())));
    // Without an override (or RIGID2D_SIMD) the step takes the last path available.
    if (std::getenv("RIGID2D_SIMD") == nullptr) CHECK(solverSimdPath() == paths.back());
    for (const SimdPath path : paths) {
        ForcedSimdPath forced(path);
        CHECK(solverSimdPath() == path);
    }
}

TEST_CASE("simd paths: the 8-wide paths have tables of their own, the 4-wide ones none") {
    CHECK(wideKernels8(SimdPath::Portable) == nullptr);
    CHECK(wideKernels8(SimdPath::Sse2) == nullptr);
    const WideKernels<8>* avx2 =
        simdPathAvailable(SimdPath::Avx2) ? wideKernels8(SimdPath::Avx2) : nullptr;
    const WideKernels<8>* avx512 =
        simdPathAvailable(SimdPath::Avx512) ? wideKernels8(SimdPath::Avx512) : nullptr;
    if (simdPathAvailable(SimdPath::Avx2)) CHECK(avx2 != nullptr);
    if (simdPathAvailable(SimdPath::Avx512)) {
        REQUIRE(avx512 != nullptr);
        // The AVX-512 path runs its own code, not the AVX2 table under another name.
        CHECK(avx512 != avx2);
        const bool ownContacts = avx512->solveContacts != avx2->solveContacts;
        const bool ownRevolutes = avx512->solveRevolutes != avx2->solveRevolutes;
        CHECK(ownContacts);
        CHECK(ownRevolutes);
    }
}

TEST_CASE("simd paths: the same bits on every path, on one thread and on two") {
    const std::vector<SimdPath> paths = availableSimdPaths();
    for (const std::int32_t workers : {1, 2}) {
        CAPTURE(workers);
        ThreadPool pool(workers);
        WorldDef def;
        if (workers > 1) pool.attach(def);
        std::uint64_t scene = 0, joints = 0;
        for (const SimdPath path : paths) {
            CAPTURE(std::string(simdPathName(path)));
            ForcedSimdPath forced(path);
            const std::uint64_t sceneDigest = runDigest(def, 90);
            const std::uint64_t jointDigest = runJointDigest(def, 120);
            if (path == paths.front()) {
                scene = sceneDigest;
                joints = jointDigest;
            }
            CHECK(sceneDigest == scene);
            CHECK(jointDigest == joints);
        }
    }
}

namespace {

using ZeroProblem = rigid2d::testing::ContactProblem;

// Where the sign of a zero can tell the paths apart: bodies at rest with velocities of -0 or +0,
// no gravity, axis-aligned normals whose zero component is signed, no friction or some, contacts
// of one and two points mixed so that a block's lanes differ in their point counts (the second
// point of a one-point lane, run in a block of eight, must not touch it: WideContact::shortLanes).
ZeroProblem makeZeroProblem(std::uint32_t seed) {
    std::mt19937 rng(seed);
    const float zeros[] = {0.0f, -0.0f};
    const auto pick = [&](auto const& values) {
        return values[std::uniform_int_distribution<std::size_t>(0, std::size(values) - 1)(rng)];
    };
    ZeroProblem p;
    const std::uint32_t bodies = 120;
    p.states.resize(bodies + 1);
    p.motions.resize(bodies + 1);
    for (std::uint32_t i = 1; i <= bodies; ++i) {
        p.states[i].v = {pick(zeros), pick(zeros)};
        p.states[i].w = pick(zeros);
        p.motions[i].invMass = i % 9 == 0 ? 0.0f : 1.0f;
        p.motions[i].invInertia = i % 4 == 0 ? 0.0f : 6.0f;
    }
    const Vec2 normals[] = {{0.0f, 1.0f},  {-0.0f, 1.0f},  {1.0f, 0.0f},  {1.0f, -0.0f},
                            {0.0f, -1.0f}, {-0.0f, -1.0f}, {-1.0f, 0.0f}, {-1.0f, -0.0f}};
    const float offsets[] = {0.0f, -0.0f, 0.5f, -0.5f};
    const float impulses[] = {0.0f, 0.0f, 0.25f};
    std::uniform_int_distribution<std::uint32_t> body(0, bodies);
    while (p.constraints.size() < 400) {
        const std::uint32_t a = body(rng), b = body(rng);
        if (a == b) continue;
        ContactConstraint& c = p.add(a, b);
        Manifold& m = c.surface->manifold;
        m.normal = pick(normals);
        c.surface->friction = p.constraints.size() % 2 == 0 ? 0.0f : 0.4f;
        m.pointCount = std::uniform_int_distribution<int>(0, 4)(rng) == 0 ? 2 : 1;
        for (int k = 0; k < m.pointCount; ++k) {
            ManifoldPoint& q = m.points[k];
            q.anchorA = {pick(offsets), pick(offsets)};
            q.anchorB = {pick(offsets), pick(offsets)};
            // The separation of the anchors' offset along the normal (baseSeparation).
            q.separation = pick(offsets) * 0.01f + dot(q.anchorB - q.anchorA, m.normal);
            q.normalImpulse = pick(impulses);
            q.tangentImpulse = pick(offsets) * pick(impulses);
        }
    }
    return p;
}

} // namespace

TEST_CASE("simd paths: the same solver bits, signs of zeros included, in blocks of any width") {
    const std::vector<WideVariant> variants = wideVariants();
    SolverSettings settings;
    settings.dt = 1.0f / 60.0f;
    for (std::uint32_t seed = 1; seed <= 200; ++seed) {
        CAPTURE(seed);
        std::vector<ZeroProblem> solved;
        for (const WideVariant& variant : variants) {
            ForcedSimdPath forced(variant.path);
            ZeroProblem& p = solved.emplace_back(makeZeroProblem(seed));
            ContactSolverScratch scratch;
            scratch.kernels8 = variant.kernels8;
            ConstraintSummary summary;
            summarizeConstraints(p.constraints, summary);
            solveSoftStep(p.states, p.motions, {}, p.constraints, summary, settings, scratch);
        }
        for (std::size_t k = 1; k < solved.size(); ++k) {
            CAPTURE(variants[k].name);
            const std::size_t bytes = solved[0].states.size() * sizeof(SolverState);
            CHECK(std::memcmp(solved[k].states.data(), solved[0].states.data(), bytes) == 0);
        }
    }
}
