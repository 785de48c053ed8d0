#pragma once
// Whole islands of the contact graph gathered into groups of about a cache's worth of constraints,
// and the packed blocks laid out by colour and group.
//
// A world larger than the cache streams every block from memory a dozen times a step (warm start,
// solve and relax per substep): v3_many_pyramids' 22,000 boxes took a third longer per body than
// the same pyramids 2,200 at a time. Bodies of different islands share no constraint (the static
// slot is never moved), so the substeps of one group of islands can run to the end before the
// next group starts, its blocks and bodies in the cache all along: the same arithmetic on every
// body, in the same order for its constraints, so the same bits.
//
// Each block holds the constraints of one colour of one group. That fixes the lanes of every
// block, and so the bits (a missing point's zero impulse can turn a -0 velocity into +0, so the
// lanes' company matters), whichever order the blocks then run in: group by group, each group on
// one participant, or colour by colour across all groups when one group is more than a worker's
// share.

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

#include "solver/contact_colouring.hpp"
#include "solver/wide_contacts.hpp"

namespace rigid2d::detail {

/// Constraints a group collects islands up to (an island larger than that is a group alone):
/// 1,024 constraints take some 200 KB with their bodies at eight lanes, within any second-level
/// cache of the last years. On v3_many_pyramids 512 to 4,096 all solved within 2% of each other
/// on a 2 MB cache; 1,024 was the fastest.
inline constexpr std::uint32_t kGroupConstraints = 1024;

/// The groups of a step's constraints: its contacts, then its joints (contact_solver.cpp lists
/// the joints the wide loops take, then the others).
struct ContactGroups {
    std::uint32_t count = 1;            ///< groups; 1 leaves the layouts as the colourings'
    std::uint32_t largest = 0;          ///< the constraints of the largest group, when count > 1
    std::size_t constraints = 0;        ///< of all groups
    std::vector<std::uint32_t> groupOf; ///< per constraint of the lists, when count > 1
    /// The body slots of group g are bodies[bodyStart[g] .. bodyStart[g + 1]), ascending; those
    /// of no constraint's island (slot 0 aside) follow as group `count`.
    std::vector<std::uint32_t> bodyStart;
    std::vector<std::uint32_t> bodies;
    /// What the groups were made from (the colourings' generations, the other joints' bodies, the
    /// target): the same inputs make the same groups (contact_solver.cpp keeps them).
    std::uint64_t sourceContacts = ~std::uint64_t{0};
    std::uint64_t sourceJoints = ~std::uint64_t{0};
    std::vector<ConstraintBodies> sourceScalarJoints;
    std::uint32_t sourceTarget = 0;
    std::size_t sourceSlots = 0;
    std::uint64_t generation = 0; ///< counts the groupings made
    // Scratch: union-find over body slots, constraints per island, the group of each island.
    std::vector<std::uint32_t> parent, islandConstraints, groupOfIsland;
};

/// Groups the constraints of `lists` (one index space, list after list) over `slotCount` body
/// slots: islands (slots joined by constraints; slot 0 joins nothing) taken in the order of their
/// first constraint, gathered into a group until the next would take it past `target`
/// constraints. One group when there are at most `target` constraints outside the largest
/// island. Depends only on its arguments.
void groupIslands(std::initializer_list<std::span<const ConstraintBodies>> lists,
                  std::size_t slotCount, std::uint32_t target, ContactGroups& out);

/// The colouring's order split by group, and where each segment's blocks lie.
struct ContactLayout {
    /// The constraint indices the segments and overflowStart point into: each colour's list by
    /// group (each group's part in the colouring's order), then the overflow list by group. With
    /// one group that is the colouring's order itself, and this stays empty (orderOf).
    std::vector<std::uint32_t> groupedOrder;
    std::vector<ColourSegment> segments; ///< the non-empty ones, by firstBlock
    /// Group-major (each group's blocks together, colour by colour): group g's colours are
    /// groupBlocks[g]. Else colour-major: colour k's blocks, all groups, are colourBlocks'.
    bool groupMajor = false;
    ColourBlocks colourBlocks;
    std::vector<ColourBlocks> groupBlocks;
    /// Group g's overflow constraints: order[overflowStart[g] .. overflowStart[g + 1]).
    std::vector<std::uint32_t> overflowStart;
    std::uint32_t blockCount = 0;
    std::vector<std::uint32_t> bucketNext; ///< scratch of the split
    /// What the layout was made from: the groups (ContactGroups::generation, whose inputs
    /// include the colouring), the lane width.
    std::uint64_t sourceGroups = ~std::uint64_t{0};
    int sourceWidth = 0;

    /// The order of `colouring`, which this layout was made from.
    [[nodiscard]] std::span<const std::uint32_t>
    orderOf(const ContactColouring& colouring) const noexcept {
        return groupedOrder.empty() ? std::span<const std::uint32_t>(colouring.order)
                                    : std::span<const std::uint32_t>(groupedOrder);
    }
};

/// Lays out blocks of W lanes for `colouring` split by `groups` (whose first constraints are
/// the colouring's), group-major or colour-major.
template <int W>
void layOutContacts(const ContactColouring& colouring, const ContactGroups& groups, bool groupMajor,
                    ContactLayout& out);

/// The constraints of one colour of one group of the joints' colouring:
/// order[orderBegin, orderBegin + count).
struct JointSegment {
    std::uint32_t orderBegin = 0;
    std::uint32_t count = 0;
};

/// The first block of each kind of a segment (packWideJoints).
struct JointBlocksAt {
    std::uint32_t points = 0;
    std::uint32_t revolutes = 0;
};

/// The joints' colouring split by group, as the contacts' (ContactLayout): every (colour, group)
/// segment, empty or not, colour-major (k * groups + g) or group-major (g * colours + k); the
/// joints no colour took (solved one at a time) by group.
struct JointLayout {
    std::vector<std::uint32_t> groupedOrder; ///< empty with one group: the colouring's order
    std::vector<JointSegment> segments;
    std::vector<JointBlocksAt> blocksAt; ///< per segment, and one past the last (the packing's)
    /// Group g's one-at-a-time joints: scalarJoints[scalarStart[g] .. scalarStart[g + 1]).
    std::vector<std::uint32_t> scalarStart;
    std::vector<std::uint32_t> bucketNext; ///< scratch of the split
    std::uint32_t groups = 1;
    bool groupMajor = false;

    [[nodiscard]] std::span<const std::uint32_t>
    orderOf(const ContactColouring& colouring) const noexcept {
        return groupedOrder.empty() ? std::span<const std::uint32_t>(colouring.order)
                                    : std::span<const std::uint32_t>(groupedOrder);
    }
    /// Once packed: the point joints' (or revolute joints') blocks of group g by colour when
    /// group-major, else of all groups by colour (g = 0).
    [[nodiscard]] ColourBlocks blocks(bool points, std::uint32_t g) const noexcept;
};

/// Splits `colouring` (of the joints the wide loops take: the constraints of `groups` from
/// `firstJoint` on, in candidate order) and `scalarJoints` (which follow them there) by group,
/// group-major or colour-major; scalarJoints is reordered stably by group.
void layOutJoints(const ContactColouring& colouring, const ContactGroups& groups,
                  std::size_t firstJoint, bool groupMajor, std::vector<std::uint32_t>& scalarJoints,
                  JointLayout& out);

} // namespace rigid2d::detail
