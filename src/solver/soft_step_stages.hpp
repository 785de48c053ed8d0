#pragma once
// The stage lists of the soft step (contact_solver.hpp): which stages run, over which items, in
// which order, and how finely each may be split among the workers.

#include <cstddef>
#include <cstdint>

#include "solver/contact_solver.hpp"

namespace rigid2d::detail {

/// What a step's stage list depends on beyond the scratch's colourings, blocks and groups.
struct SoftStepShape {
    std::size_t bodyCount = 0; ///< solver slots, the static slot included
    int substeps = 1;
    bool bouncy = false;      ///< some constraint has a restitution: restitution stages
    bool storeBodies = false; ///< a write-back of the bodies ends the step
    std::int32_t workers = 1;
};

/// Lists the stages of one step in scratch.plans and scratch.stages: colour by colour over all
/// the constraints, or, when scratch.contactLayout is group-major, one RunGroups stage whose
/// items are the groups of islands (contact_groups.hpp), each group's whole step listed in
/// scratch.groupStages.
void listSoftStepStages(const SoftStepShape& shape, ContactSolverScratch& scratch);

} // namespace rigid2d::detail
