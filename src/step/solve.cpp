// Stage 3: the soft step over the gathered bodies, contacts and joints (gather.cpp); bodies and
// impulses written back.
#include <algorithm>
#include <atomic>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <mutex>
#include <span>
#include <vector>

#include "core/assert.hpp"
#include "core/prefetch.hpp"
#include "step/stages.hpp"

namespace rigid2d::detail {

namespace {

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

// What a point joint's constraint holds of its impulses: the linear one, the rest stays the
// joint's (zero: JointConstraint). So its reaction is a force alone, and the store writes the
// joint without reading it.
JointReaction storePointImpulse(Joint& joint, Vec2 linear, float inverseH) {
    joint.impulses.linear = linear;
    return {inverseH * linear, 0.0f};
}

void storeJointImpulses(WorldState& state, float inverseH) {
    // The two streams of kJointsAhead: a constraint's first line (all of a point joint's that this
    // reads) two rounds ahead, then the rest of a constraint of another kind and the joint's
    // fields written here one round ahead.
    const std::span<const JointConstraint> constraints = state.jointConstraints;
    constexpr std::size_t kWritten =
        offsetof(Joint, reactionTorque) + sizeof(float) - offsetof(Joint, impulses);
    for (std::size_t i = 0; i < constraints.size(); ++i) {
        if (i + 2 * kJointsAhead < constraints.size())
            __builtin_prefetch(&constraints[i + 2 * kJointsAhead]);
        if (i + kJointsAhead < constraints.size()) {
            const JointConstraint& ahead = constraints[i + kJointsAhead];
            if (ahead.wideKind != WideJointKind::Point) prefetchRecord(ahead);
            prefetchBytes<true>(&state.joints[ahead.joint].impulses, kWritten);
        }
        const JointConstraint& c = constraints[i];
        Joint& joint = state.joints[c.joint];
        const bool point = c.wideKind == WideJointKind::Point;
        JointReaction reaction;
        bool finite;
        if (point) {
            reaction = storePointImpulse(joint, c.impulses.linear, inverseH);
            finite = std::isfinite(c.impulses.linear.x) && std::isfinite(c.impulses.linear.y);
        } else {
            reaction = jointReaction(state.solverBodies, c, inverseH);
            joint.impulses = c.impulses;
            finite = allFinite(c.impulses);
        }
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

// One body's new state from its solver slot; false if it had to stay where it was (the slot is
// then zeroed: the continuous stage reads this step's translation from it).
[[nodiscard]] bool storeBody(Body& body, SolverState& sb) {
    // A NaN or infinity in any of the six makes the sum non-finite; finite motions are far
    // too small (speeds are clamped) for it to overflow. The solver's last pass can still
    // leave a velocity beyond the bound that every step and snapshot keeps.
    const float probe = sb.v.x + sb.v.y + sb.w + sb.dp.x + sb.dp.y + sb.dAngle;
    const float speed = std::max({std::fabs(sb.v.x), std::fabs(sb.v.y), std::fabs(sb.w)});
    body.force = {};
    body.torque = 0.0f;
    if (!std::isfinite(probe) || !(speed <= kVelocityBound)) [[unlikely]] {
        // Last resort (see World::step): the body stays where it was, at rest.
        body.linearVelocity = {};
        body.angularVelocity = 0.0f;
        sb = SolverState{};
        return false;
    }
    body.linearVelocity = sb.v;
    body.angularVelocity = sb.w;
    body.center += sb.dp;
    if (sb.dAngle != 0.0f) {
        body.angle += sb.dAngle;
        body.rot = makeRot(body.angle);
    }
    body.position = body.center - rotate(body.rot, body.localCenter);
    return true;
}

// The bodies' new velocities and positions, written back by the soft step's last stage (range by
// range, on the workers that moved them); lists the slots of those that had to be reset in
// resetSlots, ascending, once finish() is called. Each body's rest clock ticks here too, with the
// record in cache (RestClock), and the sleep stage's per-slot arrays are written.
class BodyWriteBack {
public:
    BodyWriteBack(WorldState& state, float dt) : m_state(state), m_clock(state.def, dt) {
        state.solverScratch.resetSlots.clear();
        state.sleepStage.sleepTimes.resize(state.awakeBodies.size());
        // Per solver slot: is the body dynamic (slot 0, static, is not). Compact, so that the
        // sleep stage's loop over constraints does not read two random body records per one.
        state.slotDynamic.resize(state.awakeBodies.size() + 1);
        state.slotDynamic[0] = 0;
    }

    void operator()(std::uint32_t first, std::uint32_t end) {
        WorldState& state = m_state;
        bool rested = false;
        for (std::uint32_t slot = first; slot < end; ++slot) {
            if (slot + kBodiesAhead < end)
                prefetchRecord<true>(state.bodies[state.awakeBodies[slot + kBodiesAhead - 1]]);
            Body& body = state.bodies[state.awakeBodies[slot - 1]];
            if (!storeBody(body, state.solverBodies[slot])) [[unlikely]] {
                const std::lock_guard<std::mutex> lock(m_resetMutex);
                state.solverScratch.resetSlots.push_back(slot);
            }
            rested = m_clock.tick(body) || rested;
            state.sleepStage.sleepTimes[slot - 1] = body.sleepTime;
            state.slotDynamic[slot] = body.type == BodyType::Dynamic ? 1 : 0;
        }
        if (rested) m_anyRested.store(true, std::memory_order_relaxed);
    }

    void finish() {
        m_state.sleepStage.anyRested = m_anyRested.load(std::memory_order_relaxed);
        std::vector<std::uint32_t>& resetSlots = m_state.solverScratch.resetSlots;
        std::sort(resetSlots.begin(), resetSlots.end());
    }

private:
    WorldState& m_state;
    RestClock m_clock;
    std::mutex m_resetMutex;              // taken only in the last resort
    std::atomic<bool> m_anyRested{false}; // only ever set: the same for any schedule
};

// The hit events of the hits the solve flagged, in constraint (contact) order, where the contact
// reports them: the flag is read here, for the few hits, not by the gather for every contact (it
// lies on another line of the contact than what the gather reads). A hit's point is the
// manifold's, where the step found the contact (the bodies have moved on since).
void reportHits(WorldState& state) {
    const std::span<const std::uint8_t> hits(state.solverScratch.hitEvents);
    for (std::size_t k = nextMarked(hits, 0); k < hits.size(); k = nextMarked(hits, k + 1)) {
        const Contact& contact = state.contacts[state.activeConstraints[k].contact];
        if (!contact.reportHitEvents) continue;
        float speed;
        const int best = hardestHit(contact.manifold, speed);
        state.hitEvents.push_back({state.shapeId(contact.shapeA), state.shapeId(contact.shapeB),
                                   contact.manifold.points[best].point, contact.manifold.normal,
                                   speed});
    }
}
} // namespace

void solve(WorldState& state, float dt) {
    auto t = StageClock::now();
    gatherSolverInputs(state);
    state.stats.gatherMs = millisecondsSince(t);

    t = StageClock::now();
    SolverSettings settings;
    settings.dt = dt;
    settings.substeps = state.def.substeps;
    settings.contactHertz = state.def.contactHertz;
    settings.contactDampingRatio = state.def.contactDampingRatio;
    settings.maxContactPushSpeed = state.def.maxContactPushSpeed;
    settings.restitutionThreshold = state.def.restitutionThreshold;
    settings.hitThreshold = state.def.hitEventThreshold;
    settings.maxLinearSpeed = state.def.maxTranslation / dt;
    settings.maxAngularSpeed = state.def.maxRotation / dt;
    settings.maxMassRatio = state.def.maxContactMassRatio;
    settings.jointHertz = state.def.jointHertz;
    settings.jointDampingRatio = state.def.jointDampingRatio;
    BodyWriteBack writeBack(state, dt);
    const SlotStore store(writeBack);
    solveSoftStep(state.solverBodies, state.solverMotions, state.jointConstraints,
                  state.activeConstraints, state.solverScratch.summary, settings,
                  state.solverScratch, &state.def, &store);
    writeBack.finish();
    // After the bodies' write-back, which zeroes the slot of a body it has to reset: a joint's
    // reaction is then taken in the pose where that body stays (it came out non-finite, and was
    // reported as zero, when the joints were stored first).
    storeJointImpulses(state, static_cast<float>(std::max(settings.substeps, 1)) / dt);
    reportHits(state);
    // Last, once every impulse is stored and the hits read: those that reached a reset body are
    // dropped.
    const std::span<const std::uint32_t> resetSlots(state.solverScratch.resetSlots);
    if (!resetSlots.empty()) [[unlikely]]
        dropImpulsesOfResetBodies(state, resetSlots);
    state.stats.resetBodies = state.solverScratch.resetSlots.size();
    state.stats.solverGroups = state.solverScratch.contactGroups.count;
    state.stats.solveMs = millisecondsSince(t);
}

} // namespace rigid2d::detail
