#pragma once
// The contact solver's inner loops four constraints at a time. The constraints of one colour
// (contact_colouring.hpp) share no movable body, so they are packed four to a WideContact, in
// structure-of-arrays form, and solved in SIMD lanes: gather the lanes' bodies, run the same
// arithmetic as the scalar solver (contact_solver.cpp) lane by lane, scatter the bodies back.
// Each lane computes exactly what the scalar solver computes for its constraint, so a wide solve
// equals a scalar solve of the constraints in colour order, bit for bit up to the sign of zeros.

#include <cstdint>
#include <span>
#include <vector>

#include "solver/contact_colouring.hpp"
#include "solver/contact_prepare.hpp"
#include "solver/solver_types.hpp"

namespace rigid2d::detail {

inline constexpr std::uint32_t kNoConstraint = 0xFFFFFFFFu;

/// One contact point of four constraints.
struct alignas(16) WidePoint {
    float anchorAX[4], anchorAY[4], anchorBX[4], anchorBY[4];
    float baseSeparation[4];
    float normalMass[4], tangentMass[4];
    float normalImpulse[4], tangentImpulse[4], maxNormalImpulse[4];
};

/// Four constraints. An unused lane (the last block of a colour) points at the static slot with
/// zero masses, and a lane's missing second point has zero masses and impulses: their arithmetic
/// is done but applies zero impulses (which can at most turn a -0 velocity into +0).
struct alignas(16) WideContact {
    std::uint32_t bodyA[4], bodyB[4];
    std::uint32_t constraint[4]; ///< index into the constraint array, kNoConstraint if unused
    float normalX[4], normalY[4], friction[4];
    float invMassA[4], invInertiaA[4], invMassB[4], invInertiaB[4];
    float biasRate[4], massScale[4], impulseScale[4];
    int pointCount = 0; ///< most points of a lane: 1 or 2
    /// Bit i set where lane i's body A (B) can move: only those are written back (movableLanes).
    std::uint8_t movableA = 0, movableB = 0;
    WidePoint points[kMaxManifoldPoints];
};

/// Where each colour's blocks start in a packed array: colour k is blocks [start[k], start[k + 1]).
/// The blocks of one colour share no movable body, so workers may solve them at the same time.
struct ColourBlocks {
    std::uint32_t start[kContactColourCount + 1] = {};
};

/// Where each colour's blocks lie in the packed array: four constraints to a block, colour by
/// colour, each colour starting a new block.
void layOutWideContacts(const ContactColouring& colouring, ColourBlocks& blocks);

/// Prepares the constraints of blocks [begin, end) of `out` (laid out by layOutWideContacts) and
/// packs them, lanes in ascending constraint order as colouring.colour(k) lists them; the
/// overflow list is left alone. Each block is written from its own constraints only, so the
/// blocks may be packed in pieces, in any order.
void packWideContacts(const PrepareContext& context, std::span<ContactConstraint> constraints,
                      const ContactColouring& colouring, const ColourBlocks& blocks,
                      std::span<WideContact> out, std::size_t begin, std::size_t end);

void warmStartWide(std::span<SolverState> bodies, std::span<const WideContact> wide);
void solveWide(std::span<SolverState> bodies, std::span<WideContact> wide, float inverseH,
               float maxPushSpeed, bool useBias);
/// Copies the accumulated impulses of each used lane back to its constraint.
void storeWideImpulses(std::span<const WideContact> wide, std::span<ContactConstraint> constraints);

} // namespace rigid2d::detail
