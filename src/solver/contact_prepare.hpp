#pragma once
// Preparing one contact constraint for the step: the bodies' inverse masses, the soft
// coefficients, each point's effective masses and approach velocity. Shared by the sequential
// path, the overflow list and the packing of wide blocks (which prepares as it packs).

#include <span>

#include "solver/solver_types.hpp"

namespace rigid2d::detail {

struct PrepareContext {
    std::span<const SolverState> bodies;
    std::span<const SolverMotion> motions;
    Softness contact{};
    Softness stiff{}; ///< contacts against an immovable body: only one side gives way
    /// Largest mass ratio of the two bodies as one contact sees them (see prepareConstraint);
    /// 0 = off.
    float maxMassRatio = 0.0f;
};

void prepareConstraint(const PrepareContext& context, ContactConstraint& c);

} // namespace rigid2d::detail
