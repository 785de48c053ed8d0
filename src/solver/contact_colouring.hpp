#pragma once
// Greedy graph colouring of contact constraints, so that the solver can work on several
// constraints at once: within one colour no two constraints share a body that the solver moves,
// so their updates cannot interfere and may run in SIMD lanes in any order.
//
// Constraints are visited in their given (canonical contact) order and each takes the lowest
// colour that neither of its movable bodies holds yet; the result depends only on that order, so
// it is deterministic and the same on every broad phase. A body that cannot move (the static slot,
// kinematic bodies: zero inverse mass and inertia) takes no colour: the solver never changes its
// velocity, so any number of constraints of one colour may share it. A constraint that finds no
// free colour goes to the overflow list, solved one at a time after the colours. Constraints
// against an immovable body never take colour 0 and have the last kStaticOnlyColours to
// themselves (as in Box2D v3), see contact_colouring.cpp for why.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace rigid2d::detail {

/// Colours a constraint may take; more colours mean a shorter overflow list but more, smaller
/// batches. Each body keeps its colours in a 32-bit mask.
inline constexpr int kContactColourCount = 24;
/// The last colours, which only constraints with one immovable body take.
inline constexpr int kStaticOnlyColours = 4;

/// Bands of body slots by which each colour's constraints are ordered (contact_colouring.cpp):
/// enough that every worker of a large machine gets bands of its own.
inline constexpr std::uint32_t kSlotBands = 128;
/// How far right a body slot is shifted to give its band, for `slotCount` slots.
[[nodiscard]] inline int slotBandShift(std::size_t slotCount) noexcept {
    int shift = 0;
    while (((slotCount > 0 ? slotCount - 1 : 0) >> shift) >= kSlotBands) ++shift;
    return shift;
}
/// Groups of the counting sort: a band of a colour, or the overflow list.
inline constexpr std::uint32_t kColouringBuckets = (kContactColourCount + 1) * kSlotBands;

/// The two body slots of one constraint.
struct ConstraintBodies {
    std::uint32_t a = 0;
    std::uint32_t b = 0;
    bool operator==(const ConstraintBodies&) const = default;
};

/// Constraint indices grouped by colour: colour k is order[start[k] .. start[k + 1]), the overflow
/// list is order[start[kContactColourCount] .. order.size()). Within a colour, constraints are
/// ordered by the band of their lowest movable body slot, then by index; the overflow list by
/// index.
struct ContactColouring {
    std::vector<std::uint8_t> colourOf; ///< per constraint; kContactColourCount = overflow
    std::vector<std::uint32_t> order;
    std::uint32_t start[kContactColourCount + 1] = {};
    std::vector<std::uint16_t> bucketOf;   ///< scratch: per constraint, colour and band
    std::vector<std::uint32_t> bucketNext; ///< scratch: per bucket, where its next one goes
    /// The input of the colouring above, which depends on nothing else: a pile at rest keeps the
    /// same constraints step after step, and comparing them costs a tenth of colouring them.
    std::vector<ConstraintBodies> colouredConstraints;
    std::vector<std::uint8_t> colouredMovable;
    bool coloured = false;
    /// Counts the colourings made (not those kept): what was computed from one stays valid.
    std::uint64_t generation = 0;

    [[nodiscard]] std::span<const std::uint32_t> colour(int k) const noexcept {
        return {order.data() + start[k], order.data() + start[k + 1]};
    }
    [[nodiscard]] std::span<const std::uint32_t> overflow() const noexcept {
        return {order.data() + start[kContactColourCount], order.data() + order.size()};
    }
};

/// Colours `constraints` (body slots < movable.size()); `movable[slot]` is nonzero for a body the
/// solver moves. `bodyColours` is scratch. Reuses the vectors of `out`, and keeps `out` as it is
/// when it holds the colouring of the same constraints and movable flags.
void colourConstraints(std::span<const ConstraintBodies> constraints,
                       std::span<const std::uint8_t> movable,
                       std::vector<std::uint32_t>& bodyColours, ContactColouring& out);

} // namespace rigid2d::detail
