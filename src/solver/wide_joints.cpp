#include "solver/wide_joints.hpp"

#include "solver/joint_math.hpp"
#include "solver/wide_bodies.hpp"

namespace rigid2d::detail {

namespace {

// Lane `lane` of `w` from `c`; a missing joint gets the static slot, zero masses and impulse.
void setLane(WideJoint& w, std::size_t lane, std::uint32_t index, const JointConstraint* c) {
    w.joint[lane] = index;
    w.bodyA[lane] = c != nullptr ? c->bodyA : 0;
    w.bodyB[lane] = c != nullptr ? c->bodyB : 0;
    w.frameAX[lane] = c != nullptr ? c->frameA.x : 0.0f;
    w.frameAY[lane] = c != nullptr ? c->frameA.y : 0.0f;
    w.frameBX[lane] = c != nullptr ? c->frameB.x : 0.0f;
    w.frameBY[lane] = c != nullptr ? c->frameB.y : 0.0f;
    w.deltaCenterX[lane] = c != nullptr ? c->deltaCenter.x : 0.0f;
    w.deltaCenterY[lane] = c != nullptr ? c->deltaCenter.y : 0.0f;
    w.mA[lane] = c != nullptr ? c->mA : 0.0f;
    w.iA[lane] = c != nullptr ? c->iA : 0.0f;
    w.mB[lane] = c != nullptr ? c->mB : 0.0f;
    w.iB[lane] = c != nullptr ? c->iB : 0.0f;
    w.impulseX[lane] = c != nullptr ? c->impulses.linear.x : 0.0f;
    w.impulseY[lane] = c != nullptr ? c->impulses.linear.y : 0.0f;
}

/// The anchors relative to the centres now: the start-of-step frames turned by the bodies'
/// rotations since (JointPose::of).
struct Arms {
    Float4 rAx, rAy, rBx, rBy;

    [[nodiscard]] static RIGID2D_ALWAYS_INLINE Arms of(const WideJoint& c, const WideBodies& a,
                                                       const WideBodies& b) {
        const Float4 fAx = load4(c.frameAX), fAy = load4(c.frameAY);
        const Float4 fBx = load4(c.frameBX), fBy = load4(c.frameBY);
        return {a.qc * fAx - a.qs * fAy, a.qs * fAx + a.qc * fAy, b.qc * fBx - b.qs * fBy,
                b.qs * fBx + b.qc * fBy};
    }
};

// Lane `lane` of `w` from the revolute joint `c` (nullptr: an unused lane). A row the joint does
// not have gets zeros, so that its arithmetic, done and then discarded, stays finite.
void setRevoluteLane(WideRevolute& w, std::size_t lane, std::uint32_t index,
                     const JointConstraint* c, const JointStep& step) {
    setLane(w.point, lane, index, c);
    const JointParams& p = c != nullptr ? *c->params : kDefaultJointParams;
    const JointImpulses j = c != nullptr ? c->impulses : JointImpulses{};
    const bool spring = p.enableSpring && p.hertz > 0.0f;
    const Softness soft = spring ? springSoftness(p, step.h) : Softness{};
    w.deltaAngle[lane] = c != nullptr ? c->deltaAngle : 0.0f;
    w.axialMass[lane] = c != nullptr ? inverseOrZero(c->iA + c->iB) : 0.0f; // prepareRevolute
    w.springOn[lane] = spring ? 1.0f : 0.0f;
    w.springBiasRate[lane] = soft.biasRate;
    w.springMassScale[lane] = soft.massScale;
    w.springImpulseScale[lane] = soft.impulseScale;
    w.motorOn[lane] = p.enableMotor ? 1.0f : 0.0f;
    w.motorSpeed[lane] = p.enableMotor ? p.motorSpeed : 0.0f;
    w.maxMotorImpulse[lane] = p.enableMotor ? step.h * p.maxMotorForce : 0.0f;
    w.limitOn[lane] = p.enableLimit ? 1.0f : 0.0f;
    w.lower[lane] = p.enableLimit ? p.lower : 0.0f;
    w.upper[lane] = p.enableLimit ? p.upper : 0.0f;
    w.springImpulse[lane] = j.spring;
    w.motorImpulse[lane] = j.motor;
    w.lowerImpulse[lane] = j.lower;
    w.upperImpulse[lane] = j.upper;
}

/// The joint softness as the point constraint uses it in a pass with or without bias.
struct PointSoftness {
    Float4 biasRate, massScale, impulseScale;

    [[nodiscard]] static PointSoftness of(const JointStep& step, bool useBias) {
        return {splat4(step.joint.biasRate), splat4(useBias ? step.joint.massScale : 1.0f),
                splat4(useBias ? step.joint.impulseScale : 0.0f)};
    }
};

// Angular impulse L: -L on A, +L on B (JointVelocity::applyAngular).
RIGID2D_ALWAYS_INLINE void applyAngular(Velocities& v, const Masses& m, Float4 L) {
    v.wA = v.wA - m.iA * L;
    v.wB = v.wB + m.iB * L;
}

// pointImpulse (joint_math.hpp) lane by lane, in its order of operations, applied to `v`.
RIGID2D_ALWAYS_INLINE void solvePoint(WideJoint& c, const WideBodies& a, const WideBodies& b,
                                      const PointSoftness& soft, bool useBias, Velocities& v) {
    const Float4 zero = splat4(0.0f), one = splat4(1.0f);
    const Float4 mA = load4(c.mA), iA = load4(c.iA), mB = load4(c.mB), iB = load4(c.iB);
    const Arms r = Arms::of(c, a, b);
    Float4 dvx, dvy;
    relativeVelocity(v, r.rAx, r.rAy, r.rBx, r.rBy, dvx, dvy);
    Float4 biasX = zero, biasY = zero;
    if (useBias) {
        // The anchors' separation now: d = (dpB - dpA) + deltaCenter + (rB - rA).
        const Float4 dx = ((b.dpx - a.dpx) + load4(c.deltaCenterX)) + (r.rBx - r.rAx);
        const Float4 dy = ((b.dpy - a.dpy) + load4(c.deltaCenterY)) + (r.rBy - r.rAy);
        biasX = soft.biasRate * dx;
        biasY = soft.biasRate * dy;
    }
    const Float4 rx = dvx + biasX, ry = dvy + biasY;
    // K^-1 (Cdot + bias) with K the point mass matrix (Mat22::pointMass, Mat22::solve).
    const Float4 mass = mA + mB;
    const Float4 k11 = (mass + iA * r.rAy * r.rAy) + iB * r.rBy * r.rBy;
    const Float4 k12 = -iA * r.rAy * r.rAx - iB * r.rBy * r.rBx;
    const Float4 k22 = (mass + iA * r.rAx * r.rAx) + iB * r.rBx * r.rBx;
    const Float4 det = k11 * k22 - k12 * k12;
    // A singular K (both bodies immovable, an unused lane) keeps det, 0: no division by zero.
    const Float4 regular = notEqual4(det, zero);
    const Float4 invDet = select4(regular, one / select4(regular, det, one), det);
    const Float4 kx = invDet * (k22 * rx - k12 * ry);
    const Float4 ky = invDet * (k11 * ry - k12 * rx);
    const Float4 oldX = load4(c.impulseX), oldY = load4(c.impulseY);
    const Float4 px = -soft.massScale * kx - soft.impulseScale * oldX;
    const Float4 py = -soft.massScale * ky - soft.impulseScale * oldY;
    store4(c.impulseX, oldX + px);
    store4(c.impulseY, oldY + py);
    applyImpulse(v, Masses{mA, iA, mB, iB}, r.rAx, r.rAy, r.rBx, r.rBy, px, py);
}

// Both sides' new velocities back, leaving out the lanes whose body cannot move.
RIGID2D_ALWAYS_INLINE void scatterBoth(std::span<SolverState> bodies, const WideJoint& c,
                                       const WideBodies& a, const WideBodies& b,
                                       const Velocities& v) {
    scatter(bodies, c.bodyA, movableLanes(load4(c.mA), load4(c.iA)), v.vAx, v.vAy, v.wA, a.dAngle);
    scatter(bodies, c.bodyB, movableLanes(load4(c.mB), load4(c.iB)), v.vBx, v.vBy, v.wB, b.dAngle);
}

} // namespace

WideJointKind wideJointKind(const JointConstraint& c) noexcept {
    if (c.type != JointType::Revolute) return WideJointKind::None;
    const JointParams& p = *c.params;
    const JointImpulses& j = c.impulses;
    const bool plain = !p.enableSpring && !p.enableMotor && !p.enableLimit && j.spring == 0.0f &&
                       j.motor == 0.0f && j.lower == 0.0f && j.upper == 0.0f;
    return plain ? WideJointKind::Point : WideJointKind::Revolute;
}

void packWideJoints(std::span<const JointConstraint> joints,
                    std::span<const std::uint32_t> candidates, const ContactColouring& colouring,
                    const JointStep& step, std::vector<WideJoint>& points,
                    std::vector<WideRevolute>& revolutes, ColourBlocks& pointBlocks,
                    ColourBlocks& revoluteBlocks) {
    points.clear();
    revolutes.clear();
    for (int k = 0; k < kContactColourCount; ++k) {
        pointBlocks.start[k] = static_cast<std::uint32_t>(points.size());
        revoluteBlocks.start[k] = static_cast<std::uint32_t>(revolutes.size());
        // Each colour starts new blocks: the lanes of a block must share no movable body.
        std::size_t pointLanes = 0, revoluteLanes = 0;
        for (const std::uint32_t candidate : colouring.colour(k)) {
            const std::uint32_t index = candidates[candidate];
            const JointConstraint& c = joints[index];
            if (wideJointKind(c) == WideJointKind::Point) {
                if (pointLanes % 4 == 0) points.emplace_back();
                setLane(points.back(), pointLanes++ % 4, index, &c);
            } else {
                if (revoluteLanes % 4 == 0) revolutes.emplace_back();
                setRevoluteLane(revolutes.back(), revoluteLanes++ % 4, index, &c, step);
            }
        }
        for (; pointLanes % 4 != 0; ++pointLanes)
            setLane(points.back(), pointLanes % 4, kNoWideJoint, nullptr);
        for (; revoluteLanes % 4 != 0; ++revoluteLanes)
            setRevoluteLane(revolutes.back(), revoluteLanes % 4, kNoWideJoint, nullptr, step);
    }
    pointBlocks.start[kContactColourCount] = static_cast<std::uint32_t>(points.size());
    revoluteBlocks.start[kContactColourCount] = static_cast<std::uint32_t>(revolutes.size());
}

void warmStartWideJoints(std::span<SolverState> bodies, std::span<const WideJoint> wide) {
    for (const WideJoint& c : wide) {
        const WideBodies a = gather(bodies, c.bodyA, true);
        const WideBodies b = gather(bodies, c.bodyB, true);
        Velocities v{a.vx, a.vy, a.w, b.vx, b.vy, b.w};
        const Masses m{load4(c.mA), load4(c.iA), load4(c.mB), load4(c.iB)};
        const Arms r = Arms::of(c, a, b);
        applyImpulse(v, m, r.rAx, r.rAy, r.rBx, r.rBy, load4(c.impulseX), load4(c.impulseY));
        scatterBoth(bodies, c, a, b, v);
    }
}

void solveWideJoints(std::span<SolverState> bodies, std::span<WideJoint> wide,
                     const JointStep& step, bool useBias) {
    const PointSoftness soft = PointSoftness::of(step, useBias);
    for (WideJoint& c : wide) {
        const WideBodies a = gather(bodies, c.bodyA, true);
        const WideBodies b = gather(bodies, c.bodyB, true);
        Velocities v{a.vx, a.vy, a.w, b.vx, b.vy, b.w};
        solvePoint(c, a, b, soft, useBias, v);
        scatterBoth(bodies, c, a, b, v);
    }
}

// warmStartRevolute lane by lane.
void warmStartWideRevolutes(std::span<SolverState> bodies, std::span<const WideRevolute> wide) {
    for (const WideRevolute& w : wide) {
        const WideJoint& c = w.point;
        const WideBodies a = gather(bodies, c.bodyA, true);
        const WideBodies b = gather(bodies, c.bodyB, true);
        Velocities v{a.vx, a.vy, a.w, b.vx, b.vy, b.w};
        const Masses m{load4(c.mA), load4(c.iA), load4(c.mB), load4(c.iB)};
        const Arms r = Arms::of(c, a, b);
        applyImpulse(v, m, r.rAx, r.rAy, r.rBx, r.rBy, load4(c.impulseX), load4(c.impulseY));
        const Float4 angular =
            ((load4(w.springImpulse) + load4(w.motorImpulse)) + load4(w.lowerImpulse)) -
            load4(w.upperImpulse);
        applyAngular(v, m, angular);
        scatterBoth(bodies, c, a, b, v);
    }
}

// solveRevolute lane by lane: spring, motor, lower and upper limit on the relative rotation, then
// the point. A row a lane's joint does not have applies nothing and keeps its impulse.
void solveWideRevolutes(std::span<SolverState> bodies, std::span<WideRevolute> wide,
                        const JointStep& step, bool useBias) {
    const Float4 zero = splat4(0.0f), one = splat4(1.0f);
    const Float4 invH = splat4(step.inverseH);
    const Float4 jointBiasRate = splat4(step.joint.biasRate);
    const Float4 jointMassScale = splat4(step.joint.massScale);
    const Float4 jointImpulseScale = splat4(step.joint.impulseScale);
    const PointSoftness soft = PointSoftness::of(step, useBias);
    // limitImpulse: speculative while open, soft push-out when violated and biased.
    const auto limit = [&](Float4 C, Float4 Cdot, Float4 mass, float* accumulated, Float4 on) {
        const Float4 open = greater4(C, zero);
        const Float4 bias = select4(open, C * invH, useBias ? jointBiasRate * C : zero);
        const Float4 massScale = select4(open, one, useBias ? jointMassScale : one);
        const Float4 impulseScale = select4(open, zero, useBias ? jointImpulseScale : zero);
        const Float4 old = load4(accumulated);
        const Float4 total =
            max4((old - mass * massScale * (Cdot + bias)) - impulseScale * old, zero);
        store4(accumulated, select4(on, total, old));
        return select4(on, total - old, zero);
    };
    for (WideRevolute& w : wide) {
        WideJoint& c = w.point;
        const WideBodies a = gather(bodies, c.bodyA, true);
        const WideBodies b = gather(bodies, c.bodyB, true);
        Velocities v{a.vx, a.vy, a.w, b.vx, b.vy, b.w};
        const Masses m{load4(c.mA), load4(c.iA), load4(c.mB), load4(c.iB)};
        const Float4 mass = load4(w.axialMass);
        const Float4 angle = load4(w.deltaAngle) + (b.dAngle - a.dAngle);
        {
            const Float4 on = greater4(load4(w.springOn), zero);
            const Float4 old = load4(w.springImpulse);
            const Float4 impulse = -load4(w.springMassScale) * mass *
                                       ((v.wB - v.wA) + load4(w.springBiasRate) * angle) -
                                   load4(w.springImpulseScale) * old;
            store4(w.springImpulse, select4(on, old + impulse, old));
            applyAngular(v, m, select4(on, impulse, zero));
        }
        {
            const Float4 on = greater4(load4(w.motorOn), zero);
            const Float4 old = load4(w.motorImpulse);
            const Float4 maxImpulse = load4(w.maxMotorImpulse);
            // std::clamp(x, -max, max) for max >= 0.
            const Float4 total = min4(
                max4(old + mass * (load4(w.motorSpeed) - (v.wB - v.wA)), -maxImpulse), maxImpulse);
            store4(w.motorImpulse, select4(on, total, old));
            applyAngular(v, m, select4(on, total - old, zero));
        }
        const Float4 limitOn = greater4(load4(w.limitOn), zero);
        applyAngular(v, m,
                     limit(angle - load4(w.lower), v.wB - v.wA, mass, w.lowerImpulse, limitOn));
        applyAngular(v, m,
                     -limit(load4(w.upper) - angle, v.wA - v.wB, mass, w.upperImpulse, limitOn));
        solvePoint(c, a, b, soft, useBias, v);
        scatterBoth(bodies, c, a, b, v);
    }
}

void storeWideJointImpulses(std::span<const WideJoint> points,
                            std::span<const WideRevolute> revolutes,
                            std::span<JointConstraint> joints) {
    for (const WideJoint& w : points) {
        for (std::size_t lane = 0; lane < 4; ++lane) {
            if (w.joint[lane] == kNoWideJoint) continue;
            joints[w.joint[lane]].impulses.linear = {w.impulseX[lane], w.impulseY[lane]};
        }
    }
    for (const WideRevolute& w : revolutes) {
        for (std::size_t lane = 0; lane < 4; ++lane) {
            if (w.point.joint[lane] == kNoWideJoint) continue;
            JointImpulses& j = joints[w.point.joint[lane]].impulses;
            j.linear = {w.point.impulseX[lane], w.point.impulseY[lane]};
            j.spring = w.springImpulse[lane];
            j.motor = w.motorImpulse[lane];
            j.lower = w.lowerImpulse[lane];
            j.upper = w.upperImpulse[lane];
        }
    }
}

} // namespace rigid2d::detail
