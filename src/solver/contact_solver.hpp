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
//   the impulses stored in the contacts' manifolds (the next step's warm start)
//
// The current separation of a point is its separation at the start of the step corrected by the
// bodies' position deltas, so the narrow phase runs once per step. Bodies are a dense array of the
// awake bodies split in hot state and cold motion data (slot 0 is a static body that never
// moves); constraints a dense array in contact order. Gauss-Seidel in colour order
// (contact_colouring.hpp): the constraints of one colour share no movable body and are solved four
// or eight at a time (wide_contacts.hpp, the width that of the SIMD path: simd_path.hpp), then the
// overflow ones one at a time. The colouring follows the
// constraint order the world fixes, so the result is deterministic. A world of many islands is
// solved by groups of islands, each group's whole step at once, within the cache
// (contact_groups.hpp); the bits are the same.

#include <cstdint>
#include <span>
#include <vector>

#include "core/parallel_stages.hpp"
#include "rigid2d/function_ref.hpp"
#include "solver/contact_colouring.hpp"
#include "solver/contact_groups.hpp"
#include "solver/contact_prepare.hpp"
#include "solver/joint_solver.hpp"
#include "solver/simd_path.hpp"
#include "solver/solver_types.hpp"
#include "solver/wide_contacts.hpp"
#include "solver/wide_joints.hpp"

namespace rigid2d::detail {

/// What one stage of the soft step runs (solveSoftStep's stage list).
enum class SoftStepStageKind : std::uint8_t {
    PackContacts,
    PrepareOverflow,
    IntegrateVelocities,
    IntegratePositions,
    IntegrateGroupVelocities, ///< the bodies of a group of islands (contact_groups.hpp)
    IntegrateGroupPositions,
    WarmStartPoints, ///< the point joints' blocks of one colour
    WarmStartRevolutes,
    WarmStartScalarJoints,
    WarmStartContacts,
    WarmStartOverflow,
    SolvePoints, ///< with or without bias, as all the solve kinds
    SolveRevolutes,
    SolveScalarJoints,
    SolveContacts,
    SolveOverflow,
    RestituteContacts,
    RestituteOverflow,
    StoreContactImpulses,
    StoreOverflowImpulses,
    StorePointImpulses,
    StoreRevoluteImpulses,
    StoreBodies, ///< solveSoftStep's `store` over a range of body slots
    /// Whole groups of islands (contact_groups.hpp), each running its own stages
    /// (ContactSolverScratch::groupStages) on the participant that took it.
    RunGroups,
};

/// One stage: its kind and where its items start in the array it runs over.
struct SoftStepStage {
    SoftStepStageKind kind = SoftStepStageKind::IntegrateVelocities;
    bool useBias = false;
    std::uint32_t first = 0;
};

template <int W>
struct WideKernels;

/// The blocks of one lane width: the contacts, the point joints and the other revolute joints.
template <int W>
struct WideBlocks {
    std::vector<WideContact<W>> contacts;
    std::vector<WideContactCold<W>> contactsCold; ///< one per block of `contacts`
    std::vector<WideJoint<W>> points;
    std::vector<WideRevolute<W>> revolutes;
};

/// What the coloured solve reads of the constraints before it prepares them: their body slots (for
/// the colouring) and whether any bounces (for the restitution stage). The step's gather writes it
/// before it writes the constraints, so that the colouring can run while the workers write them;
/// the continuous and sleep stages read the body slots here too.
struct ConstraintSummary {
    std::vector<ConstraintBodies> bodies; ///< per constraint, in the same order
    bool bouncy = false;                  ///< some constraint has a restitution
    /// The joints the wide loops may take (WideJointKind other than None), in joint order, and
    /// their body slots: what the joints' colouring reads, listed as the gather writes the joints
    /// instead of read back from them (a 192-byte record a joint).
    std::vector<WideJointCandidate> jointCandidates;
    std::vector<ConstraintBodies> jointBodies;
};

/// The summary of `constraints` in one pass, for callers without a gather of their own.
void summarizeConstraints(std::span<const ContactConstraint> constraints,
                          ConstraintSummary& summary);

/// Lists `joint` (at `index` of the joints) in the summary if the wide loops may take it: how the
/// gather, as it writes each joint, and summarizeJoints build the joints' part alike.
inline void listJointCandidate(ConstraintSummary& summary, std::uint32_t index,
                               const JointConstraint& joint) {
    if (joint.wideKind == WideJointKind::None) return;
    summary.jointCandidates.push_back({index, joint.wideKind});
    summary.jointBodies.push_back({joint.bodyA, joint.bodyB});
}

/// The joints' part of the summary in one pass, for callers without a gather of their own.
void summarizeJoints(std::span<const JointConstraint> joints, ConstraintSummary& summary);

/// A write-back of the solved body slots [first, end) (solveSoftStep).
using SlotStore = FunctionRef<void(std::uint32_t first, std::uint32_t end)>;

/// Working memory of the coloured solve, kept between steps so that a warm step does not
/// allocate.
struct ContactSolverScratch {
    ConstraintSummary summary; ///< filled by the step's gather (step/solve.cpp)
    std::vector<std::uint8_t> movable;
    std::vector<std::uint8_t> jointed; ///< PrepareContext::jointed
    std::vector<std::uint32_t> bodyColours;
    ContactColouring colouring;
    // The joints: the revolute joints (the summary's candidates) coloured and solved in wide
    // blocks, the plain ones first, the rest (other kinds, the joints the colouring could not
    // place) one at a time after them, in array order.
    ContactColouring jointColouring;
    std::vector<std::uint32_t> scalarJoints;
    ColourBlocks pointBlocks, revoluteBlocks;
    /// The constraints' islands in groups, and the blocks laid out by colour and group: the
    /// contacts', the joints' (pointBlocks and revoluteBlocks are those of all groups by colour
    /// when not group-major).
    ContactGroups contactGroups;
    ContactLayout contactLayout;
    JointLayout jointLayout;
    std::vector<ConstraintBodies> scalarJointBodies; ///< the grouping's input
    /// The constraints a group collects islands up to (tests make it small).
    std::uint32_t groupConstraints = kGroupConstraints;
    /// The SIMD path of the last step; the blocks are in wide8 for Avx2 and Avx512 (or kernels8),
    /// else in wide4.
    SimdPath path = SimdPath::Portable;
    WideBlocks<4> wide4;
    WideBlocks<8> wide8;
    /// When set, the step runs these 8-wide kernels whatever the path: tests run the 8-wide
    /// layout on portable lanes, on a machine without AVX2 too.
    const WideKernels<8>* kernels8 = nullptr;
    // The stages of the substeps, run on the world's workers.
    std::vector<StagePlan> plans;
    std::vector<SoftStepStage> stages;
    /// A RunGroups stage's groups: group g's stages are groupStages[groupStageStart[g] ..
    /// groupStageStart[g + 1]), each run whole (groupPlans' item counts).
    std::vector<StagePlan> groupPlans;
    std::vector<SoftStepStage> groupStages;
    std::vector<std::uint32_t> groupStageStart;
    ParallelStages runner;
    /// Per constraint, set where it was hit at SolverSettings::hitThreshold or faster: written by
    /// the solve as it stores the impulses in the manifolds.
    std::vector<std::uint8_t> hitEvents;
    /// The overflow list's constraints, solved one at a time, in the list's order.
    std::vector<ScalarContact> overflowContacts;
    // The step's gather and write-back around the solve (step/solve.cpp): where each segment of
    // the contact array starts among the constraints; the slots of the bodies the write-back had
    // to reset.
    std::vector<std::uint32_t> segmentStarts;
    std::vector<std::uint32_t> resetSlots;
    /// The gather's lists of solved contacts: segment s's at [s * segment length, + its count),
    /// each contact's index and body slots.
    std::vector<std::uint32_t> solvedContacts;
    std::vector<ConstraintBodies> solvedBodies;
    /// colourContactsAhead coloured the constraints of this step: solveSoftStep takes that.
    bool colouredAhead = false;
};

/// Colours the contacts of `summary` as solveSoftStep would, which then takes this colouring
/// instead of making its own, once: the step's gather colours while the workers load the
/// constraints (the colouring reads only the body slots and whether the bodies move).
void colourContactsAhead(std::span<const SolverMotion> motions, const ConstraintSummary& summary,
                         ContactSolverScratch& scratch);

/// Runs the whole soft step over the bodies (`states`/`motions`, slot 0 = the static slot),
/// `joints` (the revolute joints coloured and in wide blocks, then the rest one at a time in
/// array order) and `constraints` (`summary` describes them), coloured and in wide blocks, on the
/// SIMD path solverSimdPath() gives (any path, the same bits). Impulses stay in the joints, and go
/// to the constraints' manifolds (with the hit flags in scratch.hitEvents). With a `scheduler` (a
/// WorldDef's workers and task callbacks) each colour's blocks and the bodies' integration are
/// split across its workers (core/parallel_stages.hpp); the result is the same bits for any worker
/// count.
///
/// `store`, when given, is called last over ranges of body slots [first, end) that cover slots
/// 1.. once (their states are then final), from the same workers: a range goes mostly to the
/// worker that integrated those bodies, whose cache holds their states.
void solveSoftStep(std::span<SolverState> states, std::span<const SolverMotion> motions,
                   std::span<JointConstraint> joints,
                   std::span<const ContactConstraint> constraints, const ConstraintSummary& summary,
                   const SolverSettings& settings, ContactSolverScratch& scratch,
                   const WorldDef* scheduler = nullptr, const SlotStore* store = nullptr);

/// The same step with every joint and constraint solved one at a time in array order: the
/// reference the coloured solve equals when `joints` and `constraints` are given in its solve
/// order (tests).
void solveSoftStepSequential(std::span<SolverState> states, std::span<const SolverMotion> motions,
                             std::span<JointConstraint> joints,
                             std::span<const ContactConstraint> constraints,
                             const SolverSettings& settings);

} // namespace rigid2d::detail
