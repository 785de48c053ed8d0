#pragma once
// The wide joint loops over blocks of joints (wide_joints.hpp), written once for any lane type F
// (lanes.hpp) and instantiated per instruction set (wide_kernels.hpp), with raw pointers for the
// reason wide_contact_kernels.hpp gives.

#include <cstddef>

#include "solver/joint_types.hpp"
#include "solver/wide_bodies.hpp"
#include "solver/wide_joints.hpp"

namespace rigid2d::detail {

/// The anchors relative to the centres now: the start-of-step frames turned by the bodies'
/// rotations since (JointPose::of).
template <class F>
struct Arms {
    F rAx, rAy, rBx, rBy;

    [[nodiscard]] static RIGID2D_ALWAYS_INLINE Arms of(const WideJoint<F::width>& c,
                                                       const WideBodies<F>& a,
                                                       const WideBodies<F>& b) {
        const F fAx = F::load(c.frameAX), fAy = F::load(c.frameAY);
        const F fBx = F::load(c.frameBX), fBy = F::load(c.frameBY);
        return {a.qc * fAx - a.qs * fAy, a.qs * fAx + a.qc * fAy, b.qc * fBx - b.qs * fBy,
                b.qs * fBx + b.qc * fBy};
    }
};

/// The joint softness as the point constraint uses it in a pass with or without bias.
template <class F>
struct PointSoftness {
    F biasRate, massScale, impulseScale;

    [[nodiscard]] static PointSoftness of(const JointStep& step, bool useBias) {
        return {F::splat(step.joint.biasRate), F::splat(useBias ? step.joint.massScale : 1.0f),
                F::splat(useBias ? step.joint.impulseScale : 0.0f)};
    }
};

// Angular impulse L: -L on A, +L on B (JointVelocity::applyAngular).
template <class F>
RIGID2D_ALWAYS_INLINE void applyAngular(Velocities<F>& v, const Masses<F>& m, F L) {
    v.wA = v.wA - m.iA * L;
    v.wB = v.wB + m.iB * L;
}

// pointImpulse (joint_math.hpp) lane by lane, in its order of operations, applied to `v`.
template <class F>
RIGID2D_ALWAYS_INLINE void solvePoint(WideJoint<F::width>& c, const WideBodies<F>& a,
                                      const WideBodies<F>& b, const PointSoftness<F>& soft,
                                      bool useBias, Velocities<F>& v) {
    const F zero = F::splat(0.0f), one = F::splat(1.0f);
    const F mA = F::load(c.mA), iA = F::load(c.iA), mB = F::load(c.mB), iB = F::load(c.iB);
    const Arms<F> r = Arms<F>::of(c, a, b);
    F dvx, dvy;
    relativeVelocity(v, r.rAx, r.rAy, r.rBx, r.rBy, dvx, dvy);
    F biasX = zero, biasY = zero;
    if (useBias) {
        // The anchors' separation now: d = (dpB - dpA) + deltaCenter + (rB - rA).
        const F dx = ((b.dpx - a.dpx) + F::load(c.deltaCenterX)) + (r.rBx - r.rAx);
        const F dy = ((b.dpy - a.dpy) + F::load(c.deltaCenterY)) + (r.rBy - r.rAy);
        biasX = soft.biasRate * dx;
        biasY = soft.biasRate * dy;
    }
    const F rx = dvx + biasX, ry = dvy + biasY;
    // K^-1 (Cdot + bias) with K the point mass matrix (Mat22::pointMass, Mat22::solve).
    const F mass = mA + mB;
    const F k11 = (mass + iA * r.rAy * r.rAy) + iB * r.rBy * r.rBy;
    const F k12 = -iA * r.rAy * r.rAx - iB * r.rBy * r.rBx;
    const F k22 = (mass + iA * r.rAx * r.rAx) + iB * r.rBx * r.rBx;
    const F det = k11 * k22 - k12 * k12;
    // A singular K (both bodies immovable, an unused lane) keeps det, 0: no division by zero.
    const F regular = F::notEqual(det, zero);
    const F invDet = F::select(regular, one / F::opaque(F::select(regular, det, one)), det);
    const F kx = invDet * (k22 * rx - k12 * ry);
    const F ky = invDet * (k11 * ry - k12 * rx);
    const F oldX = F::load(c.impulseX), oldY = F::load(c.impulseY);
    const F px = -soft.massScale * kx - soft.impulseScale * oldX;
    const F py = -soft.massScale * ky - soft.impulseScale * oldY;
    F::store(c.impulseX, oldX + px);
    F::store(c.impulseY, oldY + py);
    applyImpulse(v, Masses<F>{mA, iA, mB, iB}, r.rAx, r.rAy, r.rBx, r.rBy, px, py);
}

// Both sides' new velocities back, leaving out the lanes whose body cannot move.
template <class F>
RIGID2D_ALWAYS_INLINE void scatterBoth(SolverState* bodies, const WideJoint<F::width>& c,
                                       const WideBodies<F>& a, const WideBodies<F>& b,
                                       const Velocities<F>& v) {
    scatter(bodies, c.bodyA, movableLanes(F::load(c.mA), F::load(c.iA)), v.vAx, v.vAy, v.wA,
            a.dAngle);
    scatter(bodies, c.bodyB, movableLanes(F::load(c.mB), F::load(c.iB)), v.vBx, v.vBy, v.wB,
            b.dAngle);
}

template <class F>
void warmStartWideJoints(SolverState* bodies, const WideJoint<F::width>* blocks,
                         std::size_t count) {
    for (std::size_t k = 0; k < count; ++k) {
        const WideJoint<F::width>& c = blocks[k];
        auto [a, b, v, m] = loadBlock<F>(bodies, c.bodyA, c.bodyB, true, c.mA, c.iA, c.mB, c.iB);
        const Arms<F> r = Arms<F>::of(c, a, b);
        applyImpulse(v, m, r.rAx, r.rAy, r.rBx, r.rBy, F::load(c.impulseX), F::load(c.impulseY));
        scatterBoth(bodies, c, a, b, v);
    }
}

template <class F>
void solveWideJoints(SolverState* bodies, WideJoint<F::width>* blocks, std::size_t count,
                     const JointStep& step, bool useBias) {
    const PointSoftness<F> soft = PointSoftness<F>::of(step, useBias);
    for (std::size_t k = 0; k < count; ++k) {
        WideJoint<F::width>& c = blocks[k];
        const WideBodies<F> a = gather<F>(bodies, c.bodyA, true);
        const WideBodies<F> b = gather<F>(bodies, c.bodyB, true);
        Velocities<F> v{a.vx, a.vy, a.w, b.vx, b.vy, b.w};
        solvePoint(c, a, b, soft, useBias, v);
        scatterBoth(bodies, c, a, b, v);
    }
}

// warmStartRevolute lane by lane.
template <class F>
void warmStartWideRevolutes(SolverState* bodies, const WideRevolute<F::width>* blocks,
                            std::size_t count) {
    for (std::size_t k = 0; k < count; ++k) {
        const WideRevolute<F::width>& w = blocks[k];
        const WideJoint<F::width>& c = w.point;
        auto [a, b, v, m] = loadBlock<F>(bodies, c.bodyA, c.bodyB, true, c.mA, c.iA, c.mB, c.iB);
        const Arms<F> r = Arms<F>::of(c, a, b);
        applyImpulse(v, m, r.rAx, r.rAy, r.rBx, r.rBy, F::load(c.impulseX), F::load(c.impulseY));
        const F angular =
            ((F::load(w.springImpulse) + F::load(w.motorImpulse)) + F::load(w.lowerImpulse)) -
            F::load(w.upperImpulse);
        applyAngular(v, m, angular);
        scatterBoth(bodies, c, a, b, v);
    }
}

// solveRevolute lane by lane: spring, motor, lower and upper limit on the relative rotation, then
// the point. A row a lane's joint does not have applies nothing and keeps its impulse.
template <class F>
void solveWideRevolutes(SolverState* bodies, WideRevolute<F::width>* blocks, std::size_t count,
                        const JointStep& step, bool useBias) {
    const F zero = F::splat(0.0f), one = F::splat(1.0f);
    const F invH = F::splat(step.inverseH);
    const F jointBiasRate = F::splat(step.joint.biasRate);
    const F jointMassScale = F::splat(step.joint.massScale);
    const F jointImpulseScale = F::splat(step.joint.impulseScale);
    const PointSoftness<F> soft = PointSoftness<F>::of(step, useBias);
    // limitImpulse: speculative while open, soft push-out when violated and biased.
    const auto limit = [&](F C, F Cdot, F mass, float* accumulated, F on) {
        const F open = F::greater(C, zero);
        const F bias = F::select(open, C * invH, useBias ? jointBiasRate * C : zero);
        const F massScale = F::select(open, one, useBias ? jointMassScale : one);
        const F impulseScale = F::select(open, zero, useBias ? jointImpulseScale : zero);
        const F old = F::load(accumulated);
        const F total = F::max((old - mass * massScale * (Cdot + bias)) - impulseScale * old, zero);
        F::store(accumulated, F::select(on, total, old));
        return F::select(on, total - old, zero);
    };
    for (std::size_t k = 0; k < count; ++k) {
        WideRevolute<F::width>& w = blocks[k];
        WideJoint<F::width>& c = w.point;
        auto [a, b, v, m] = loadBlock<F>(bodies, c.bodyA, c.bodyB, true, c.mA, c.iA, c.mB, c.iB);
        const F mass = F::load(w.axialMass);
        const F angle = F::load(w.deltaAngle) + (b.dAngle - a.dAngle);
        {
            const F on = F::greater(F::load(w.springOn), zero);
            const F old = F::load(w.springImpulse);
            const F impulse = -F::load(w.springMassScale) * mass *
                                  ((v.wB - v.wA) + F::load(w.springBiasRate) * angle) -
                              F::load(w.springImpulseScale) * old;
            F::store(w.springImpulse, F::select(on, old + impulse, old));
            applyAngular(v, m, F::select(on, impulse, zero));
        }
        {
            const F on = F::greater(F::load(w.motorOn), zero);
            const F old = F::load(w.motorImpulse);
            const F maxImpulse = F::load(w.maxMotorImpulse);
            // std::clamp(x, -max, max) for max >= 0.
            const F total =
                F::min(F::max(old + mass * (F::load(w.motorSpeed) - (v.wB - v.wA)), -maxImpulse),
                       maxImpulse);
            F::store(w.motorImpulse, F::select(on, total, old));
            applyAngular(v, m, F::select(on, total - old, zero));
        }
        const F limitOn = F::greater(F::load(w.limitOn), zero);
        applyAngular(v, m,
                     limit(angle - F::load(w.lower), v.wB - v.wA, mass, w.lowerImpulse, limitOn));
        applyAngular(v, m,
                     -limit(F::load(w.upper) - angle, v.wA - v.wB, mass, w.upperImpulse, limitOn));
        solvePoint(c, a, b, soft, useBias, v);
        scatterBoth(bodies, c, a, b, v);
    }
}

} // namespace rigid2d::detail
