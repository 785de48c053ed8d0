#pragma once
// Comparisons of a wide solve with the sequential solve of the same constraints: equal, or to
// rounding where the compiler may fuse multiply-adds in the scalar code (the wide lanes never
// fuse: lanes.hpp).

#include <doctest/doctest.h>

#include <cstddef>
#include <vector>

#include "solver/solver_types.hpp"

namespace rigid2d::testing {

inline void checkSame(float wide, float sequential) {
#if defined(__FMA__) || defined(__ARM_FEATURE_FMA)
    CHECK(wide == doctest::Approx(sequential).epsilon(1e-4).scale(1.0));
#else
    CHECK(wide == sequential);
#endif
}

/// Every body's velocity and position deltas.
inline void checkSameBodies(const std::vector<detail::SolverState>& wide,
                            const std::vector<detail::SolverState>& sequential) {
    REQUIRE(wide.size() == sequential.size());
    for (std::size_t i = 0; i < wide.size(); ++i) {
        const detail::SolverState& a = wide[i];
        const detail::SolverState& b = sequential[i];
        checkSame(a.v.x, b.v.x);
        checkSame(a.v.y, b.v.y);
        checkSame(a.w, b.w);
        checkSame(a.dp.x, b.dp.x);
        checkSame(a.dp.y, b.dp.y);
        checkSame(a.dAngle, b.dAngle);
    }
}

} // namespace rigid2d::testing
