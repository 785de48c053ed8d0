#pragma once
// Building blocks every joint kind is made of: the two bodies' velocities held while a joint is
// solved, the current geometry from the step's position deltas, and the three kinds of scalar
// row (a spring, a motor, a one-sided limit, a rigid equality).

#include <algorithm>
#include <span>

#include "solver/joint_types.hpp"

namespace rigid2d::detail {

/// Velocities of a joint's bodies, loaded once per solve and stored back at the end.
struct JointVelocity {
    Vec2 vA, vB;
    float wA, wB;
    float mA, iA, mB, iB;

    [[nodiscard]] static JointVelocity load(std::span<const SolverState> bodies,
                                            const JointConstraint& c) noexcept {
        const SolverState& a = bodies[c.bodyA];
        const SolverState& b = bodies[c.bodyB];
        return {a.v, b.v, a.w, b.w, c.mA, c.iA, c.mB, c.iB};
    }
    void store(std::span<SolverState> bodies, const JointConstraint& c) const noexcept {
        bodies[c.bodyA].v = vA;
        bodies[c.bodyA].w = wA;
        bodies[c.bodyB].v = vB;
        bodies[c.bodyB].w = wB;
    }
    /// Impulse P through the anchors: -P on A at rA, +P on B at rB.
    void apply(Vec2 P, Vec2 rA, Vec2 rB) noexcept {
        vA -= mA * P;
        wA -= iA * cross(rA, P);
        vB += mB * P;
        wB += iB * cross(rB, P);
    }
    /// Impulse P along a line with angular parts lA (on A) and lB (on B).
    void applyLinear(Vec2 P, float lA, float lB) noexcept {
        vA -= mA * P;
        wA -= iA * lA;
        vB += mB * P;
        wB += iB * lB;
    }
    /// Angular impulse L: -L on A, +L on B.
    void applyAngular(float L) noexcept {
        wA -= iA * L;
        wB += iB * L;
    }
    /// Velocity of B's anchor relative to A's.
    [[nodiscard]] Vec2 relative(Vec2 rA, Vec2 rB) const noexcept {
        return vB + cross(wB, rB) - vA - cross(wA, rA);
    }
};

/// The joint's geometry now: anchors relative to the centres, their separation, the angle.
struct JointPose {
    Vec2 rA, rB;
    Vec2 d; ///< anchor B minus anchor A
    float angle;
    Vec2 axis; ///< JointConstraint::axis turned with A (prismatic, wheel)

    [[nodiscard]] static JointPose of(std::span<const SolverState> bodies,
                                      const JointConstraint& c) noexcept {
        const SolverState& a = bodies[c.bodyA];
        const SolverState& b = bodies[c.bodyB];
        JointPose p;
        p.rA = rotate(a.dq, c.frameA);
        p.rB = rotate(b.dq, c.frameB);
        p.d = (b.dp - a.dp) + c.deltaCenter + (p.rB - p.rA);
        p.angle = c.deltaAngle + (b.dAngle - a.dAngle);
        p.axis = rotate(a.dq, c.axis);
        return p;
    }
};

[[nodiscard]] inline float inverseOrZero(float k) noexcept { return k > 0.0f ? 1.0f / k : 0.0f; }

/// The 2x2 point-constraint mass matrix K of anchors rA, rB.
struct Mat22 {
    float a11, a12, a22;

    [[nodiscard]] static Mat22 pointMass(const JointVelocity& v, Vec2 rA, Vec2 rB) noexcept {
        const float m = v.mA + v.mB;
        return {m + v.iA * rA.y * rA.y + v.iB * rB.y * rB.y,
                -v.iA * rA.y * rA.x - v.iB * rB.y * rB.x,
                m + v.iA * rA.x * rA.x + v.iB * rB.x * rB.x};
    }
    /// K^-1 r, or 0 when K is singular (both bodies immovable).
    [[nodiscard]] Vec2 solve(Vec2 r) const noexcept {
        float det = a11 * a22 - a12 * a12;
        if (det != 0.0f) det = 1.0f / det;
        return {det * (a22 * r.x - a12 * r.y), det * (a11 * r.y - a12 * r.x)};
    }
};

/// The axis now (it turns with A) and the angular arms of the rows along and across it.
struct Slide {
    Vec2 axis, perp;
    float a1, a2; ///< along: cross(d + rA, axis), cross(rB, axis)
    float s1, s2; ///< across
    float translation;

    [[nodiscard]] static Slide of(const JointPose& pose) noexcept {
        Slide s;
        s.axis = pose.axis;
        s.perp = {-s.axis.y, s.axis.x};
        const Vec2 dA = pose.d + pose.rA;
        s.a1 = cross(dA, s.axis);
        s.a2 = cross(pose.rB, s.axis);
        s.s1 = cross(dA, s.perp);
        s.s2 = cross(pose.rB, s.perp);
        s.translation = dot(s.axis, pose.d);
        return s;
    }
    [[nodiscard]] float axialSpeed(const JointVelocity& v) const noexcept {
        return dot(axis, v.vB - v.vA) + a2 * v.wB - a1 * v.wA;
    }
    void pushAlong(JointVelocity& v, float impulse) const noexcept {
        v.applyLinear(impulse * axis, impulse * a1, impulse * a2);
    }
};

/// Effective mass along JointConstraint::axis at the start of the step (prismatic, wheel).
[[nodiscard]] inline float slideMass(const JointConstraint& c) noexcept {
    const Vec2 d = c.deltaCenter + c.frameB - c.frameA;
    const float a1 = cross(d + c.frameA, c.axis), a2 = cross(c.frameB, c.axis);
    return inverseOrZero(c.mA + c.mB + c.iA * a1 * a1 + c.iB * a2 * a2);
}

/// The softness of the joint's own spring, none when it is off or at 0 hertz.
[[nodiscard]] inline Softness springSoftness(const JointParams& p, float h) noexcept {
    return p.enableSpring && p.hertz > 0.0f ? makeSoftness(p.hertz, p.dampingRatio, h) : Softness{};
}

/// A spring row toward C = 0: returns the impulse and accumulates it.
[[nodiscard]] inline float springImpulse(float C, float Cdot, float mass, Softness soft,
                                         float& accumulated) noexcept {
    const float impulse =
        -soft.massScale * mass * (Cdot + soft.biasRate * C) - soft.impulseScale * accumulated;
    accumulated += impulse;
    return impulse;
}

/// A motor row driving Cdot to `speed` with at most `maxImpulse` per substep.
[[nodiscard]] inline float motorImpulse(float Cdot, float speed, float mass, float maxImpulse,
                                        float& accumulated) noexcept {
    const float old = accumulated;
    accumulated = std::clamp(old + mass * (speed - Cdot), -maxImpulse, maxImpulse);
    return accumulated - old;
}

/// A one-sided row keeping C >= 0: speculative while C > 0 (the gap may close this substep, no
/// more), soft push-out when violated and `useBias`.
[[nodiscard]] inline float limitImpulse(float C, float Cdot, float mass, const JointStep& step,
                                        bool useBias, float& accumulated) noexcept {
    float bias = 0.0f, massScale = 1.0f, impulseScale = 0.0f;
    if (C > 0.0f) {
        bias = C * step.inverseH;
    } else if (useBias) {
        bias = step.joint.biasRate * C;
        massScale = step.joint.massScale;
        impulseScale = step.joint.impulseScale;
    }
    const float old = accumulated;
    accumulated = std::max(old - mass * massScale * (Cdot + bias) - impulseScale * old, 0.0f);
    return accumulated - old;
}

/// An equality row C = 0, soft with the joint softness when `useBias`, else velocity only.
[[nodiscard]] inline float rigidImpulse(float C, float Cdot, float mass, const JointStep& step,
                                        bool useBias, float& accumulated) noexcept {
    float bias = 0.0f, massScale = 1.0f, impulseScale = 0.0f;
    if (useBias) {
        bias = step.joint.biasRate * C;
        massScale = step.joint.massScale;
        impulseScale = step.joint.impulseScale;
    }
    const float impulse = -mass * massScale * (Cdot + bias) - impulseScale * accumulated;
    accumulated += impulse;
    return impulse;
}

/// The rigid point constraint that revolute, weld and (softly) mouse joints share: anchor B on
/// anchor A. `soft` replaces the joint softness (a soft weld) when given.
[[nodiscard]] inline Vec2 pointImpulse(const JointVelocity& v, const JointPose& pose,
                                       const JointStep& step, bool useBias, const Softness* soft,
                                       Vec2& accumulated) noexcept {
    const Vec2 Cdot = v.relative(pose.rA, pose.rB);
    Vec2 bias{};
    float massScale = 1.0f, impulseScale = 0.0f;
    const Softness& s = soft != nullptr ? *soft : step.joint;
    if (useBias || soft != nullptr) {
        bias = s.biasRate * pose.d;
        massScale = s.massScale;
        impulseScale = s.impulseScale;
    }
    const Vec2 b = Mat22::pointMass(v, pose.rA, pose.rB).solve(Cdot + bias);
    const Vec2 impulse = -massScale * b - impulseScale * accumulated;
    accumulated += impulse;
    return impulse;
}

} // namespace rigid2d::detail
