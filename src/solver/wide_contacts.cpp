#include "solver/wide_contacts.hpp"

#include <algorithm>
#include <cstddef>
#include <iterator>

#include "core/prefetch.hpp"

namespace rigid2d::detail {

namespace {

// Lane `lane` of `w` from `c`; a missing constraint or point gets zeros (static slot, no mass,
// no impulse), which the solve turns into zero impulses.
template <int W>
void setLane(WideContact<W>& w, std::size_t lane, std::uint32_t index, const ContactConstraint* c) {
    w.constraint[lane] = index;
    w.manifold[lane] = c != nullptr ? c->manifold : nullptr;
    w.bodyA[lane] = c != nullptr ? c->bodyA : 0;
    w.bodyB[lane] = c != nullptr ? c->bodyB : 0;
    w.normalX[lane] = c != nullptr ? c->normal.x : 0.0f;
    w.normalY[lane] = c != nullptr ? c->normal.y : 0.0f;
    w.friction[lane] = c != nullptr ? c->friction : 0.0f;
    w.invMassA[lane] = c != nullptr ? c->invMassA : 0.0f;
    w.invInertiaA[lane] = c != nullptr ? c->invInertiaA : 0.0f;
    w.invMassB[lane] = c != nullptr ? c->invMassB : 0.0f;
    w.invInertiaB[lane] = c != nullptr ? c->invInertiaB : 0.0f;
    w.biasRate[lane] = c != nullptr ? c->softness.biasRate : 0.0f;
    w.massScale[lane] = c != nullptr ? c->softness.massScale : 1.0f;
    w.impulseScale[lane] = c != nullptr ? c->softness.impulseScale : 0.0f;
    w.restitution[lane] = c != nullptr ? c->restitution : 0.0f;
    const auto bit = static_cast<std::uint8_t>(1u << lane);
    const bool bouncy = c != nullptr && c->restitution != 0.0f;
    w.bouncyLanes = static_cast<std::uint8_t>(bouncy ? w.bouncyLanes | bit : w.bouncyLanes & ~bit);
    const bool hits = c != nullptr && c->reportsHits;
    w.hitLanes = static_cast<std::uint8_t>(hits ? w.hitLanes | bit : w.hitLanes & ~bit);
    const bool movableA = c != nullptr && (c->invMassA != 0.0f || c->invInertiaA != 0.0f);
    const bool movableB = c != nullptr && (c->invMassB != 0.0f || c->invInertiaB != 0.0f);
    w.movableA = static_cast<std::uint8_t>(movableA ? w.movableA | bit : w.movableA & ~bit);
    w.movableB = static_cast<std::uint8_t>(movableB ? w.movableB | bit : w.movableB & ~bit);
    const int points = c != nullptr ? c->pointCount : 0;
    for (int i = 0; i < kMaxManifoldPoints; ++i) {
        const SolverPoint p = i < points ? c->points[i] : SolverPoint{};
        WidePoint<W>& q = w.points[i];
        q.anchorAX[lane] = p.anchorA.x;
        q.anchorAY[lane] = p.anchorA.y;
        q.anchorBX[lane] = p.anchorB.x;
        q.anchorBY[lane] = p.anchorB.y;
        q.baseSeparation[lane] = p.baseSeparation;
        q.normalMass[lane] = p.normalMass;
        q.tangentMass[lane] = p.tangentMass;
        q.normalImpulse[lane] = p.normalImpulse;
        q.tangentImpulse[lane] = p.tangentImpulse;
        q.maxNormalImpulse[lane] = p.maxNormalImpulse;
        q.approachVelocity[lane] = p.approachVelocity;
    }
}

// A colour's constraints are spread over the whole constraint array (ascending, with gaps): the
// hardware cannot guess the next one, and on a scene of 20,000 bodies each constraint was a miss
// to the last-level cache (a fifth of the step). The constraints this many places ahead in the
// colour order are asked for early, and the bodies of those half as far ahead.
constexpr std::size_t kPrefetchAhead = 16;

[[gnu::always_inline]] inline void prefetchBodies(const PrepareContext& context,
                                                  const ContactConstraint& c) {
    __builtin_prefetch(&context.bodies[c.bodyA]);
    __builtin_prefetch(&context.bodies[c.bodyB]);
    __builtin_prefetch(&context.motions[c.bodyA]);
    __builtin_prefetch(&context.motions[c.bodyB]);
}

} // namespace

template <int W>
void layOutWideContacts(const ContactColouring& colouring, ColourBlocks& blocks) {
    std::uint32_t count = 0;
    for (int k = 0; k < kContactColourCount; ++k) {
        blocks.start[k] = count;
        count += static_cast<std::uint32_t>((colouring.colour(k).size() + W - 1) / W);
    }
    blocks.start[kContactColourCount] = count;
}

template <int W>
void packWideContacts(const PrepareContext& context, std::span<ContactConstraint> constraints,
                      const ContactColouring& colouring, const ColourBlocks& blocks,
                      std::span<WideContact<W>> out, std::size_t begin, std::size_t end) {
    // The colour of block `begin`: the last colour that starts at or before it.
    const std::uint32_t* colourEnd = blocks.start + kContactColourCount + 1;
    const std::span<const std::uint32_t> order(colouring.order);
    int k = static_cast<int>(std::upper_bound(blocks.start, colourEnd, begin) - blocks.start) - 1;
    for (std::size_t b = begin; b < end; ++b) {
        while (b >= blocks.start[k + 1]) ++k; // past the last block of colour k
        const std::span<const std::uint32_t> colour = colouring.colour(k);
        const std::size_t colourFirst = colouring.start[k];
        const std::size_t first = W * (b - blocks.start[k]);
        WideContact<W>& w = out[b];
        // The most points in each group of four lanes, as the 4-wide layout would run them.
        int groupPoints[W / 4];
        for (int& points : groupPoints) points = 1;
        for (std::size_t lane = 0; lane < W; ++lane) {
            if (first + lane >= colour.size()) {
                setLane(w, lane, kNoConstraint, nullptr);
                continue;
            }
            const std::size_t position = colourFirst + first + lane;
            if (position + kPrefetchAhead < order.size())
                prefetchRecord<true>(constraints[order[position + kPrefetchAhead]]);
            if (position + kPrefetchAhead / 2 < order.size())
                prefetchBodies(context, constraints[order[position + kPrefetchAhead / 2]]);
            const std::uint32_t index = colour[first + lane];
            ContactConstraint& c = constraints[index];
            prepareConstraint(context, c);
            groupPoints[lane / 4] = std::max(groupPoints[lane / 4], c.pointCount);
            setLane(w, lane, index, &c);
        }
        w.pointCount = *std::max_element(std::begin(groupPoints), std::end(groupPoints));
        w.shortLanes = 0;
        for (int lane = 0; lane < W; ++lane)
            if (groupPoints[lane / 4] < w.pointCount)
                w.shortLanes = static_cast<std::uint8_t>(w.shortLanes | 1u << lane);
    }
}

template <int W>
void storeWideImpulses(std::span<const WideContact<W>> wide, float hitThreshold,
                       std::span<std::uint8_t> hits) {
    for (const WideContact<W>& w : wide) {
        for (int lane = 0; lane < W; ++lane) {
            if (w.constraint[lane] == kNoConstraint) continue;
            Manifold& manifold = *w.manifold[lane];
            for (int i = 0; i < manifold.pointCount; ++i) {
                const WidePoint<W>& q = w.points[i];
                ManifoldPoint& mp = manifold.points[i];
                mp.normalImpulse = q.normalImpulse[lane];
                mp.tangentImpulse = q.tangentImpulse[lane];
                mp.maxNormalImpulse = q.maxNormalImpulse[lane];
                mp.approachSpeed = -q.approachVelocity[lane];
            }
            float speed;
            hits[w.constraint[lane]] = (w.hitLanes >> lane & 1u) != 0 &&
                                       hardestHit(manifold, speed) >= 0 && speed >= hitThreshold;
        }
    }
}

template void layOutWideContacts<4>(const ContactColouring&, ColourBlocks&);
template void layOutWideContacts<8>(const ContactColouring&, ColourBlocks&);
template void packWideContacts<4>(const PrepareContext&, std::span<ContactConstraint>,
                                  const ContactColouring&, const ColourBlocks&,
                                  std::span<WideContact<4>>, std::size_t, std::size_t);
template void packWideContacts<8>(const PrepareContext&, std::span<ContactConstraint>,
                                  const ContactColouring&, const ColourBlocks&,
                                  std::span<WideContact<8>>, std::size_t, std::size_t);
template void storeWideImpulses<4>(std::span<const WideContact<4>>, float, std::span<std::uint8_t>);
template void storeWideImpulses<8>(std::span<const WideContact<8>>, float, std::span<std::uint8_t>);

} // namespace rigid2d::detail
