#include "solver/wide_joints.hpp"

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

} // namespace

bool isWidePointJoint(const JointConstraint& c) noexcept {
    const JointParams& p = *c.params;
    const JointImpulses& j = c.impulses;
    return c.type == JointType::Revolute && !p.enableSpring && !p.enableMotor && !p.enableLimit &&
           j.spring == 0.0f && j.motor == 0.0f && j.lower == 0.0f && j.upper == 0.0f;
}

void packWideJoints(std::span<const JointConstraint> joints,
                    std::span<const std::uint32_t> candidates, const ContactColouring& colouring,
                    std::vector<WideJoint>& out) {
    std::size_t blocks = 0;
    for (int k = 0; k < kContactColourCount; ++k) blocks += (colouring.colour(k).size() + 3) / 4;
    out.resize(blocks); // every lane of every block is written below
    std::size_t block = 0;
    for (int k = 0; k < kContactColourCount; ++k) {
        const std::span<const std::uint32_t> colour = colouring.colour(k);
        for (std::size_t i = 0; i < colour.size(); i += 4) {
            WideJoint& w = out[block++];
            for (std::size_t lane = 0; lane < 4; ++lane) {
                if (i + lane < colour.size()) {
                    const std::uint32_t joint = candidates[colour[i + lane]];
                    setLane(w, lane, joint, &joints[joint]);
                } else {
                    setLane(w, lane, kNoWideJoint, nullptr);
                }
            }
        }
    }
}

void warmStartWideJoints(std::span<SolverState> bodies, std::span<const WideJoint> wide) {
    for (const WideJoint& c : wide) {
        const WideBodies a = gather(bodies, c.bodyA, true);
        const WideBodies b = gather(bodies, c.bodyB, true);
        Velocities v{a.vx, a.vy, a.w, b.vx, b.vy, b.w};
        const Masses m{load4(c.mA), load4(c.iA), load4(c.mB), load4(c.iB)};
        const Arms r = Arms::of(c, a, b);
        applyImpulse(v, m, r.rAx, r.rAy, r.rBx, r.rBy, load4(c.impulseX), load4(c.impulseY));
        scatter(bodies, c.bodyA, v.vAx, v.vAy, v.wA, a.dAngle);
        scatter(bodies, c.bodyB, v.vBx, v.vBy, v.wB, b.dAngle);
    }
}

// pointImpulse (joint_math.hpp) lane by lane, in its order of operations.
void solveWideJoints(std::span<SolverState> bodies, std::span<WideJoint> wide, const Softness& soft,
                     bool useBias) {
    const Float4 zero = splat4(0.0f), one = splat4(1.0f);
    const Float4 biasRate = splat4(soft.biasRate);
    const Float4 massScale = useBias ? splat4(soft.massScale) : one;
    const Float4 impulseScale = useBias ? splat4(soft.impulseScale) : zero;
    for (WideJoint& c : wide) {
        const WideBodies a = gather(bodies, c.bodyA, true);
        const WideBodies b = gather(bodies, c.bodyB, true);
        Velocities v{a.vx, a.vy, a.w, b.vx, b.vy, b.w};
        const Float4 mA = load4(c.mA), iA = load4(c.iA), mB = load4(c.mB), iB = load4(c.iB);
        const Arms r = Arms::of(c, a, b);
        Float4 dvx, dvy;
        relativeVelocity(v, r.rAx, r.rAy, r.rBx, r.rBy, dvx, dvy);
        Float4 biasX = zero, biasY = zero;
        if (useBias) {
            // The anchors' separation now: d = (dpB - dpA) + deltaCenter + (rB - rA).
            const Float4 dx = ((b.dpx - a.dpx) + load4(c.deltaCenterX)) + (r.rBx - r.rAx);
            const Float4 dy = ((b.dpy - a.dpy) + load4(c.deltaCenterY)) + (r.rBy - r.rAy);
            biasX = biasRate * dx;
            biasY = biasRate * dy;
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
        const Float4 px = -massScale * kx - impulseScale * oldX;
        const Float4 py = -massScale * ky - impulseScale * oldY;
        store4(c.impulseX, oldX + px);
        store4(c.impulseY, oldY + py);
        applyImpulse(v, Masses{mA, iA, mB, iB}, r.rAx, r.rAy, r.rBx, r.rBy, px, py);
        scatter(bodies, c.bodyA, v.vAx, v.vAy, v.wA, a.dAngle);
        scatter(bodies, c.bodyB, v.vBx, v.vBy, v.wB, b.dAngle);
    }
}

void storeWideJointImpulses(std::span<const WideJoint> wide, std::span<JointConstraint> joints) {
    for (const WideJoint& w : wide) {
        for (std::size_t lane = 0; lane < 4; ++lane) {
            if (w.joint[lane] == kNoWideJoint) continue;
            joints[w.joint[lane]].impulses.linear = {w.impulseX[lane], w.impulseY[lane]};
        }
    }
}

} // namespace rigid2d::detail
