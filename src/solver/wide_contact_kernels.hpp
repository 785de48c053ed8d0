#pragma once
// The contact solver's inner loops over blocks of constraints (wide_contacts.hpp), written once
// for any lane type F (lanes.hpp) and instantiated per instruction set (wide_kernels.hpp). Raw
// pointers rather than spans: the AVX2 translation unit must not instantiate library templates
// that the baseline code instantiates too (the linker keeps one copy of each).

#include <cstddef>
#include <cstdint>

#include "solver/wide_bodies.hpp"
#include "solver/wide_contacts.hpp"

namespace rigid2d::detail {

/// After point `point` of block `c`: the lanes whose group of four has fewer points keep the
/// velocities from `before` (WideContact::shortLanes). Nothing to do at width 4.
template <class F>
RIGID2D_ALWAYS_INLINE void keepShortLanes(const WideContact<F::width>& c, int point,
                                          const Velocities<F>& before, Velocities<F>& v) {
    if constexpr (F::width > 4) {
        if (c.shortLanes == 0 || point + 1 < c.pointCount) return;
        v = selectLanes(F::maskOf(c.shortLanes), before, v);
    }
}

template <class F>
void warmStartWide(SolverState* bodies, const WideContact<F::width>* blocks, std::size_t count) {
    for (std::size_t k = 0; k < count; ++k) {
        const WideContact<F::width>& c = blocks[k];
        auto [a, b, v, m] = loadBlock<F>(bodies, c.bodyA, c.bodyB, false, c.invMassA, c.invInertiaA,
                                         c.invMassB, c.invInertiaB);
        const F nx = F::load(c.normalX), ny = F::load(c.normalY);
        const F tx = ny, ty = -nx;
        for (int i = 0; i < c.pointCount; ++i) {
            const WidePoint<F::width>& p = c.points[i];
            const Velocities<F> before = v;
            const F ni = F::load(p.normalImpulse), ti = F::load(p.tangentImpulse);
            applyImpulse(v, m, F::load(p.anchorAX), F::load(p.anchorAY), F::load(p.anchorBX),
                         F::load(p.anchorBY), ni * nx + ti * tx, ni * ny + ti * ty);
            keepShortLanes(c, i, before, v);
        }
        scatter(bodies, c.bodyA, c.movableA, v.vAx, v.vAy, v.wA, a.dAngle);
        scatter(bodies, c.bodyB, c.movableB, v.vBx, v.vBy, v.wB, b.dAngle);
    }
}

template <class F>
void solveWide(SolverState* bodies, WideContact<F::width>* blocks, std::size_t count,
               const WideSoftness& softness, float inverseH, float maxPushSpeed, bool useBias) {
    const F zero = F::splat(0.0f), one = F::splat(1.0f);
    const F invH = F::splat(inverseH), minBias = F::splat(-maxPushSpeed);
    const Softness &soft = softness.contact, &stiff = softness.stiff;
    const F biasRates[2] = {F::splat(soft.biasRate), F::splat(stiff.biasRate)};
    const F massScales[2] = {F::splat(soft.massScale), F::splat(stiff.massScale)};
    const F impulseScales[2] = {F::splat(soft.impulseScale), F::splat(stiff.impulseScale)};
    for (std::size_t k = 0; k < count; ++k) {
        WideContact<F::width>& c = blocks[k];
        auto [a, b, v, m] = loadBlock<F>(bodies, c.bodyA, c.bodyB, true, c.invMassA, c.invInertiaA,
                                         c.invMassB, c.invInertiaB);
        const F nx = F::load(c.normalX), ny = F::load(c.normalY);
        const F dpx = b.dpx - a.dpx, dpy = b.dpy - a.dpy;
        const F stiffLanes = F::maskOf(c.stiffLanes);
        const F biasRate = F::select(stiffLanes, biasRates[1], biasRates[0]);
        const F softMass = useBias ? F::select(stiffLanes, massScales[1], massScales[0]) : one;
        const F softImpulse =
            useBias ? F::select(stiffLanes, impulseScales[1], impulseScales[0]) : zero;
        for (int i = 0; i < c.pointCount; ++i) {
            WidePoint<F::width>& p = c.points[i];
            const Velocities<F> before = v;
            const F rAx = F::load(p.anchorAX), rAy = F::load(p.anchorAY);
            const F rBx = F::load(p.anchorBX), rBy = F::load(p.anchorBY);
            // Current separation from the position deltas of this step.
            const F prAx = a.qc * rAx - a.qs * rAy, prAy = a.qs * rAx + a.qc * rAy;
            const F prBx = b.qc * rBx - b.qs * rBy, prBy = b.qs * rBx + b.qc * rBy;
            const F sx = (dpx + prBx) - prAx, sy = (dpy + prBy) - prAy;
            const F s = (sx * nx + sy * ny) + F::load(p.baseSeparation);
            const F open = F::greater(s, zero);
            const F softBias = useBias ? F::max(biasRate * s, minBias) : zero;
            const F bias = F::select(open, s * invH, softBias);
            const F massScale = F::select(open, one, softMass);
            const F impulseScale = F::select(open, zero, softImpulse);
            F dvx, dvy;
            relativeVelocity(v, rAx, rAy, rBx, rBy, dvx, dvy);
            const F vn = dvx * nx + dvy * ny;
            const F old = F::load(p.normalImpulse);
            F impulse = -F::load(p.normalMass) * massScale * (vn + bias) - impulseScale * old;
            const F total = F::max(old + impulse, zero);
            impulse = total - old;
            F::store(p.normalImpulse, total);
            F::store(p.maxNormalImpulse, F::max(F::load(p.maxNormalImpulse), impulse));
            applyImpulse(v, m, rAx, rAy, rBx, rBy, impulse * nx, impulse * ny);
            keepShortLanes(c, i, before, v);
        }
        const F tx = ny, ty = -nx;
        const F friction = F::load(c.friction);
        for (int i = 0; i < c.pointCount; ++i) {
            WidePoint<F::width>& p = c.points[i];
            const Velocities<F> before = v;
            const F rAx = F::load(p.anchorAX), rAy = F::load(p.anchorAY);
            const F rBx = F::load(p.anchorBX), rBy = F::load(p.anchorBY);
            F dvx, dvy;
            relativeVelocity(v, rAx, rAy, rBx, rBy, dvx, dvy);
            const F vt = dvx * tx + dvy * ty;
            F impulse = -F::load(p.tangentMass) * vt;
            const F maxFriction = friction * F::load(p.normalImpulse);
            const F old = F::load(p.tangentImpulse);
            // std::clamp(x, -f, f) for f >= 0.
            const F total = F::min(F::max(old + impulse, -maxFriction), maxFriction);
            impulse = total - old;
            F::store(p.tangentImpulse, total);
            applyImpulse(v, m, rAx, rAy, rBx, rBy, impulse * tx, impulse * ty);
            keepShortLanes(c, i, before, v);
        }
        scatter(bodies, c.bodyA, c.movableA, v.vAx, v.vAy, v.wA, a.dAngle);
        scatter(bodies, c.bodyB, c.movableB, v.vBx, v.vBy, v.wB, b.dAngle);
    }
}

/// Restitution (contact_solver.cpp's applyRestitution) lane by lane: a point bounces where its
/// lane has a restitution, it approached faster than `threshold` at prepare, and it pushed. The
/// lanes of a point that does not bounce keep their velocities and impulses, so each lane ends as
/// the scalar loop, which skips such points, leaves its constraint.
template <class F>
void restituteWide(SolverState* bodies, WideContact<F::width>* blocks,
                   const WideContactCold<F::width>* cold, std::size_t count, float threshold) {
    const F zero = F::splat(0.0f), minApproach = F::splat(-threshold);
    for (std::size_t k = 0; k < count; ++k) {
        const WideContactCold<F::width>& bounce = cold[k];
        if (bounce.bouncyLanes == 0) continue;
        WideContact<F::width>& c = blocks[k];
        const F restitution = F::load(bounce.restitution);
        unsigned bounces[kMaxManifoldPoints];
        unsigned any = 0;
        for (int i = 0; i < c.pointCount; ++i) {
            const WidePoint<F::width>& p = c.points[i];
            const F approach = F::load(bounce.approachVelocity[i]);
            bounces[i] = bounce.bouncyLanes & ~F::laneBits(F::greater(approach, minApproach)) &
                         F::laneBits(F::notEqual(F::load(p.maxNormalImpulse), zero));
            any |= bounces[i];
        }
        if (any == 0) continue;
        auto [a, b, v, m] = loadBlock<F>(bodies, c.bodyA, c.bodyB, false, c.invMassA, c.invInertiaA,
                                         c.invMassB, c.invInertiaB);
        const F nx = F::load(c.normalX), ny = F::load(c.normalY);
        for (int i = 0; i < c.pointCount; ++i) {
            if (bounces[i] == 0) continue;
            WidePoint<F::width>& p = c.points[i];
            const F bouncing = F::maskOf(bounces[i]);
            const Velocities<F> before = v;
            const F rAx = F::load(p.anchorAX), rAy = F::load(p.anchorAY);
            const F rBx = F::load(p.anchorBX), rBy = F::load(p.anchorBY);
            F dvx, dvy;
            relativeVelocity(v, rAx, rAy, rBx, rBy, dvx, dvy);
            const F vn = dvx * nx + dvy * ny;
            const F old = F::load(p.normalImpulse);
            F impulse =
                -F::load(p.normalMass) * (vn + restitution * F::load(bounce.approachVelocity[i]));
            const F total = F::max(old + impulse, zero);
            impulse = total - old;
            F::store(p.normalImpulse, F::select(bouncing, total, old));
            const F oldMax = F::load(p.maxNormalImpulse);
            F::store(p.maxNormalImpulse, F::select(bouncing, F::max(oldMax, impulse), oldMax));
            applyImpulse(v, m, rAx, rAy, rBx, rBy, impulse * nx, impulse * ny);
            v = selectLanes(bouncing, v, before);
        }
        scatter(bodies, c.bodyA, c.movableA, v.vAx, v.vAy, v.wA, a.dAngle);
        scatter(bodies, c.bodyB, c.movableB, v.vBx, v.vBy, v.wB, b.dAngle);
    }
}

} // namespace rigid2d::detail
