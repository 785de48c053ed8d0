#include "solver/contact_colouring.hpp"

#include <algorithm>
#include <bit>
#include <utility>

namespace rigid2d::detail {

void colourConstraints(std::span<const ConstraintBodies> constraints,
                       std::span<const std::uint8_t> movable,
                       std::vector<std::uint32_t>& bodyColours, ContactColouring& out) {
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
    // Pass 1: pick colours and count them.
    const auto count = static_cast<std::uint32_t>(constraints.size());
    out.colourOf.resize(count);
    out.order.resize(count);
    out.lowestSlot.resize(count);
    std::uint32_t sizes[kContactColourCount + 1] = {};
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
        out.colourOf[i] = static_cast<std::uint8_t>(colour);
        out.lowestSlot[i] = moveA && moveB ? std::min(c.a, c.b) : moveA ? c.a : moveB ? c.b : 0u;
        ++sizes[colour];
    }
    std::uint32_t next[kContactColourCount + 1];
    std::uint32_t offset = 0;
    for (int k = 0; k <= kContactColourCount; ++k) {
        out.start[k] = offset;
        next[k] = offset;
        offset += sizes[k];
    }
    // Pass 2: the constraints of the colours by lowest movable slot (a stable counting sort),
    // then grouped by colour (another). Within a colour the order changes no result, since no
    // two of its constraints share a movable body; what it changes is which worker moves which
    // bodies. A worker takes the same part of every colour's list: in slot order, that part
    // moves mostly the same bodies colour after colour, and they stay in its core's cache.
    // In constraint order, each colour's part moved bodies from all over the slots, and on two
    // workers every body state crossed between the cores several times a substep.
    std::vector<std::uint32_t>& firstOfSlot = bodyColours; // done with the colours
    std::fill(firstOfSlot.begin(), firstOfSlot.end(), 0u);
    for (std::uint32_t i = 0; i < count; ++i)
        if (out.colourOf[i] != kContactColourCount) ++firstOfSlot[out.lowestSlot[i]];
    std::uint32_t total = 0;
    for (std::uint32_t& first : firstOfSlot) total += std::exchange(first, total);
    out.bySlot.resize(total);
    for (std::uint32_t i = 0; i < count; ++i)
        if (out.colourOf[i] != kContactColourCount)
            out.bySlot[firstOfSlot[out.lowestSlot[i]]++] = i;
    for (const std::uint32_t i : out.bySlot) out.order[next[out.colourOf[i]]++] = i;
    // The overflow list is solved one constraint after another: it keeps constraint order.
    if (sizes[kContactColourCount] != 0)
        for (std::uint32_t i = 0; i < count; ++i)
            if (out.colourOf[i] == kContactColourCount) out.order[next[kContactColourCount]++] = i;
}

} // namespace rigid2d::detail
