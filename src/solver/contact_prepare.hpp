#pragma once
// Preparing one contact constraint for the step: the bodies' inverse masses, the soft
// coefficients, each point's effective masses and approach velocity. Shared by the sequential
// path, the overflow list and the packing of wide blocks (which prepares as it packs).

#include <cstdint>
#include <span>
#include <vector>

#include "solver/joint_types.hpp"
#include "solver/solver_types.hpp"

namespace rigid2d::detail {

struct PrepareContext {
    std::span<const SolverState> bodies;
    std::span<const SolverMotion> motions;
    Softness contact{};
    Softness stiff{}; ///< contacts against an immovable body: only one side gives way
    /// Largest mass ratio of the two bodies as one contact sees them (see contact_prepare.cpp);
    /// 0 = off.
    float maxMassRatio = 0.0f;
    /// Per solver slot, nonzero for a body held by a joint other than a mouse joint (empty: no
    /// body is). The ratio limit leaves a contact alone where the heavier body is held so.
    std::span<const std::uint8_t> jointed{};
};

/// Fills `jointed` (one entry per solver slot, `bodyCount` of them) for PrepareContext::jointed.
void markJointedBodies(std::span<const JointConstraint> joints, std::size_t bodyCount,
                       std::vector<std::uint8_t>& jointed);

void prepareConstraint(const PrepareContext& context, ContactConstraint& c);

} // namespace rigid2d::detail
