#pragma once
// The contact solver's blocks of W constraints (W = 4 or 8 lanes). The constraints of one colour
// (contact_colouring.hpp) share no movable body, so they are packed W to a WideContact, in
// structure-of-arrays form, and solved in SIMD lanes (wide_contact_kernels.hpp): gather the
// lanes' bodies, run the same arithmetic as the scalar solver (contact_solver.cpp) lane by lane,
// scatter the bodies back. Each lane computes exactly what the scalar solver computes for its
// constraint, so a wide solve equals a scalar solve of the constraints in colour order, bit for
// bit up to the sign of zeros, and the same bits for either width (see shortLanes).

#include <cstddef>
#include <cstdint>
#include <span>

#include "solver/contact_colouring.hpp"
#include "solver/contact_prepare.hpp"
#include "solver/solver_types.hpp"

namespace rigid2d::detail {

inline constexpr std::uint32_t kNoConstraint = 0xFFFFFFFFu;

/// One contact point of W constraints.
template <int W>
struct alignas(4 * W) WidePoint {
    float anchorAX[W], anchorAY[W], anchorBX[W], anchorBY[W];
    float baseSeparation[W];
    float normalMass[W], tangentMass[W];
    float normalImpulse[W], tangentImpulse[W], maxNormalImpulse[W];
};

/// W constraints: what the velocity passes (warm start, solve, relax) read and write. An unused
/// lane (the last block of a colour) points at the static slot with zero masses, and a lane's
/// missing second point has zero masses and impulses: their arithmetic is done but applies zero
/// impulses (which can at most turn a -0 velocity into +0).
template <int W>
struct alignas(4 * W) WideContact {
    std::uint32_t bodyA[W], bodyB[W];
    float normalX[W], normalY[W], friction[W];
    float invMassA[W], invInertiaA[W], invMassB[W], invInertiaB[W];
    int pointCount = 0; ///< most points of a lane: 1 or 2
    /// Bit i set where lane i's softness is the step's stiff one (PreparedBodies::stiff), else it
    /// is the contact one: a step has only the two (WideSoftness), so the lanes need not hold them.
    std::uint8_t stiffLanes = 0;
    /// Bit i set where lane i's body A (B) can move: only those are written back (movableLanes).
    std::uint8_t movableA = 0, movableB = 0;
    /// The 4-wide layout, which the golden hashes pin, runs a block's second point on all four of
    /// its lanes when one of them has two points, and that may flip the sign of a zero velocity
    /// in the others. A block of eight holds two such groups: bit i is set where lane i's group
    /// of four has fewer points than pointCount, and the loops leave those lanes as they were for
    /// the last point. Always 0 at width 4.
    std::uint8_t shortLanes = 0;
    WidePoint<W> points[kMaxManifoldPoints];
};

/// The rest of a block's lanes, which only the packing, the restitution pass and the store read:
/// where each lane came from and what bounces. Kept in an array beside the blocks: the dozen
/// velocity passes of a step stream the blocks from memory once a scene has some 50,000 contacts
/// (v3_many_pyramids: 7 MB of blocks; 256 bytes of padding per block made its solve 10% slower).
template <int W>
struct alignas(4 * W) WideContactCold {
    std::uint32_t constraint[W]; ///< index into the constraint array, kNoConstraint if unused
    Manifold* manifold[W];       ///< the manifold of the constraint's surface
    float restitution[W];
    float approachVelocity[kMaxManifoldPoints][W]; ///< SolverPoint's, per point
    /// Each lane's manifold's point count (0 for an unused lane): which points the packing
    /// prepares, and how many the store writes without reading the manifold, long after it left
    /// the cache.
    std::uint8_t lanePoints[W] = {};
    /// Bit i set where lane i has a restitution: the restitution pass skips a block without.
    std::uint8_t bouncyLanes = 0;
};

/// The two soft coefficients of the step's contacts (PrepareContext's), as the solve picks them
/// lane by lane with WideContact::stiffLanes.
struct WideSoftness {
    Softness contact{}, stiff{};
};

/// Where each colour's blocks start in a packed array: colour k is blocks [start[k], start[k + 1]).
/// The blocks of one colour share no movable body, so workers may solve them at the same time.
struct ColourBlocks {
    std::uint32_t start[kContactColourCount + 1] = {};
};

/// Constraints of one colour (of one group: contact_groups.hpp), order[orderBegin, orderBegin +
/// count), packed W to a block from block firstBlock on: each segment starts a new block.
struct ColourSegment {
    std::uint32_t orderBegin = 0;
    std::uint32_t count = 0;
    std::uint32_t firstBlock = 0;
};

/// Packs blocks [begin, end) of `out` from the constraints' surfaces (and the same blocks of
/// `cold`), each lane prepared as contact_prepare.hpp prepares a constraint, lanes in the order
/// the segment lists them. `segments` are the non-empty ones, by firstBlock, their blocks
/// contiguous. Each block is written from its own constraints only, so the blocks may be packed
/// in pieces, in any order.
template <int W>
void packWideContacts(const PrepareContext& context, std::span<const ContactConstraint> constraints,
                      std::span<const std::uint32_t> order, std::span<const ColourSegment> segments,
                      std::span<WideContact<W>> out, std::span<WideContactCold<W>> cold,
                      std::size_t begin, std::size_t end);

/// Stores each used lane's impulses and approach speeds in its manifold, and whether it was hit at
/// `hitThreshold` or faster in `hits` (one flag per constraint); `cold` is the blocks' own.
template <int W>
void storeWideImpulses(std::span<const WideContact<W>> wide,
                       std::span<const WideContactCold<W>> cold, float hitThreshold,
                       std::span<std::uint8_t> hits);

} // namespace rigid2d::detail
