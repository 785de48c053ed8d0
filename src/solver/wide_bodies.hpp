#pragma once
// The bodies of one block of constraints, what the wide contact and joint loops share, over any
// lane type F (lanes.hpp): gather the lanes' bodies from the solver array into registers, apply
// impulses lane by lane in the scalar solver's order of operations, scatter the velocities back.
// Everything here is a template on F, so that the AVX2 translation unit defines only functions of
// its own lane type (a shared inline function compiled there could be the one the linker keeps).

#include <cstddef>
#include <cstdint>

#include "solver/lanes.hpp"
#include "solver/solver_types.hpp"

namespace rigid2d::detail {

// The gather reads a body as two rows of four floats: (v.x, v.y, w, dAngle), (dp.x, dp.y, dq.c,
// dq.s); the scatter writes back the first row only (the velocity loops change no positions).
static_assert(sizeof(SolverState) == 32 && alignof(SolverState) >= 16);
static_assert(offsetof(SolverState, w) == 8 && offsetof(SolverState, dAngle) == 12);
static_assert(offsetof(SolverState, dp) == 16 && offsetof(SolverState, dq) == 24);

template <class F>
struct WideBodies {
    F vx, vy, w, dAngle;
    F dpx, dpy, qc, qs;
};

template <class F>
[[nodiscard]] RIGID2D_ALWAYS_INLINE WideBodies<F> gather(const SolverState* bodies,
                                                         const std::uint32_t* ids, bool positions) {
    const float* rows[F::width];
    for (int i = 0; i < F::width; ++i) rows[i] = reinterpret_cast<const float*>(bodies + ids[i]);
    F r[4];
    F::gatherRows(rows, r);
    WideBodies<F> b{r[0], r[1], r[2], r[3], r[0], r[0], r[0], r[0]};
    if (positions) {
        for (int i = 0; i < F::width; ++i) rows[i] += 4;
        F::gatherRows(rows, r);
        b.dpx = r[0];
        b.dpy = r[1];
        b.qc = r[2];
        b.qs = r[3];
    }
    return b;
}

/// The lanes whose body the solver moves (a nonzero inverse mass or inertia), as bits: only
/// those are written back. An immovable body (the static slot, a kinematic body) may sit in many
/// lanes of one colour, which workers solve at the same time; they must not all write it.
template <class F>
[[nodiscard]] RIGID2D_ALWAYS_INLINE unsigned movableLanes(F invMass, F invInertia) {
    const F zero = F::splat(0.0f);
    return F::laneBits(F::notEqual(invMass, zero)) | F::laneBits(F::notEqual(invInertia, zero));
}

template <class F>
RIGID2D_ALWAYS_INLINE void scatter(SolverState* bodies, const std::uint32_t* ids, unsigned lanes,
                                   F vx, F vy, F w, F dAngle) {
    float* rows[F::width];
    for (int i = 0; i < F::width; ++i) rows[i] = reinterpret_cast<float*>(bodies + ids[i]);
    const F in[4] = {vx, vy, w, dAngle};
    F::scatterRows(rows, lanes, in);
}

/// The velocities of both bodies of the lanes, what one point updates.
template <class F>
struct Velocities {
    F vAx, vAy, wA, vBx, vBy, wB;
};

/// Lane by lane, the velocities of `a` where `mask` is set, else those of `b`: how a loop undoes
/// a point's update in the lanes it does not apply to.
template <class F>
[[nodiscard]] RIGID2D_ALWAYS_INLINE Velocities<F> selectLanes(F mask, const Velocities<F>& a,
                                                              const Velocities<F>& b) {
    return {F::select(mask, a.vAx, b.vAx), F::select(mask, a.vAy, b.vAy),
            F::select(mask, a.wA, b.wA),   F::select(mask, a.vBx, b.vBx),
            F::select(mask, a.vBy, b.vBy), F::select(mask, a.wB, b.wB)};
}

template <class F>
struct Masses {
    F mA, iA, mB, iB;
};

/// What a block's loop starts from: both sides' bodies gathered (with their position deltas if
/// `positions`, as gather), their velocities, which the loop updates, and their inverse masses and
/// inertias.
template <class F>
struct BlockBodies {
    WideBodies<F> a, b;
    Velocities<F> v;
    Masses<F> m;
};

/// The block's lanes: `idsA`, `idsB` and the four mass arrays are its fields (passed one by one
/// because contact and joint blocks name their masses differently). Force-inlined like gather, so
/// that the kernels keep the result in registers.
template <class F>
[[nodiscard]] RIGID2D_ALWAYS_INLINE BlockBodies<F>
loadBlock(const SolverState* bodies, const std::uint32_t* idsA, const std::uint32_t* idsB,
          bool positions, const float* invMassA, const float* invInertiaA, const float* invMassB,
          const float* invInertiaB) {
    const WideBodies<F> a = gather<F>(bodies, idsA, positions);
    const WideBodies<F> b = gather<F>(bodies, idsB, positions);
    return {a,
            b,
            {a.vx, a.vy, a.w, b.vx, b.vy, b.w},
            {F::load(invMassA), F::load(invInertiaA), F::load(invMassB), F::load(invInertiaB)}};
}

// v_A -= m_A P, w_A -= i_A cross(r_A, P), v_B += m_B P, w_B += i_B cross(r_B, P), in the scalar
// solver's order of operations.
template <class F>
RIGID2D_ALWAYS_INLINE void applyImpulse(Velocities<F>& v, const Masses<F>& m, F rAx, F rAy, F rBx,
                                        F rBy, F px, F py) {
    v.vAx = v.vAx - m.mA * px;
    v.vAy = v.vAy - m.mA * py;
    v.wA = v.wA - m.iA * (rAx * py - rAy * px);
    v.vBx = v.vBx + m.mB * px;
    v.vBy = v.vBy + m.mB * py;
    v.wB = v.wB + m.iB * (rBx * py - rBy * px);
}

// dv = v_B + cross(w_B, r_B) - v_A - cross(w_A, r_A), cross(w, r) = (-w r.y, w r.x).
template <class F>
RIGID2D_ALWAYS_INLINE void relativeVelocity(const Velocities<F>& v, F rAx, F rAy, F rBx, F rBy,
                                            F& dvx, F& dvy) {
    dvx = ((v.vBx + -v.wB * rBy) - v.vAx) - -v.wA * rAy;
    dvy = ((v.vBy + v.wB * rBx) - v.vAy) - v.wA * rAx;
}

} // namespace rigid2d::detail
