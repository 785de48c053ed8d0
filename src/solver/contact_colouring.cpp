#include "solver/contact_colouring.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

namespace rigid2d::detail {

namespace {
template <class T>
[[nodiscard]] bool sameBytes(std::span<const T> a, const std::vector<T>& b) noexcept {
    static_assert(std::has_unique_object_representations_v<T>, "compared byte for byte");
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size_bytes()) == 0);
}
} // namespace

void colourConstraints(std::span<const ConstraintBodies> constraints,
                       std::span<const std::uint8_t> movable,
                       std::vector<std::uint32_t>& bodyColours, ContactColouring& out) {
    if (out.coloured && sameBytes(constraints, out.colouredConstraints) &&
        sameBytes(movable, out.colouredMovable))
        return;
    out.coloured = false;
    constexpr std::uint32_t kAllColours =
        kContactColourCount >= 32 ? ~0u : (1u << kContactColourCount) - 1u;
    // Colours a constraint between two movable bodies may not take: the last few are kept for
    // constraints against immovable bodies, so a body crowded by neighbours can still be coloured
    // against the ground.
    constexpr std::uint32_t kNotForTwoMovable =
        kAllColours & ~((1u << (kContactColourCount - kStaticOnlyColours)) - 1u);
    // Colour 0 is solved first; keeping constraints against immovable bodies out of it matters
    // for tall stacks: with ground contacts in colour 0 a 100-row pyramid never came to rest (it
    // breathed at ~0.2 m/s), without them it sleeps within 100 steps.
    constexpr std::uint32_t kNotForOneMovable = 1u;
    bodyColours.assign(movable.size(), 0u);
    // Within a colour the order changes no result, since no two of its constraints share a
    // movable body; what it changes is which worker moves which bodies. A worker takes the same
    // part of every colour's list: with each colour's constraints in slot order (by the band of
    // their lowest movable slot), that part moves mostly the same bodies colour after colour, and
    // they stay in its core's cache. In constraint order, each colour's part moved bodies from
    // all over the slots, and on two workers body states crossed between the cores several times
    // a substep. Overflow constraints are all in band 0: their list keeps constraint order.
    const int bandShift = slotBandShift(movable.size());
    std::vector<std::uint32_t>& next = out.bucketNext;
    next.assign(kColouringBuckets, 0u);
    // Pass 1: pick colours and count the constraints of each bucket (colour, band).
    const auto count = static_cast<std::uint32_t>(constraints.size());
    out.colourOf.resize(count);
    out.bucketOf.resize(count);
    out.order.resize(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        const ConstraintBodies& c = constraints[i];
        const bool moveA = movable[c.a] != 0, moveB = movable[c.b] != 0;
        std::uint32_t used = (moveA ? bodyColours[c.a] : 0u) | (moveB ? bodyColours[c.b] : 0u);
        used |= moveA && moveB ? kNotForTwoMovable : kNotForOneMovable;
        const std::uint32_t free = ~used & kAllColours;
        std::uint32_t colour = kContactColourCount; // overflow
        if (free != 0 && (moveA || moveB)) {
            colour = static_cast<std::uint32_t>(std::countr_zero(free));
            if (moveA) bodyColours[c.a] |= 1u << colour;
            if (moveB) bodyColours[c.b] |= 1u << colour;
        } else if (free != 0) {
            colour = 0; // two immovable bodies: nothing to interfere with
        }
        const std::uint32_t lowest = moveA && moveB ? std::min(c.a, c.b)
                                     : moveA        ? c.a
                                     : moveB        ? c.b
                                                    : 0u;
        const auto band = colour == kContactColourCount ? 0u : lowest >> bandShift;
        const std::uint32_t bucket = colour * kSlotBands + band;
        out.colourOf[i] = static_cast<std::uint8_t>(colour);
        out.bucketOf[i] = static_cast<std::uint16_t>(bucket);
        ++next[bucket];
    }
    // Pass 2: a stable counting sort by bucket.
    std::uint32_t offset = 0;
    for (std::uint32_t bucket = 0; bucket < kColouringBuckets; ++bucket) {
        if (bucket % kSlotBands == 0) out.start[bucket / kSlotBands] = offset;
        offset += std::exchange(next[bucket], offset);
    }
    for (std::uint32_t i = 0; i < count; ++i) out.order[next[out.bucketOf[i]]++] = i;
    out.colouredConstraints.assign(constraints.begin(), constraints.end());
    out.colouredMovable.assign(movable.begin(), movable.end());
    out.coloured = true;
    ++out.generation;
}

} // namespace rigid2d::detail
