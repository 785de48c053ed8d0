#pragma once
// Preparing one contact constraint for the step: the bodies' inverse masses, the soft
// coefficients, each point's effective masses and approach velocity. Shared by the sequential
// path and the overflow list (into the constraint), and the packing of wide blocks (which prepares
// each lane's bodies as it packs it from the manifold, then the points of the whole block at
// once, with preparePoint's arithmetic in lanes).

#include <cstdint>
#include <span>
#include <vector>

#include "solver/joint_types.hpp"
#include "solver/solver_types.hpp"

namespace rigid2d::detail {

struct PrepareContext {
    std::span<const SolverState> bodies;
    std::span<const SolverMotion> motions;
    Softness contact{};
    Softness stiff{}; ///< contacts against an immovable body: only one side gives way
    /// Largest mass ratio of the two bodies as one contact sees them (see contact_prepare.cpp);
    /// 0 = off.
    float maxMassRatio = 0.0f;
    /// Per solver slot, nonzero for a body held by a joint other than a mouse joint (empty: no
    /// body is). The ratio limit leaves a contact alone where the heavier body is held so.
    std::span<const std::uint8_t> jointed{};
};

/// Fills `jointed` (one entry per solver slot, `bodyCount` of them) for PrepareContext::jointed.
void markJointedBodies(std::span<const JointConstraint> joints, std::size_t bodyCount,
                       std::vector<std::uint8_t>& jointed);

/// A constraint's bodies as its contact sees them: their inverse masses and inertias (the mass
/// ratio limit applied) and the soft coefficients.
struct PreparedBodies {
    float mA = 0.0f, iA = 0.0f, mB = 0.0f, iB = 0.0f;
    bool stiff = false; ///< one side cannot be pushed: softness is context.stiff
    Softness softness{};
};

/// `bodies` with the lighter body of a contact given at least 1 / context.maxMassRatio of the
/// heavier one's mass, unless the heavier one is jointed (contact_prepare.cpp says why). By value:
/// a reference would keep prepareBodies' result in memory for every lane the packing prepares.
[[nodiscard]] PreparedBodies limitMassRatio(const PrepareContext& context, std::uint32_t bodyA,
                                            std::uint32_t bodyB, PreparedBodies bodies);

// Inline: the packing of the wide blocks runs them for every lane and point.
[[nodiscard]] inline PreparedBodies prepareBodies(const PrepareContext& context,
                                                  std::uint32_t bodyA, std::uint32_t bodyB) {
    PreparedBodies p;
    p.mA = context.motions[bodyA].invMass;
    p.iA = context.motions[bodyA].invInertia;
    p.mB = context.motions[bodyB].invMass;
    p.iB = context.motions[bodyB].invInertia;
    // Most contacts join bodies of like masses, or an immovable one: only the others need the call.
    const float ratio = context.maxMassRatio;
    if (ratio > 0.0f && p.mA != 0.0f && p.mB != 0.0f &&
        (p.mA > ratio * p.mB || p.mB > ratio * p.mA))
        p = limitMassRatio(context, bodyA, bodyB, p);
    // preparePoints (wide_contacts.cpp) applies this rule to the packed lanes, four at a time.
    p.stiff = p.mA == 0.0f || p.mB == 0.0f;
    p.softness = p.stiff ? context.stiff : context.contact;
    return p;
}

/// What one point of a constraint holds for the step.
struct PreparedPoint {
    float normalMass = 0.0f;
    float tangentMass = 0.0f;
    float approachVelocity = 0.0f; ///< SolverPoint::approachVelocity
};

/// A point's effective masses along the normal and the tangent, and its approach velocity. The
/// packing's preparePoints (wide_contacts.cpp) does these operations in the same order, lane by
/// lane: a change here is a change there.
[[nodiscard]] inline PreparedPoint preparePoint(const PreparedBodies& bodies, const SolverState& a,
                                                const SolverState& b, Vec2 anchorA, Vec2 anchorB,
                                                Vec2 n) {
    const float mA = bodies.mA, iA = bodies.iA, mB = bodies.mB, iB = bodies.iB;
    const Vec2 t{n.y, -n.x}; // the tangent: the normal turned clockwise
    PreparedPoint p;
    const float rnA = cross(anchorA, n), rnB = cross(anchorB, n);
    const float kNormal = mA + mB + iA * rnA * rnA + iB * rnB * rnB;
    p.normalMass = kNormal > 0.0f ? 1.0f / kNormal : 0.0f;
    const float rtA = cross(anchorA, t), rtB = cross(anchorB, t);
    const float kTangent = mA + mB + iA * rtA * rtA + iB * rtB * rtB;
    p.tangentMass = kTangent > 0.0f ? 1.0f / kTangent : 0.0f;
    const Vec2 vrA = a.v + cross(a.w, anchorA);
    const Vec2 vrB = b.v + cross(b.w, anchorB);
    p.approachVelocity = dot(vrB - vrA, n);
    return p;
}

/// Loads `constraint`, to be solved one at a time, from `from`: its bodies and, from its surface,
/// friction, restitution and the manifold's points (anchors, separation, warm-start impulses).
void loadConstraint(const ContactConstraint& from, ScalarContact& constraint);

/// prepareBodies and preparePoint into a constraint whose points are loaded.
void prepareConstraint(const PrepareContext& context, ScalarContact& c);

} // namespace rigid2d::detail
