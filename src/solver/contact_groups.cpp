#include "solver/contact_groups.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

namespace rigid2d::detail {

namespace {

constexpr std::uint32_t kNoGroup = ~0u;

// The island's root, halving the path on the way.
std::uint32_t rootOf(std::vector<std::uint32_t>& parent, std::uint32_t slot) {
    while (parent[slot] != slot) {
        parent[slot] = parent[parent[slot]];
        slot = parent[slot];
    }
    return slot;
}

} // namespace

void groupIslands(std::initializer_list<std::span<const ConstraintBodies>> lists,
                  std::size_t slotCount, std::uint32_t target, ContactGroups& out) {
    out.count = 1;
    out.largest = 0;
    out.groupOf.clear();
    out.bodyStart.clear();
    out.bodies.clear();
    std::size_t total = 0;
    for (const std::span<const ConstraintBodies> list : lists) total += list.size();
    // Fewer constraints than one group holds: nothing to split.
    out.constraints = total;
    if (total <= target || slotCount < 2) return;
    const auto forEach = [&](auto&& f) {
        for (const std::span<const ConstraintBodies> list : lists)
            for (const ConstraintBodies& c : list) f(c);
    };
    // Islands: slot 0, the static slot, is never moved and joins nothing. A kinematic body does
    // join its islands: it moves substep by substep, and each group moves its own bodies through
    // all the substeps before the next group starts. Each root also counts its island's
    // constraints as they are joined, so that the largest island is known without another pass.
    std::vector<std::uint32_t>& parent = out.parent;
    std::vector<std::uint32_t>& size = out.islandConstraints;
    parent.resize(slotCount);
    std::iota(parent.begin(), parent.end(), 0u);
    size.assign(slotCount, 0u);
    forEach([&](const ConstraintBodies& c) {
        if (c.a == 0 || c.b == 0) {
            ++size[rootOf(parent, c.a != 0 ? c.a : c.b)];
            return;
        }
        const std::uint32_t a = rootOf(parent, c.a), b = rootOf(parent, c.b);
        // The island of more constraints takes the other in: shallow trees, short finds.
        const bool aLarger = size[a] >= size[b];
        const std::uint32_t root = aLarger ? a : b, other = aLarger ? b : a;
        if (root != other) {
            parent[other] = root;
            size[root] += size[other];
        }
        ++size[root];
    });
    std::uint32_t largest = 0;
    for (std::uint32_t slot = 0; slot < slotCount; ++slot)
        if (parent[slot] == slot) largest = std::max(largest, size[slot]);
    // One island holds all but a group's worth: it streams through the cache however the rest is
    // grouped (v3_smash's pile, where grouping the few flying pairs apart cost 2% of a step).
    if (total - largest <= target) return;
    for (std::uint32_t slot = 1; slot < slotCount; ++slot) parent[slot] = rootOf(parent, slot);
    // Islands in the order of their first constraint, each to the current group unless it would
    // take the group past the target.
    std::vector<std::uint32_t>& groupOfIsland = out.groupOfIsland;
    groupOfIsland.assign(slotCount, kNoGroup);
    out.groupOf.clear();
    out.groupOf.reserve(total);
    std::uint32_t group = 0, filled = 0;
    forEach([&](const ConstraintBodies& c) {
        const std::uint32_t island = parent[c.a != 0 ? c.a : c.b];
        if (groupOfIsland[island] == kNoGroup) {
            if (filled > 0 && filled + size[island] > target) {
                ++group;
                filled = 0;
            }
            groupOfIsland[island] = group;
            filled += size[island];
            out.largest = std::max(out.largest, filled);
        }
        out.groupOf.push_back(groupOfIsland[island]);
    });
    out.count = group + 1;
    if (out.count == 1) {
        out.groupOf.clear();
        return;
    }
    // Each group's body slots, ascending (a counting sort); the bodies of no constraint last.
    out.bodyStart.assign(out.count + 2, 0u);
    const auto groupOfSlot = [&](std::uint32_t slot) {
        const std::uint32_t g = groupOfIsland[parent[slot]];
        return g == kNoGroup ? out.count : g;
    };
    for (std::uint32_t slot = 1; slot < slotCount; ++slot) ++out.bodyStart[groupOfSlot(slot) + 1];
    std::partial_sum(out.bodyStart.begin(), out.bodyStart.end(), out.bodyStart.begin());
    out.bodies.resize(slotCount - 1);
    std::vector<std::uint32_t>& next = size; // the island sizes are done with
    next.assign(out.bodyStart.begin(), out.bodyStart.end() - 1);
    for (std::uint32_t slot = 1; slot < slotCount; ++slot)
        out.bodies[next[groupOfSlot(slot)]++] = slot;
}

template <int W>
void layOutContacts(const ContactColouring& colouring, const ContactGroups& groups, bool groupMajor,
                    ContactLayout& out) {
    constexpr std::uint32_t kColours = kContactColourCount;
    const std::uint32_t groupCount = groups.count;
    out.groupMajor = groupMajor && groupCount > 1;
    out.segments.clear();
    out.groupBlocks.clear();
    out.overflowStart.assign(groupCount + 1, 0u);
    const auto blocksOf = [](std::uint32_t count) { return (count + W - 1) / W; };
    std::uint32_t block = 0;
    const auto addSegment = [&](std::uint32_t orderBegin, std::uint32_t count) {
        if (count == 0) return;
        out.segments.push_back({orderBegin, count, block});
        block += blocksOf(count);
    };
    if (groupCount == 1) {
        out.groupedOrder.clear();
        for (std::uint32_t k = 0; k < kColours; ++k) {
            out.colourBlocks.start[k] = block;
            addSegment(colouring.start[k], colouring.start[k + 1] - colouring.start[k]);
        }
        out.colourBlocks.start[kColours] = block;
        out.overflowStart = {colouring.start[kColours],
                             static_cast<std::uint32_t>(colouring.order.size())};
        out.blockCount = block;
        return;
    }
    // A stable counting sort of the colouring's order by (colour, group), or (group, colour)
    // group-major, the overflow list last by group: a segment's constraints keep the colouring's
    // order, and prefetching along the order follows the packing.
    const auto bucketOf = [&](std::uint32_t colour, std::uint32_t group) {
        if (colour == kColours) return kColours * groupCount + group;
        return out.groupMajor ? group * kColours + colour : colour * groupCount + group;
    };
    const std::uint32_t bucketCount = (kColours + 1) * groupCount;
    std::vector<std::uint32_t>& next = out.bucketNext;
    next.assign(bucketCount + 1, 0u);
    for (const std::uint32_t c : colouring.order)
        ++next[bucketOf(colouring.colourOf[c], groups.groupOf[c]) + 1];
    std::partial_sum(next.begin(), next.end(), next.begin());
    // Where each bucket starts and how many it holds, before the scatter moves `next` on.
    const auto segmentOf = [&](std::uint32_t colour, std::uint32_t group) {
        const std::uint32_t bucket = bucketOf(colour, group);
        return std::pair{next[bucket], next[bucket + 1] - next[bucket]};
    };
    if (out.groupMajor) {
        out.groupBlocks.resize(groupCount);
        for (std::uint32_t g = 0; g < groupCount; ++g) {
            for (std::uint32_t k = 0; k < kColours; ++k) {
                out.groupBlocks[g].start[k] = block;
                const auto [begin, count] = segmentOf(k, g);
                addSegment(begin, count);
            }
            out.groupBlocks[g].start[kColours] = block;
        }
    } else {
        for (std::uint32_t k = 0; k < kColours; ++k) {
            out.colourBlocks.start[k] = block;
            for (std::uint32_t g = 0; g < groupCount; ++g) {
                const auto [begin, count] = segmentOf(k, g);
                addSegment(begin, count);
            }
        }
        out.colourBlocks.start[kColours] = block;
    }
    for (std::uint32_t g = 0; g < groupCount; ++g)
        out.overflowStart[g] = segmentOf(kColours, g).first;
    out.overflowStart[groupCount] = static_cast<std::uint32_t>(colouring.order.size());
    out.blockCount = block;
    out.groupedOrder.resize(colouring.order.size());
    for (const std::uint32_t c : colouring.order)
        out.groupedOrder[next[bucketOf(colouring.colourOf[c], groups.groupOf[c])]++] = c;
}

ColourBlocks JointLayout::blocks(bool points, std::uint32_t g) const noexcept {
    ColourBlocks out;
    const auto at = [&](std::size_t segment) {
        return points ? blocksAt[segment].points : blocksAt[segment].revolutes;
    };
    for (std::uint32_t k = 0; k <= kContactColourCount; ++k)
        out.start[k] = at(groupMajor ? g * kContactColourCount + k : k * groups);
    return out;
}

void layOutJoints(const ContactColouring& colouring, const ContactGroups& groups,
                  std::size_t firstJoint, bool groupMajor, std::vector<std::uint32_t>& scalarJoints,
                  JointLayout& out) {
    constexpr std::uint32_t kColours = kContactColourCount;
    const std::uint32_t groupCount = groups.count;
    out.groups = groupCount;
    out.groupMajor = groupMajor && groupCount > 1;
    out.segments.clear();
    out.blocksAt.assign(kColours * groupCount + 1, JointBlocksAt{});
    if (groupCount == 1) {
        out.groupedOrder.clear();
        for (std::uint32_t k = 0; k < kColours; ++k)
            out.segments.push_back(
                {colouring.start[k], colouring.start[k + 1] - colouring.start[k]});
        out.scalarStart = {0, static_cast<std::uint32_t>(scalarJoints.size())};
        return;
    }
    const std::span<const std::uint32_t> groupOf =
        std::span<const std::uint32_t>(groups.groupOf).subspan(firstJoint);
    const std::uint32_t wideCount = static_cast<std::uint32_t>(colouring.colourOf.size());
    // The segments' constraints, by a stable counting sort of the colouring's order (its overflow
    // list, which the scalar joints hold, left out).
    const auto bucketOf = [&](std::uint32_t colour, std::uint32_t group) {
        return out.groupMajor ? group * kColours + colour : colour * groupCount + group;
    };
    std::vector<std::uint32_t>& next = out.bucketNext;
    next.assign(kColours * groupCount + 1, 0u);
    const std::span<const std::uint32_t> coloured(colouring.order.data(),
                                                  colouring.start[kColours]);
    for (const std::uint32_t c : coloured) ++next[bucketOf(colouring.colourOf[c], groupOf[c]) + 1];
    std::partial_sum(next.begin(), next.end(), next.begin());
    for (std::uint32_t b = 0; b < kColours * groupCount; ++b)
        out.segments.push_back({next[b], next[b + 1] - next[b]});
    out.groupedOrder.resize(coloured.size());
    for (const std::uint32_t c : coloured)
        out.groupedOrder[next[bucketOf(colouring.colourOf[c], groupOf[c])]++] = c;
    // The scalar joints by group, each group's in their order.
    std::vector<std::uint32_t>& start = out.scalarStart;
    start.assign(groupCount + 2, 0u);
    for (std::size_t s = 0; s < scalarJoints.size(); ++s) ++start[groupOf[wideCount + s] + 2];
    std::partial_sum(start.begin(), start.end(), start.begin());
    std::vector<std::uint32_t> sorted(scalarJoints.size());
    for (std::size_t s = 0; s < scalarJoints.size(); ++s)
        sorted[start[groupOf[wideCount + s] + 1]++] = scalarJoints[s];
    start.pop_back();
    scalarJoints = std::move(sorted);
}

template void layOutContacts<4>(const ContactColouring&, const ContactGroups&, bool,
                                ContactLayout&);
template void layOutContacts<8>(const ContactColouring&, const ContactGroups&, bool,
                                ContactLayout&);

} // namespace rigid2d::detail
