#pragma once
// The contact solver: Box2D v3's "soft step" (Erin Catto, Solver2D). Per step:
//
//   prepare constraints (effective masses, soft parameters, anchors relative to centres of mass)
//   repeat substeps times, with h = dt / substeps:
//       integrate velocities (gravity, forces, damping)
//       warm start (apply last impulses)
//       solve contacts with a soft, capped push-out bias
//       integrate positions (into per-body deltas dp, dq)
//       relax: solve again without bias so push-out does not become bounce
//   restitution for points that approached faster than the threshold
//
// The current separation of a point is its separation at the start of the step corrected by the
// bodies' position deltas, so the narrow phase runs once per step. Bodies are a dense array of the
// awake bodies split in hot state and cold motion data (slot 0 is a static body that never
// moves); constraints a dense array in contact order. Gauss-Seidel in colour order
// (contact_colouring.hpp): the constraints of one colour share no movable body and are solved four
// at a time (wide_contacts.hpp), then the overflow ones one at a time. The colouring follows the
// constraint order the world fixes, so the result is deterministic.

#include <cstdint>
#include <span>
#include <vector>

#include "solver/contact_colouring.hpp"
#include "solver/contact_prepare.hpp"
#include "solver/joint_solver.hpp"
#include "solver/solver_types.hpp"
#include "solver/wide_contacts.hpp"
#include "solver/wide_joints.hpp"

namespace rigid2d::detail {

/// Working memory of the coloured solve, kept between steps so that a warm step does not
/// allocate.
struct ContactSolverScratch {
    std::vector<ConstraintBodies> bodies;
    std::vector<std::uint8_t> movable;
    std::vector<std::uint8_t> jointed; ///< PrepareContext::jointed
    std::vector<std::uint32_t> bodyColours;
    ContactColouring colouring;
    std::vector<WideContact> wide;
    // The joints: the revolute joints (candidates) coloured and solved four at a time, the plain
    // ones first, the rest (other kinds, the joints the colouring could not place) one at a time
    // after them, in array order.
    std::vector<std::uint32_t> jointCandidates;
    std::vector<ConstraintBodies> jointBodies;
    ContactColouring jointColouring;
    std::vector<WideJoint> wideJoints;
    std::vector<WideRevolute> wideRevolutes;
    std::vector<std::uint32_t> scalarJoints;
};

/// Loads a constraint's points from a manifold (anchors, separation, warm-start impulses).
void loadConstraintPoints(ContactConstraint& constraint, const Manifold& manifold);

/// Runs the whole soft step over the bodies (`states`/`motions`, slot 0 = the static slot),
/// `joints` (the revolute joints coloured and four at a time, then the rest one at a time in
/// array order) and `constraints`, coloured and four at a time; impulses stay in the joints and
/// constraints.
void solveSoftStep(std::span<SolverState> states, std::span<const SolverMotion> motions,
                   std::span<JointConstraint> joints, std::span<ContactConstraint> constraints,
                   const SolverSettings& settings, ContactSolverScratch& scratch);

/// The same step with every joint and constraint solved one at a time in array order: the
/// reference the coloured solve equals when `joints` and `constraints` are given in its solve
/// order (tests).
void solveSoftStepSequential(std::span<SolverState> states, std::span<const SolverMotion> motions,
                             std::span<JointConstraint> joints,
                             std::span<ContactConstraint> constraints,
                             const SolverSettings& settings);

} // namespace rigid2d::detail
