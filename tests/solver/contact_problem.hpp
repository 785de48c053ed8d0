#pragma once
// A contact solver problem for the solver tests: bodies, constraints and, one per constraint, the
// manifold each is loaded from and stores its impulses to, as the step's gather sets them up.

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "solver/contact_solver.hpp"

namespace rigid2d::testing {

struct ContactProblem {
    std::vector<detail::SolverState> states;
    std::vector<detail::SolverMotion> motions;
    std::vector<detail::ContactConstraint> constraints;
    /// Moved with the problem, never copied or grown past kCapacity: the constraints point into
    /// it.
    std::vector<detail::Manifold> manifolds;

    static constexpr std::size_t kCapacity = 1024;

    /// A constraint between slots `a` and `b` and its manifold, which the caller fills: the solve
    /// reads the points from it.
    detail::ContactConstraint& add(std::uint32_t a, std::uint32_t b) {
        manifolds.reserve(kCapacity);
        REQUIRE(manifolds.size() < kCapacity);
        detail::ContactConstraint& c = constraints.emplace_back();
        c.bodyA = a;
        c.bodyB = b;
        c.manifold = &manifolds.emplace_back();
        return c;
    }
};

} // namespace rigid2d::testing
