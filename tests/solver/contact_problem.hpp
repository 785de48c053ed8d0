#pragma once
// A contact solver problem for the solver tests: bodies, constraints and, one per constraint, the
// surface each is loaded from and stores its impulses to, as the step's gather sets them up.

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
    std::vector<detail::ContactSurface> surfaces;

    static constexpr std::size_t kCapacity = 1024;

    /// A constraint between slots `a` and `b` and its surface, which the caller fills: the solve
    /// reads the friction, restitution and points from it.
    detail::ContactConstraint& add(std::uint32_t a, std::uint32_t b) {
        surfaces.reserve(kCapacity);
        REQUIRE(surfaces.size() < kCapacity);
        detail::ContactConstraint& c = constraints.emplace_back();
        c.bodyA = a;
        c.bodyB = b;
        c.surface = &surfaces.emplace_back();
        return c;
    }
};

} // namespace rigid2d::testing
