#include "solver/wide_contacts.hpp"

#include <algorithm>
#include <cstddef>

#include "solver/wide_bodies.hpp"

namespace rigid2d::detail {

namespace {

// Lane `lane` of `w` from `c`; a missing constraint or point gets zeros (static slot, no mass,
// no impulse), which the solve turns into zero impulses.
void setLane(WideContact& w, std::size_t lane, std::uint32_t index, const ContactConstraint* c) {
    w.constraint[lane] = index;
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
    const auto bit = static_cast<std::uint8_t>(1u << lane);
    const bool movableA = c != nullptr && (c->invMassA != 0.0f || c->invInertiaA != 0.0f);
    const bool movableB = c != nullptr && (c->invMassB != 0.0f || c->invInertiaB != 0.0f);
    w.movableA = static_cast<std::uint8_t>(movableA ? w.movableA | bit : w.movableA & ~bit);
    w.movableB = static_cast<std::uint8_t>(movableB ? w.movableB | bit : w.movableB & ~bit);
    const int points = c != nullptr ? c->pointCount : 0;
    for (int i = 0; i < kMaxManifoldPoints; ++i) {
        const SolverPoint p = i < points ? c->points[i] : SolverPoint{};
        WidePoint& q = w.points[i];
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
    }
}

} // namespace

void layOutWideContacts(const ContactColouring& colouring, ColourBlocks& blocks) {
    std::uint32_t count = 0;
    for (int k = 0; k < kContactColourCount; ++k) {
        blocks.start[k] = count;
        count += static_cast<std::uint32_t>((colouring.colour(k).size() + 3) / 4);
    }
    blocks.start[kContactColourCount] = count;
}

void packWideContacts(const PrepareContext& context, std::span<ContactConstraint> constraints,
                      const ContactColouring& colouring, const ColourBlocks& blocks,
                      std::span<WideContact> out, std::size_t begin, std::size_t end) {
    // The colour of block `begin`: the last colour that starts at or before it.
    const std::uint32_t* colourEnd = blocks.start + kContactColourCount + 1;
    int k = static_cast<int>(std::upper_bound(blocks.start, colourEnd, begin) - blocks.start) - 1;
    for (std::size_t b = begin; b < end; ++b) {
        while (b >= blocks.start[k + 1]) ++k; // past the last block of colour k
        const std::span<const std::uint32_t> colour = colouring.colour(k);
        const std::size_t first = 4 * (b - blocks.start[k]);
        WideContact& w = out[b];
        w.pointCount = 1;
        for (std::size_t lane = 0; lane < 4; ++lane) {
            if (first + lane >= colour.size()) {
                setLane(w, lane, kNoConstraint, nullptr);
                continue;
            }
            const std::uint32_t index = colour[first + lane];
            ContactConstraint& c = constraints[index];
            prepareConstraint(context, c);
            w.pointCount = std::max(w.pointCount, c.pointCount);
            setLane(w, lane, index, &c);
        }
    }
}

void warmStartWide(std::span<SolverState> bodies, std::span<const WideContact> wide) {
    for (const WideContact& c : wide) {
        const WideBodies a = gather(bodies, c.bodyA, false);
        const WideBodies b = gather(bodies, c.bodyB, false);
        Velocities v{a.vx, a.vy, a.w, b.vx, b.vy, b.w};
        const Masses m{load4(c.invMassA), load4(c.invInertiaA), load4(c.invMassB),
                       load4(c.invInertiaB)};
        const Float4 nx = load4(c.normalX), ny = load4(c.normalY);
        const Float4 tx = ny, ty = -nx;
        for (int i = 0; i < c.pointCount; ++i) {
            const WidePoint& p = c.points[i];
            const Float4 ni = load4(p.normalImpulse), ti = load4(p.tangentImpulse);
            applyImpulse(v, m, load4(p.anchorAX), load4(p.anchorAY), load4(p.anchorBX),
                         load4(p.anchorBY), ni * nx + ti * tx, ni * ny + ti * ty);
        }
        scatter(bodies, c.bodyA, c.movableA, v.vAx, v.vAy, v.wA, a.dAngle);
        scatter(bodies, c.bodyB, c.movableB, v.vBx, v.vBy, v.wB, b.dAngle);
    }
}

void solveWide(std::span<SolverState> bodies, std::span<WideContact> wide, float inverseH,
               float maxPushSpeed, bool useBias) {
    const Float4 zero = splat4(0.0f), one = splat4(1.0f);
    const Float4 invH = splat4(inverseH), minBias = splat4(-maxPushSpeed);
    for (WideContact& c : wide) {
        const WideBodies a = gather(bodies, c.bodyA, true);
        const WideBodies b = gather(bodies, c.bodyB, true);
        Velocities v{a.vx, a.vy, a.w, b.vx, b.vy, b.w};
        const Masses m{load4(c.invMassA), load4(c.invInertiaA), load4(c.invMassB),
                       load4(c.invInertiaB)};
        const Float4 nx = load4(c.normalX), ny = load4(c.normalY);
        const Float4 dpx = b.dpx - a.dpx, dpy = b.dpy - a.dpy;
        const Float4 biasRate = load4(c.biasRate);
        const Float4 softMass = useBias ? load4(c.massScale) : one;
        const Float4 softImpulse = useBias ? load4(c.impulseScale) : zero;
        for (int i = 0; i < c.pointCount; ++i) {
            WidePoint& p = c.points[i];
            const Float4 rAx = load4(p.anchorAX), rAy = load4(p.anchorAY);
            const Float4 rBx = load4(p.anchorBX), rBy = load4(p.anchorBY);
            // Current separation from the position deltas of this step.
            const Float4 prAx = a.qc * rAx - a.qs * rAy, prAy = a.qs * rAx + a.qc * rAy;
            const Float4 prBx = b.qc * rBx - b.qs * rBy, prBy = b.qs * rBx + b.qc * rBy;
            const Float4 sx = (dpx + prBx) - prAx, sy = (dpy + prBy) - prAy;
            const Float4 s = (sx * nx + sy * ny) + load4(p.baseSeparation);
            const Float4 open = greater4(s, zero);
            const Float4 softBias = useBias ? max4(biasRate * s, minBias) : zero;
            const Float4 bias = select4(open, s * invH, softBias);
            const Float4 massScale = select4(open, one, softMass);
            const Float4 impulseScale = select4(open, zero, softImpulse);
            Float4 dvx, dvy;
            relativeVelocity(v, rAx, rAy, rBx, rBy, dvx, dvy);
            const Float4 vn = dvx * nx + dvy * ny;
            const Float4 old = load4(p.normalImpulse);
            Float4 impulse = -load4(p.normalMass) * massScale * (vn + bias) - impulseScale * old;
            const Float4 total = max4(old + impulse, zero);
            impulse = total - old;
            store4(p.normalImpulse, total);
            store4(p.maxNormalImpulse, max4(load4(p.maxNormalImpulse), impulse));
            applyImpulse(v, m, rAx, rAy, rBx, rBy, impulse * nx, impulse * ny);
        }
        const Float4 tx = ny, ty = -nx;
        const Float4 friction = load4(c.friction);
        for (int i = 0; i < c.pointCount; ++i) {
            WidePoint& p = c.points[i];
            const Float4 rAx = load4(p.anchorAX), rAy = load4(p.anchorAY);
            const Float4 rBx = load4(p.anchorBX), rBy = load4(p.anchorBY);
            Float4 dvx, dvy;
            relativeVelocity(v, rAx, rAy, rBx, rBy, dvx, dvy);
            const Float4 vt = dvx * tx + dvy * ty;
            Float4 impulse = -load4(p.tangentMass) * vt;
            const Float4 maxFriction = friction * load4(p.normalImpulse);
            const Float4 old = load4(p.tangentImpulse);
            // std::clamp(x, -f, f) for f >= 0.
            const Float4 total = min4(max4(old + impulse, -maxFriction), maxFriction);
            impulse = total - old;
            store4(p.tangentImpulse, total);
            applyImpulse(v, m, rAx, rAy, rBx, rBy, impulse * tx, impulse * ty);
        }
        scatter(bodies, c.bodyA, c.movableA, v.vAx, v.vAy, v.wA, a.dAngle);
        scatter(bodies, c.bodyB, c.movableB, v.vBx, v.vBy, v.wB, b.dAngle);
    }
}

void storeWideImpulses(std::span<const WideContact> wide,
                       std::span<ContactConstraint> constraints) {
    for (const WideContact& w : wide) {
        for (int lane = 0; lane < 4; ++lane) {
            if (w.constraint[lane] == kNoConstraint) continue;
            ContactConstraint& c = constraints[w.constraint[lane]];
            for (int i = 0; i < c.pointCount; ++i) {
                const WidePoint& q = w.points[i];
                SolverPoint& p = c.points[i];
                p.normalImpulse = q.normalImpulse[lane];
                p.tangentImpulse = q.tangentImpulse[lane];
                p.maxNormalImpulse = q.maxNormalImpulse[lane];
            }
        }
    }
}

} // namespace rigid2d::detail
