#pragma once
// The bodies of four constraints at once, what the wide contact and joint loops share: gather the
// lanes' bodies from the solver array into registers, apply impulses lane by lane in the scalar
// solver's order of operations, scatter the velocities back.

#include <cstddef>
#include <cstdint>
#include <span>

#include "solver/float4.hpp"
#include "solver/solver_types.hpp"

namespace rigid2d::detail {

// The gather reads a body as two rows of four floats: (v.x, v.y, w, dAngle), (dp.x, dp.y, dq.c,
// dq.s); the scatter writes back the first row only (the velocity loops change no positions).
static_assert(sizeof(SolverState) == 32 && alignof(SolverState) >= 16);
static_assert(offsetof(SolverState, w) == 8 && offsetof(SolverState, dAngle) == 12);
static_assert(offsetof(SolverState, dp) == 16 && offsetof(SolverState, dq) == 24);

struct WideBodies {
    Float4 vx, vy, w, dAngle;
    Float4 dpx, dpy, qc, qs;
};

[[nodiscard]] RIGID2D_ALWAYS_INLINE const float* rowsOf(std::span<const SolverState> bodies,
                                                        std::uint32_t i) {
    return reinterpret_cast<const float*>(&bodies[i]);
}

[[nodiscard]] RIGID2D_ALWAYS_INLINE WideBodies gather(std::span<const SolverState> bodies,
                                                      const std::uint32_t (&ids)[4],
                                                      bool positions) {
    WideBodies b{};
    const float* p0 = rowsOf(bodies, ids[0]);
    const float* p1 = rowsOf(bodies, ids[1]);
    const float* p2 = rowsOf(bodies, ids[2]);
    const float* p3 = rowsOf(bodies, ids[3]);
    b.vx = load4(p0);
    b.vy = load4(p1);
    b.w = load4(p2);
    b.dAngle = load4(p3);
    transpose4(b.vx, b.vy, b.w, b.dAngle);
    if (positions) {
        b.dpx = load4(p0 + 4);
        b.dpy = load4(p1 + 4);
        b.qc = load4(p2 + 4);
        b.qs = load4(p3 + 4);
        transpose4(b.dpx, b.dpy, b.qc, b.qs);
    }
    return b;
}

/// The lanes whose body the solver moves (a nonzero inverse mass or inertia), as bits: only
/// those are written back. An immovable body (the static slot, a kinematic body) may sit in many
/// lanes of one colour, which workers solve at the same time; they must not all write it.
[[nodiscard]] RIGID2D_ALWAYS_INLINE unsigned movableLanes(Float4 invMass, Float4 invInertia) {
    const Float4 zero = splat4(0.0f);
    return laneBits4(notEqual4(invMass, zero)) | laneBits4(notEqual4(invInertia, zero));
}

RIGID2D_ALWAYS_INLINE void scatter(std::span<SolverState> bodies, const std::uint32_t (&ids)[4],
                                   unsigned lanes, Float4 r0, Float4 r1, Float4 r2, Float4 r3) {
    transpose4(r0, r1, r2, r3);
    float* p0 = reinterpret_cast<float*>(&bodies[ids[0]]);
    float* p1 = reinterpret_cast<float*>(&bodies[ids[1]]);
    float* p2 = reinterpret_cast<float*>(&bodies[ids[2]]);
    float* p3 = reinterpret_cast<float*>(&bodies[ids[3]]);
    if (lanes == 0xFu) [[likely]] { // a block of four bodies that move: no test per lane
        store4(p0, r0);
        store4(p1, r1);
        store4(p2, r2);
        store4(p3, r3);
        return;
    }
    if ((lanes & 1u) != 0) store4(p0, r0);
    if ((lanes & 2u) != 0) store4(p1, r1);
    if ((lanes & 4u) != 0) store4(p2, r2);
    if ((lanes & 8u) != 0) store4(p3, r3);
}

/// The velocities of both bodies of the lanes, what one point updates.
struct Velocities {
    Float4 vAx, vAy, wA, vBx, vBy, wB;
};

struct Masses {
    Float4 mA, iA, mB, iB;
};

// v_A -= m_A P, w_A -= i_A cross(r_A, P), v_B += m_B P, w_B += i_B cross(r_B, P), in the scalar
// solver's order of operations.
RIGID2D_ALWAYS_INLINE void applyImpulse(Velocities& v, const Masses& m, Float4 rAx, Float4 rAy,
                                        Float4 rBx, Float4 rBy, Float4 px, Float4 py) {
    v.vAx = v.vAx - m.mA * px;
    v.vAy = v.vAy - m.mA * py;
    v.wA = v.wA - m.iA * (rAx * py - rAy * px);
    v.vBx = v.vBx + m.mB * px;
    v.vBy = v.vBy + m.mB * py;
    v.wB = v.wB + m.iB * (rBx * py - rBy * px);
}

// dv = v_B + cross(w_B, r_B) - v_A - cross(w_A, r_A), cross(w, r) = (-w r.y, w r.x).
RIGID2D_ALWAYS_INLINE void relativeVelocity(const Velocities& v, Float4 rAx, Float4 rAy, Float4 rBx,
                                            Float4 rBy, Float4& dvx, Float4& dvy) {
    dvx = ((v.vBx + -v.wB * rBy) - v.vAx) - -v.wA * rAy;
    dvy = ((v.vBy + v.wB * rBx) - v.vAy) - v.wA * rAx;
}

} // namespace rigid2d::detail
