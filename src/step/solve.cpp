// Stage 3: the soft step over the awake bodies and their touching contacts.
#include <algorithm>
#include <cfloat>
#include <cmath>

#include "step/stages.hpp"

namespace rigid2d::detail {

namespace {
// inverseMass * force (or torque) plus the gravity term, for a body with a force: the product may
// be beyond a float (a light body, a huge force), so it is taken in double and bounded far above
// anything the speed clamps let through.
[[nodiscard]] float boundedAcceleration(float gravityTerm, float inverseMass, float force) {
    constexpr double kBound = 1e18;
    const double a = double{gravityTerm} + double{inverseMass} * double{force};
    return static_cast<float>(std::clamp(a, -kBound, kBound));
}
// The joints with an awake body, in slot order, with their frames at the start of the step. A
// body that is not awake sits in the static slot: it holds its end of the joint where it is.
void gatherJoints(WorldState& state) {
    state.jointConstraints.clear();
    for (std::uint32_t j = 0; j < state.joints.size(); ++j) {
        const Joint& joint = state.joints[j];
        if (!joint.live) continue;
        const std::uint32_t indexA = joint.edges[0].body, indexB = joint.edges[1].body;
        const std::uint32_t slotA = indexA == kNullIndex ? 0 : state.bodySlots[indexA];
        const std::uint32_t slotB = state.bodySlots[indexB];
        if (slotA == 0 && slotB == 0) continue;
        const Body& b = state.bodies[indexB];
        JointConstraint& c = state.jointConstraints.emplace_back();
        c.joint = j;
        c.type = joint.type;
        c.bodyA = slotA;
        c.bodyB = slotB;
        if (slotB != 0) {
            c.mB = b.invMass;
            c.iB = b.invInertia;
        }
        c.frameB = rotate(b.rot, joint.localAnchorB - b.localCenter);
        if (indexA == kNullIndex) { // mouse joint: A is the target, fixed in the world
            c.deltaCenter = b.center - joint.target;
            c.deltaAngle = b.angle;
        } else {
            const Body& a = state.bodies[indexA];
            if (slotA != 0) {
                c.mA = a.invMass;
                c.iA = a.invInertia;
            }
            c.frameA = rotate(a.rot, joint.localAnchorA - a.localCenter);
            c.deltaCenter = b.center - a.center;
            c.deltaAngle = b.angle - a.angle - joint.referenceAngle;
            c.axis = rotate(a.rot, joint.localAxisA);
        }
        c.params = &joint.params;
        c.impulses = joint.impulses;
    }
}

// Impulses back into the joints (the next step's warm start) and the reactions of this step.
bool allFinite(const JointImpulses& i) {
    for (const float x : {i.linear.x, i.linear.y, i.perpendicular, i.angular, i.length, i.spring,
                          i.motor, i.lower, i.upper})
        if (!std::isfinite(x)) return false;
    return true;
}

float finiteOr(float x, float fallback) {
    return std::isfinite(x) ? x : std::isnan(x) ? fallback : std::copysign(FLT_MAX, x);
}

void storeJointImpulses(WorldState& state, float inverseH) {
    for (const JointConstraint& c : state.jointConstraints) {
        Joint& joint = state.joints[c.joint];
        JointReaction reaction = jointReaction(state.solverBodies, c, inverseH);
        joint.impulses = c.impulses;
        const bool finite = allFinite(c.impulses);
        if (!finite || !std::isfinite(reaction.force.x) || !std::isfinite(reaction.force.y) ||
            !std::isfinite(reaction.torque)) [[unlikely]] {
            // Last resort (see World::step): impulses that are not all finite (their bodies are
            // reset below) are not warm-started; a finite impulse too large for its reaction
            // force reports the largest float.
            if (!finite) joint.impulses = {};
            reaction = {{finiteOr(reaction.force.x, 0.0f), finiteOr(reaction.force.y, 0.0f)},
                        finiteOr(reaction.torque, 0.0f)};
        }
        joint.reactionForce = reaction.force;
        joint.reactionTorque = reaction.torque;
    }
}

// Last resort, continued: the impulses that reached a reset body (non-finite, or finite but
// enough to throw it beyond the velocity bound) must not be warm-started next step.
void dropImpulsesOfResetBodies(WorldState& state, std::span<const std::uint32_t> resetSlots) {
    const auto reset = [&](std::uint32_t slot) {
        return std::binary_search(resetSlots.begin(), resetSlots.end(), slot);
    };
    for (const ContactConstraint& constraint : state.activeConstraints) {
        if (!reset(constraint.bodyA) && !reset(constraint.bodyB)) continue;
        Manifold& manifold = state.contacts[constraint.contact].manifold;
        for (int i = 0; i < manifold.pointCount; ++i) {
            ManifoldPoint& mp = manifold.points[i];
            mp.normalImpulse = mp.tangentImpulse = mp.maxNormalImpulse = mp.approachSpeed = 0.0f;
        }
    }
    for (const JointConstraint& c : state.jointConstraints)
        if (reset(c.bodyA) || reset(c.bodyB)) state.joints[c.joint].impulses = {};
}

} // namespace

void solve(WorldState& state, float dt) {
    auto t = StageClock::now();
    const Vec2 gravity = state.def.gravity;
    state.solverBodies.resize(state.awakeBodies.size() + 1);
    state.solverMotions.resize(state.awakeBodies.size() + 1);
    state.solverBodies[0] = SolverState{};
    state.solverMotions[0] = SolverMotion{};
    // Solver slot per body (0: asleep or static), compact so that the constraint loop below
    // reads it from cache instead of each body's record.
    state.bodySlots.assign(state.bodies.size(), 0u);
    for (std::uint32_t i = 0; i < state.awakeBodies.size(); ++i) {
        Body& body = state.bodies[state.awakeBodies[i]];
        state.bodySlots[state.awakeBodies[i]] = i + 1;
        SolverState& sb = state.solverBodies[i + 1];
        sb.v = body.linearVelocity;
        sb.w = body.invInertia > 0.0f || body.type == BodyType::Kinematic ? body.angularVelocity
                                                                          : 0.0f;
        sb.dp = {};
        sb.dq = Rot{};
        sb.dAngle = 0.0f;
        SolverMotion& motion = state.solverMotions[i + 1];
        motion.invMass = body.invMass;
        motion.invInertia = body.invInertia;
        if (body.type == BodyType::Dynamic) {
            // Gravity and gravity scales are bounded (types.hpp): only forces can overflow.
            const Vec2 g = body.gravityScale * gravity;
            if (body.force.x == 0.0f && body.force.y == 0.0f && body.torque == 0.0f) {
                motion.linearAcceleration = g + body.invMass * body.force;
                motion.angularAcceleration = 0.0f;
            } else {
                motion.linearAcceleration = {boundedAcceleration(g.x, body.invMass, body.force.x),
                                             boundedAcceleration(g.y, body.invMass, body.force.y)};
                motion.angularAcceleration =
                    boundedAcceleration(0.0f, body.invInertia, body.torque);
            }
            motion.linearDamping = body.linearDamping;
            motion.angularDamping = body.angularDamping;
        } else {
            motion.linearAcceleration = {};
            motion.angularAcceleration = 0.0f;
            motion.linearDamping = motion.angularDamping = 0.0f;
        }
    }
    // Grown, never shrunk: every field of a used constraint is written below or in the solver,
    // so re-initialising them each step would only cost memory traffic.
    if (state.constraints.size() < state.stats.touchingContacts)
        state.constraints.resize(state.stats.touchingContacts);
    std::size_t used = 0;
    for (std::uint32_t c = 0; c < state.contacts.size(); ++c) {
        const Contact& contact = state.contacts[c];
        if (!contact.live || !contact.touching || contact.sensor) continue;
        const std::uint32_t slotA = state.bodySlots[contact.edges[0].body];
        const std::uint32_t slotB = state.bodySlots[contact.edges[1].body];
        if (slotA == 0 && slotB == 0) continue; // both asleep or static
        if (used == state.constraints.size())
            state.constraints.resize(2 * used + 16); // not expected
        ContactConstraint& constraint = state.constraints[used++];
        constraint.bodyA = slotA;
        constraint.bodyB = slotB;
        constraint.contact = c;
        constraint.friction = contact.friction;
        constraint.restitution = contact.restitution;
        loadConstraintPoints(constraint, contact.manifold);
    }
    state.activeConstraints = std::span<ContactConstraint>(state.constraints.data(), used);
    gatherJoints(state);
    state.stats.gatherMs = millisecondsSince(t);

    t = StageClock::now();
    SolverSettings settings;
    settings.dt = dt;
    settings.substeps = state.def.substeps;
    settings.contactHertz = state.def.contactHertz;
    settings.contactDampingRatio = state.def.contactDampingRatio;
    settings.maxContactPushSpeed = state.def.maxContactPushSpeed;
    settings.restitutionThreshold = state.def.restitutionThreshold;
    settings.maxLinearSpeed = state.def.maxTranslation / dt;
    settings.maxAngularSpeed = state.def.maxRotation / dt;
    settings.maxMassRatio = state.def.maxContactMassRatio;
    settings.jointHertz = state.def.jointHertz;
    settings.jointDampingRatio = state.def.jointDampingRatio;
    solveSoftStep(state.solverBodies, state.solverMotions, state.jointConstraints,
                  state.activeConstraints, settings, state.solverScratch);
    storeJointImpulses(state, static_cast<float>(std::max(settings.substeps, 1)) / dt);

    // Impulses back into the persistent manifolds (warm starting next step), hit events.
    for (const ContactConstraint& constraint : state.activeConstraints) {
        Contact& contact = state.contacts[constraint.contact];
        Manifold& manifold = contact.manifold;
        float bestSpeed = 0.0f;
        int best = -1;
        for (int i = 0; i < constraint.pointCount; ++i) {
            const SolverPoint& p = constraint.points[i];
            ManifoldPoint& mp = manifold.points[i];
            mp.normalImpulse = p.normalImpulse;
            mp.tangentImpulse = p.tangentImpulse;
            mp.maxNormalImpulse = p.maxNormalImpulse;
            mp.approachSpeed = -p.approachVelocity;
            if (p.maxNormalImpulse > 0.0f && mp.approachSpeed > bestSpeed) {
                bestSpeed = mp.approachSpeed;
                best = i;
            }
        }
        if (contact.reportHitEvents && best >= 0 && bestSpeed >= state.def.hitEventThreshold) {
            const Body& bodyA = state.bodies[contact.edges[0].body];
            state.hitEvents.push_back({state.shapeId(contact.shapeA), state.shapeId(contact.shapeB),
                                       bodyA.center + manifold.points[best].anchorA,
                                       manifold.normal, bestSpeed});
        }
    }

    state.stats.resetBodies = 0;
    std::vector<std::uint32_t> resetSlots; // ascending; allocates only in the last resort
    for (std::uint32_t i = 0; i < state.awakeBodies.size(); ++i) {
        Body& body = state.bodies[state.awakeBodies[i]];
        SolverState& sb = state.solverBodies[i + 1];
        // A NaN or infinity in any of the six makes the sum non-finite; finite motions are far
        // too small (speeds are clamped) for it to overflow. The solver's last pass can still
        // leave a velocity beyond the bound that every step and snapshot keeps.
        const float probe = sb.v.x + sb.v.y + sb.w + sb.dp.x + sb.dp.y + sb.dAngle;
        const float speed = std::max({std::fabs(sb.v.x), std::fabs(sb.v.y), std::fabs(sb.w)});
        if (!std::isfinite(probe) || !(speed <= kVelocityBound)) [[unlikely]] {
            // Last resort (see World::step): the body stays where it was, at rest.
            body.linearVelocity = {};
            body.angularVelocity = 0.0f;
            body.force = {};
            body.torque = 0.0f;
            sb = SolverState{}; // the continuous stage reads this step's translation
            resetSlots.push_back(i + 1);
            ++state.stats.resetBodies;
            continue;
        }
        body.linearVelocity = sb.v;
        body.angularVelocity = sb.w;
        body.force = {};
        body.torque = 0.0f;
        body.center += sb.dp;
        if (sb.dAngle != 0.0f) {
            body.angle += sb.dAngle;
            body.rot = makeRot(body.angle);
        }
        body.position = body.center - rotate(body.rot, body.localCenter);
    }
    if (!resetSlots.empty()) [[unlikely]]
        dropImpulsesOfResetBodies(state, resetSlots);
    state.stats.solveMs = millisecondsSince(t);
}

} // namespace rigid2d::detail
