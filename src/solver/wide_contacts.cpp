#include "solver/wide_contacts.hpp"

#include <algorithm>
#include <cstddef>
#include <iterator>

#include "core/always_inline.hpp"
#include "core/prefetch.hpp"
#include "solver/float4.hpp"
#include "solver/wide_bodies.hpp"

namespace rigid2d::detail {

namespace {

// The velocities of each lane's bodies at the start of the step, for the approach velocities.
template <int W>
struct alignas(4 * W) LaneVelocities {
    float vAX[W], vAY[W], wA[W], vBX[W], vBY[W], wB[W];
};

// Lane `lane` of `w` from `c`, all but the points' effective masses and approach velocities and
// the block's lane bits (preparePoints, for the whole block at once); a missing constraint or
// point gets zeros (static slot, no mass, no impulse), which the solve turns into zero impulses.
// Inlined by force: the packing's two calls then drop the checks for a missing constraint that do
// not apply to them (GCC stopped inlining it as it grew).
template <int W>
RIGID2D_ALWAYS_INLINE void setLane(WideContact<W>& w, WideContactCold<W>& cold,
                                   LaneVelocities<W>& velocities, std::size_t lane,
                                   std::uint32_t index, const ContactConstraint* c,
                                   const PrepareContext& context) {
    ContactSurface* const surface = c != nullptr ? c->surface : nullptr;
    const Manifold* m = surface != nullptr ? &surface->manifold : nullptr;
    const std::uint32_t bodyA = c != nullptr ? c->bodyA : 0, bodyB = c != nullptr ? c->bodyB : 0;
    const PreparedBodies bodies = c != nullptr ? prepareBodies(context, bodyA, bodyB)
                                               : PreparedBodies{}; // a soft step of no mass
    const Vec2 n = m != nullptr ? m->normal : Vec2{};
    cold.constraint[lane] = index;
    cold.manifold[lane] = surface != nullptr ? &surface->manifold : nullptr;
    w.bodyA[lane] = bodyA;
    w.bodyB[lane] = bodyB;
    w.normalX[lane] = n.x;
    w.normalY[lane] = n.y;
    w.friction[lane] = surface != nullptr ? surface->friction : 0.0f;
    w.invMassA[lane] = bodies.mA;
    w.invInertiaA[lane] = bodies.iA;
    w.invMassB[lane] = bodies.mB;
    w.invInertiaB[lane] = bodies.iB;
    cold.restitution[lane] = surface != nullptr ? surface->restitution : 0.0f;
    const SolverState& a = context.bodies[bodyA];
    const SolverState& b = context.bodies[bodyB];
    velocities.vAX[lane] = a.v.x;
    velocities.vAY[lane] = a.v.y;
    velocities.wA[lane] = a.w;
    velocities.vBX[lane] = b.v.x;
    velocities.vBY[lane] = b.v.y;
    velocities.wB[lane] = b.w;
    const int points = m != nullptr ? m->pointCount : 0;
    cold.lanePoints[lane] = static_cast<std::uint8_t>(points);
    for (int i = 0; i < points; ++i) {
        const ManifoldPoint& mp = m->points[i];
        WidePoint<W>& q = w.points[i];
        q.anchorAX[lane] = mp.anchorA.x;
        q.anchorAY[lane] = mp.anchorA.y;
        q.anchorBX[lane] = mp.anchorB.x;
        q.anchorBY[lane] = mp.anchorB.y;
        q.baseSeparation[lane] = baseSeparation(mp, n);
        q.normalImpulse[lane] = mp.normalImpulse;
        q.tangentImpulse[lane] = mp.tangentImpulse;
        q.maxNormalImpulse[lane] = 0.0f;
    }
    for (int i = points; i < kMaxManifoldPoints; ++i) {
        WidePoint<W>& q = w.points[i];
        for (float* field : {q.anchorAX, q.anchorAY, q.anchorBX, q.anchorBY, q.baseSeparation,
                             q.normalImpulse, q.tangentImpulse, q.maxNormalImpulse})
            field[lane] = 0.0f;
    }
}

// The lanes the packing computes with: four at a time, in the baseline instruction set.
#if RIGID2D_SSE2
using PrepareLanes = Float4;
#else
using PrepareLanes = PortableLanes<4>;
#endif

// preparePoint (contact_prepare.hpp) for every lane and point of a packed block, operation for
// operation, so each lane gets the bits the scalar path computes (the wide solver's test compares
// them); a missing point gets zeros. Lane by lane, it was a fifth of the packing's instructions.
// The block's lane bits too, from the packed masses and restitutions, by prepareBodies' rules:
// compared a group of lanes at a time, not lane by lane as each was packed.
template <int W>
void preparePoints(WideContact<W>& w, WideContactCold<W>& cold,
                   const LaneVelocities<W>& velocities) {
    using F = PrepareLanes;
    const F zero = F::splat(0.0f), one = F::splat(1.0f);
    // 1 / k where k > 0, else 0; the division kept after the select (Float4::opaque).
    const auto inverse = [&](F k) {
        const F positive = F::greater(k, zero);
        return F::select(positive, one / F::opaque(F::select(positive, k, one)), zero);
    };
    unsigned movableA = 0, movableB = 0, stiff = 0, bouncy = 0;
    for (int g = 0; g < W; g += F::width) {
        const F nX = F::load(w.normalX + g), nY = F::load(w.normalY + g);
        const F tX = nY, tY = -nX; // the tangent: the normal turned clockwise
        const F mA = F::load(w.invMassA + g), iA = F::load(w.invInertiaA + g);
        const F mB = F::load(w.invMassB + g), iB = F::load(w.invInertiaB + g);
        movableA |= movableLanes(mA, iA) << g;
        movableB |= movableLanes(mB, iB) << g;
        // PreparedBodies::stiff, mA == 0 || mB == 0: not (both differ from 0), NaN included.
        stiff |= (~(F::laneBits(F::notEqual(mA, zero)) & F::laneBits(F::notEqual(mB, zero))) &
                  ((1u << F::width) - 1))
                 << g;
        bouncy |= F::laneBits(F::notEqual(F::load(cold.restitution + g), zero)) << g;
        const F vAX = F::load(velocities.vAX + g), vAY = F::load(velocities.vAY + g);
        const F vBX = F::load(velocities.vBX + g), vBY = F::load(velocities.vBY + g);
        const F wA = F::load(velocities.wA + g), wB = F::load(velocities.wB + g);
        for (int i = 0; i < kMaxManifoldPoints; ++i) {
            WidePoint<W>& q = w.points[i];
            unsigned present = 0;
            for (int lane = 0; lane < F::width; ++lane)
                if (cold.lanePoints[g + lane] > i) present |= 1u << lane;
            const F mask = F::maskOf(present);
            const F aAX = F::load(q.anchorAX + g), aAY = F::load(q.anchorAY + g);
            const F aBX = F::load(q.anchorBX + g), aBY = F::load(q.anchorBY + g);
            const F rnA = aAX * nY - aAY * nX, rnB = aBX * nY - aBY * nX;
            const F kNormal = mA + mB + iA * rnA * rnA + iB * rnB * rnB;
            const F rtA = aAX * tY - aAY * tX, rtB = aBX * tY - aBY * tX;
            const F kTangent = mA + mB + iA * rtA * rtA + iB * rtB * rtB;
            const F vrAX = vAX + -wA * aAY, vrAY = vAY + wA * aAX;
            const F vrBX = vBX + -wB * aBY, vrBY = vBY + wB * aBX;
            const F approach = (vrBX - vrAX) * nX + (vrBY - vrAY) * nY;
            F::store(q.normalMass + g, F::select(mask, inverse(kNormal), zero));
            F::store(q.tangentMass + g, F::select(mask, inverse(kTangent), zero));
            F::store(cold.approachVelocity[i] + g, F::select(mask, approach, zero));
        }
    }
    w.movableA = static_cast<std::uint8_t>(movableA);
    w.movableB = static_cast<std::uint8_t>(movableB);
    w.stiffLanes = static_cast<std::uint8_t>(stiff);
    cold.bouncyLanes = static_cast<std::uint8_t>(bouncy);
}

// A colour's constraints are spread over the whole constraint array (ascending, with gaps): the
// hardware cannot guess the next one, and on a scene of 20,000 bodies each constraint was a miss
// to the last-level cache (a fifth of the step). The constraints this many places ahead in the
// colour order are asked for early, and the manifolds and bodies of those half as far ahead.
constexpr std::size_t kPrefetchAhead = 16;

[[gnu::always_inline]] inline void prefetchInputs(const PrepareContext& context,
                                                  const ContactConstraint& c) {
    prefetchRecord(*c.surface);
    __builtin_prefetch(&context.bodies[c.bodyA]);
    __builtin_prefetch(&context.bodies[c.bodyB]);
    __builtin_prefetch(&context.motions[c.bodyA]);
    __builtin_prefetch(&context.motions[c.bodyB]);
}

// The manifolds lie in the contacts, far apart and long out of the cache by the time the solve
// ends: the lines the store writes, of the block this many blocks on, are fetched early.
constexpr std::size_t kStoreAhead = 2;

} // namespace

template <int W>
void packWideContacts(const PrepareContext& context, std::span<const ContactConstraint> constraints,
                      std::span<const std::uint32_t> order, std::span<const ColourSegment> segments,
                      std::span<WideContact<W>> out, std::span<WideContactCold<W>> cold,
                      std::size_t begin, std::size_t end) {
    // The segment of block `begin`: the last that starts at or before it.
    const auto startsAfter = [](std::size_t block, const ColourSegment& s) {
        return block < s.firstBlock;
    };
    auto segment = std::upper_bound(segments.begin(), segments.end(), begin, startsAfter) - 1;
    for (std::size_t b = begin; b < end; ++b) {
        while (segment + 1 != segments.end() && b >= segment[1].firstBlock) ++segment;
        const std::size_t first = W * (b - segment->firstBlock);
        WideContact<W>& w = out[b];
        WideContactCold<W>& c = cold[b];
        LaneVelocities<W> velocities;
        for (std::size_t lane = 0; lane < W; ++lane) {
            if (first + lane >= segment->count) {
                setLane(w, c, velocities, lane, kNoConstraint, nullptr, context);
                continue;
            }
            const std::size_t position = segment->orderBegin + first + lane;
            if (position + kPrefetchAhead < order.size())
                __builtin_prefetch(&constraints[order[position + kPrefetchAhead]]);
            if (position + kPrefetchAhead / 2 < order.size())
                prefetchInputs(context, constraints[order[position + kPrefetchAhead / 2]]);
            const std::uint32_t index = order[position];
            setLane(w, c, velocities, lane, index, &constraints[index], context);
        }
        preparePoints(w, c, velocities);
        // The most points in each group of four lanes (at least one), as the 4-wide layout would
        // run them.
        int groupPoints[W / 4];
        for (int& points : groupPoints) points = 1;
        for (int lane = 0; lane < W; ++lane)
            groupPoints[lane / 4] = std::max<int>(groupPoints[lane / 4], c.lanePoints[lane]);
        w.pointCount = *std::max_element(std::begin(groupPoints), std::end(groupPoints));
        w.shortLanes = 0;
        for (int lane = 0; lane < W; ++lane)
            if (groupPoints[lane / 4] < w.pointCount)
                w.shortLanes = static_cast<std::uint8_t>(w.shortLanes | 1u << lane);
    }
}

template <int W>
void storeWideImpulses(std::span<const WideContact<W>> wide,
                       std::span<const WideContactCold<W>> cold, float hitThreshold,
                       std::span<std::uint8_t> hits) {
    for (std::size_t b = 0; b < wide.size(); ++b) {
        const WideContact<W>& w = wide[b];
        const WideContactCold<W>& c = cold[b];
        if (b + kStoreAhead < wide.size()) {
            const WideContactCold<W>& ahead = cold[b + kStoreAhead];
            for (int lane = 0; lane < W; ++lane)
                if (ahead.constraint[lane] != kNoConstraint)
                    prefetchRecord<true>(*ahead.manifold[lane]);
        }
        for (int lane = 0; lane < W; ++lane) {
            if (c.constraint[lane] == kNoConstraint) continue;
            ManifoldPoint* const points = c.manifold[lane]->points;
            const int count = c.lanePoints[lane];
            for (int i = 0; i < count; ++i) {
                const WidePoint<W>& q = w.points[i];
                ManifoldPoint& mp = points[i];
                mp.normalImpulse = q.normalImpulse[lane];
                mp.tangentImpulse = q.tangentImpulse[lane];
                mp.maxNormalImpulse = q.maxNormalImpulse[lane];
                mp.approachSpeed = -c.approachVelocity[i][lane];
            }
            hits[c.constraint[lane]] = wasHit(points, count, hitThreshold) ? 1 : 0;
        }
    }
}

template void packWideContacts<4>(const PrepareContext&, std::span<const ContactConstraint>,
                                  std::span<const std::uint32_t>, std::span<const ColourSegment>,
                                  std::span<WideContact<4>>, std::span<WideContactCold<4>>,
                                  std::size_t, std::size_t);
template void packWideContacts<8>(const PrepareContext&, std::span<const ContactConstraint>,
                                  std::span<const std::uint32_t>, std::span<const ColourSegment>,
                                  std::span<WideContact<8>>, std::span<WideContactCold<8>>,
                                  std::size_t, std::size_t);
template void storeWideImpulses<4>(std::span<const WideContact<4>>,
                                   std::span<const WideContactCold<4>>, float,
                                   std::span<std::uint8_t>);
template void storeWideImpulses<8>(std::span<const WideContact<8>>,
                                   std::span<const WideContactCold<8>>, float,
                                   std::span<std::uint8_t>);

} // namespace rigid2d::detail
