// The coloured solve of the revolute joints in wide blocks, on every SIMD path, against the plain
// one-at-a-time solve of the same joints in the coloured solve's order: every lane does the scalar
// revolute joint's arithmetic, so the two agree exactly (==; the scalar warm start's zero angular
// impulse may flip the sign of a zero), or to rounding if the compiler may fuse multiply-adds in
// the scalar code.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

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

struct Problem {
    std::vector<SolverState> states;
    std::vector<SolverMotion> motions;
    std::vector<JointConstraint> joints;
};

// Chains of bodies (neighbours share a body, as in a rope or a grid), some hung on the static
// slot, joined at random anchors that start apart (the bias has work to do), warm-started; a hub
// body with 50 joints (40 of them revolute, more than the 20 colours) forces some into the
// overflow list; one joint in five is limited, one motorised and sprung (warm-started rows on the
// rotation), one a distance joint (solved one at a time after the wide ones), one sprung with
// another frequency or damping, so that lanes side by side hold springs of three settings.
Problem makeProblem(std::uint32_t seed, std::uint32_t bodyCount) {
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
    }
    auto addJoint = [&](std::uint32_t a, std::uint32_t b) {
        JointConstraint& c = p.joints.emplace_back();
        c.joint = static_cast<std::uint32_t>(p.joints.size() - 1);
        c.bodyA = a;
        c.bodyB = b;
        c.mA = p.motions[a].invMass;
        c.iA = p.motions[a].invInertia;
        c.mB = p.motions[b].invMass;
        c.iB = p.motions[b].invInertia;
        c.frameA = {0.5f * u(rng), 0.5f * u(rng)};
        c.frameB = {0.5f * u(rng), 0.5f * u(rng)};
        c.deltaCenter = c.frameA - c.frameB + Vec2{0.05f * u(rng), 0.05f * u(rng)};
        c.deltaAngle = 0.1f * u(rng);
        c.impulses.linear = {0.1f * u(rng), 0.1f * u(rng)};
        static const JointParams limited = [] {
            JointParams l;
            l.enableLimit = true;
            l.lower = -0.05f;
            l.upper = 0.05f;
            return l;
        }();
        static const JointParams rod = [] {
            JointParams r;
            r.length = 0.3f;
            return r;
        }();
        static const JointParams motorisedSpring = [] {
            JointParams m;
            m.enableMotor = true;
            m.motorSpeed = 1.0f;
            m.maxMotorForce = 5.0f;
            m.enableSpring = true;
            m.hertz = 4.0f;
            m.dampingRatio = 0.7f;
            return m;
        }();
        // Springs that differ from the motorised one's in their frequency, or in their damping.
        const auto spring = [](float hertz, float dampingRatio) {
            JointParams s;
            s.enableSpring = true;
            s.hertz = hertz;
            s.dampingRatio = dampingRatio;
            return s;
        };
        static const JointParams looseSpring = spring(9.0f, 0.7f);
        static const JointParams dampedSpring = spring(4.0f, 0.2f);
        if (p.joints.size() % 5 == 0) {
            c.params = &limited;
            c.impulses.lower = 0.01f * std::fabs(u(rng));
        } else if (p.joints.size() % 5 == 1) {
            c.type = JointType::Distance;
            c.params = &rod;
            c.impulses.linear = {};
        } else if (p.joints.size() % 5 == 2) {
            c.params = &motorisedSpring;
            c.impulses.spring = 0.01f * u(rng);
            c.impulses.motor = 0.01f * u(rng);
        } else if (p.joints.size() % 10 == 3 || p.joints.size() % 20 == 8) {
            c.params = p.joints.size() % 10 == 3 ? &looseSpring : &dampedSpring;
            c.impulses.spring = 0.01f * u(rng);
        }
        c.wideKind = wideJointKind(c.type, *c.params, c.impulses);
    };
    for (std::uint32_t i = 1; i <= bodyCount; ++i) {
        if (i % 10 == 1) addJoint(0, i);              // each chain hangs on the static slot
        if (i % 10 != 0) addJoint(i, i + 1);          // the chain
        if (i + 10 <= bodyCount) addJoint(i, i + 10); // chains side by side: a grid
    }
    for (std::uint32_t b = 2; b < 53 && b <= bodyCount; ++b) addJoint(1, b);
    return p;
}

// What a reused constraint record may still hold from another joint.
const JointParams& staleParams() {
    static const JointParams stale = [] {
        JointParams p;
        p.enableMotor = p.enableSpring = p.enableLimit = true;
        p.motorSpeed = 3.0f;
        p.maxMotorForce = 50.0f;
        p.hertz = 5.0f;
        p.lower = -0.01f;
        p.upper = 0.01f;
        return p;
    }();
    return stale;
}

SolverSettings settings() {
    SolverSettings s;
    s.dt = 1.0f / 60.0f;
    s.substeps = 4;
    return s;
}

} // namespace

TEST_CASE("the wide coloured joint solve equals the sequential solve in its order") {
    for (const WideVariant& variant : wideVariants())
        for (const std::uint32_t seed : {1u, 2u, 3u}) {
            CAPTURE(variant.name);
            CAPTURE(seed);
            const ForcedSimdPath forced(variant.path);
            Problem wide = makeProblem(seed, 200);
            // The gather writes only the first line of a point joint's constraint: whatever the
            // rest holds (here a motor, a spring and a limit, with impulses) must not matter, on
            // the wide path or in the overflow list.
            for (JointConstraint& c : wide.joints) {
                if (c.wideKind != WideJointKind::Point) continue;
                c.params = &staleParams();
                c.deltaAngle = 2.0f;
                c.axis = {0.6f, 0.8f};
                c.impulses.spring = c.impulses.motor = c.impulses.lower = c.impulses.upper = 0.5f;
            }
            ContactSolverScratch scratch;
            scratch.kernels8 = variant.kernels8;
            ConstraintSummary summary;
            summarizeJoints(wide.joints, summary);
            REQUIRE(!summary.jointCandidates.empty());
            solveSoftStep(wide.states, wide.motions, wide.joints, {}, summary, settings(), scratch);
            // The solve order: the point blocks lane by lane, the other revolute blocks, then the
            // scalar joints.
            REQUIRE(scratch.path == variant.path);
            std::vector<std::uint32_t> order;
            std::size_t pointCount = 0;
            const auto listBlocks = [&](const auto& blocks) {
                for (const auto& w : blocks.points)
                    for (const std::uint32_t j : w.joint)
                        if (j != kNoWideJoint) order.push_back(j);
                pointCount = order.size();
                for (const auto& w : blocks.revolutes)
                    for (const std::uint32_t j : w.point.joint)
                        if (j != kNoWideJoint) order.push_back(j);
            };
            if (variant.width() == 8)
                listBlocks(scratch.wide8);
            else
                listBlocks(scratch.wide4);
            const std::size_t wideCount = order.size();
            order.insert(order.end(), scratch.scalarJoints.begin(), scratch.scalarJoints.end());
            REQUIRE(order.size() == wide.joints.size());
            REQUIRE(pointCount > 100);
            REQUIRE(wideCount - pointCount > 100);
            REQUIRE(!scratch.jointColouring.overflow().empty());

            Problem sequential = makeProblem(seed, 200);
            std::vector<JointConstraint> permuted;
            for (const std::uint32_t i : order) permuted.push_back(sequential.joints[i]);
            solveSoftStepSequential(sequential.states, sequential.motions, permuted, {},
                                    settings());

            checkSameBodies(wide.states, sequential.states);
            std::size_t overflowPoints = 0;
            for (std::size_t k = 0; k < order.size(); ++k) {
                const JointImpulses& a = wide.joints[order[k]].impulses;
                const JointImpulses& b = permuted[k].impulses;
                checkSame(a.linear.x, b.linear.x);
                checkSame(a.linear.y, b.linear.y);
                if (permuted[k].wideKind == WideJointKind::Point) {
                    overflowPoints += k >= wideCount ? 1u : 0u;
                    continue; // the rest of its impulses is not the solver's
                }
                checkSame(a.length, b.length);
                checkSame(a.spring, b.spring);
                checkSame(a.motor, b.motor);
                checkSame(a.lower, b.lower);
                checkSame(a.upper, b.upper);
            }
            CHECK(overflowPoints > 0);
            CHECK(wide.states[0].v.x == 0.0f);
            CHECK(wide.states[0].w == 0.0f);
        }
}

TEST_CASE("revolute joints are solved wide, the plain ones as bare point constraints") {
    const JointParams plain;
    JointImpulses impulses;
    CHECK(wideJointKind(JointType::Revolute, plain, impulses) == WideJointKind::Point);
    JointParams motorised;
    motorised.enableMotor = true;
    CHECK(wideJointKind(JointType::Revolute, motorised, impulses) == WideJointKind::Revolute);
    impulses.lower = 1.0f; // a limit switched off with its impulse kept is still warm-started
    CHECK(wideJointKind(JointType::Revolute, plain, impulses) == WideJointKind::Revolute);
    impulses.lower = 0.0f;
    CHECK(wideJointKind(JointType::Weld, plain, impulses) == WideJointKind::None);
}
