// Stage 3, first part: the awake bodies, their touching contacts and their joints gathered into
// the solver's dense arrays.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

#include "core/assert.hpp"
#include "core/prefetch.hpp"
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
    // The last step's constraints are reused and every field the solver reads is written below:
    // value-initialising each record first compiled to `rep stos`, a tenth of the gather of
    // v3_joint_grid's 19,794 joints. (Only records past the last step's count are made new.)
    std::vector<JointConstraint>& constraints = state.jointConstraints;
    // The colouring's list of the joints the wide loops may take, written here with the joints.
    ConstraintSummary& summary = state.solverScratch.summary;
    summary.jointCandidates.clear();
    summary.jointBodies.clear();
    std::size_t used = 0;
    const auto jointCount = static_cast<std::uint32_t>(state.joints.size());
    for (std::uint32_t j = 0; j < jointCount; ++j) {
        // Both streams fetched ahead (kJointsAhead), the constraint slot for writing.
        if (j + kJointsAhead < jointCount) {
            prefetchBytes(&state.joints[j + kJointsAhead], offsetof(Joint, reactionForce));
            if (used + kJointsAhead < constraints.size())
                __builtin_prefetch(&constraints[used + kJointsAhead], 1);
        }
        const Joint& joint = state.joints[j];
        if (!joint.live) continue;
        const std::uint32_t indexA = joint.edges[0].body, indexB = joint.edges[1].body;
        const std::uint32_t slotA = indexA == kNullIndex ? 0 : state.bodySlots[indexA];
        const std::uint32_t slotB = state.bodySlots[indexB];
        if (slotA == 0 && slotB == 0) continue;
        const Body& b = state.bodies[indexB];
        JointConstraint& c =
            used < constraints.size() ? constraints[used] : constraints.emplace_back();
        ++used;
        c.joint = j;
        c.type = joint.type;
        c.wideKind = wideJointKind(joint.type, joint.params, joint.impulses);
        c.bodyA = slotA;
        c.bodyB = slotB;
        listJointCandidate(summary, static_cast<std::uint32_t>(used - 1), c);
        c.mB = slotB != 0 ? b.invMass : 0.0f;
        c.iB = slotB != 0 ? b.invInertia : 0.0f;
        c.frameB = rotate(b.rot, joint.localAnchorB - b.localCenter);
        if (indexA == kNullIndex) { // mouse joint: A is the target, fixed in the world
            c.mA = c.iA = 0.0f;
            c.frameA = {};
            c.deltaCenter = b.center - joint.target;
            c.deltaAngle = b.angle;
            c.axis = {};
        } else {
            const Body& a = state.bodies[indexA];
            c.mA = slotA != 0 ? a.invMass : 0.0f;
            c.iA = slotA != 0 ? a.invInertia : 0.0f;
            c.frameA = rotate(a.rot, joint.localAnchorA - a.localCenter);
            c.deltaCenter = b.center - a.center;
            if (c.wideKind == WideJointKind::Point) {
                // Its first line is all it reads (JointConstraint).
                c.impulses.linear = joint.impulses.linear;
                continue;
            }
            c.deltaAngle = b.angle - a.angle - joint.referenceAngle;
            c.axis = rotate(a.rot, joint.localAxisA);
        }
        c.params = &joint.params;
        c.impulses = joint.impulses;
        // Set by prepareJoint, as far as the joint's kind needs them.
        c.axialMass = 0.0f;
        c.spring = {};
        c.angularSpring = {};
    }
    constraints.resize(used);
}

// Awake bodies per piece of the body gather: ten microseconds of work or more, and enough pieces
// that a scene of a few thousand bodies gives every worker several (with a few large pieces, one
// worker is left with the last).
constexpr std::int32_t kBodiesPerPiece = 512;
// The contact gather counts and then fills fixed segments of the contact array, so where each
// constraint lands does not depend on how the segments are handed out.
constexpr std::uint32_t kContactsPerSegment = 1024;
constexpr std::int32_t kSegmentsPerPiece = 1;
// Awake bodies [begin, end) into their solver slots (slot i + 1 for awake body i).
void gatherBodies(WorldState& state, std::uint32_t begin, std::uint32_t end) {
    const Vec2 gravity = state.def.gravity;
    for (std::uint32_t i = begin; i < end; ++i) {
        if (i + kBodiesAhead < end)
            prefetchRecord(state.bodies[state.awakeBodies[i + kBodiesAhead]]);
        const Body& body = state.bodies[state.awakeBodies[i]];
        state.bodySlots[state.awakeBodies[i]] = i + 1;
        SolverState& sb = state.solverBodies[i + 1];
        sb.v = body.linearVelocity;
        sb.w = body.invInertia > 0.0f || body.type == BodyType::Kinematic ? body.angularVelocity
                                                                          : 0.0f;
        sb.dp = {};
        sb.dq = Rot{};
        sb.dAngle = 0.0f;
        state.continuousStage.sweepAbove[i + 1] = body.type != BodyType::Dynamic
                                                      ? std::numeric_limits<float>::infinity()
                                                  : body.bullet ? -1.0f
                                                                : body.minExtent;
        state.continuousStage.startSpeedSq[i + 1] = dot(body.linearVelocity, body.linearVelocity);
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
}

// The solver slots of a contact's bodies if it takes part in the solve (touching, not a sensor,
// an awake body), else nothing (false). From the head the contact stage left (its 16 bytes, not
// the contact's 232: the gather reads every contact's head, and no contact).
[[nodiscard]] bool solvedSlots(const WorldState& state, const ContactStageScratch::Head& head,
                               std::uint32_t& slotA, std::uint32_t& slotB) {
    if (head.solvable == 0) return false;
    slotA = state.bodySlots[head.bodyA];
    slotB = state.bodySlots[head.bodyB];
    return slotA != 0 || slotB != 0; // else both asleep or static
}

// The contacts of [begin, end) that solvedSlots takes, among those the contact stage updated:
// their indices and slots to `contacts` and `bodies`, in order; `bouncy` set if one of them has a
// restitution. Returns how many.
std::uint32_t listSolved(const WorldState& state, std::uint32_t begin, std::uint32_t end,
                         std::uint32_t* contacts, ConstraintBodies* bodies, bool& bouncy) {
    const ContactStageScratch& stage = state.contactStage;
    std::uint32_t count = 0;
    for (std::uint32_t c = stage.nextUpdated(begin, end); c < end;
         c = stage.nextUpdated(c + 1, end)) {
        std::uint32_t slotA, slotB;
        if (!solvedSlots(state, stage.heads[c], slotA, slotB)) continue;
        bouncy = bouncy || stage.heads[c].bouncy != 0;
        contacts[count] = c;
        bodies[count++] = {slotA, slotB};
    }
    return count;
}

// listSolved when the stage updated every contact, without branches: whether a contact is
// solvable is a coin toss from one contact to the next, and mispredicting it cost more than the
// two slot loads and the stores that a contact that is not solvable makes here (overwritten by
// the next; its slots are body 0's: the bodies in its head may be stale). circle_rain_10000, two
// workers: gather stage 0.280 -> 0.261 ms a step when this pass only counted.
std::uint32_t listSolvedDense(const ContactStageScratch::Head* heads, const std::uint32_t* slots,
                              std::uint32_t begin, std::uint32_t end, std::uint32_t* contacts,
                              ConstraintBodies* bodies, bool& bouncy) {
    std::uint32_t count = 0;
    std::uint32_t anyBouncy = 0;
    for (std::uint32_t c = begin; c < end; ++c) {
        const ContactStageScratch::Head& head = heads[c];
        const std::uint32_t keep = 0u - head.solvable; // all ones or zero
        const std::uint32_t slotA = slots[head.bodyA & keep], slotB = slots[head.bodyB & keep];
        contacts[count] = c;
        bodies[count] = {slotA, slotB};
        const std::uint32_t solved = ((slotA | slotB) & keep) != 0 ? 1u : 0u;
        anyBouncy |= head.bouncy & solved;
        count += solved;
    }
    bouncy = bouncy || anyBouncy != 0;
    return count;
}

// A solved contact's constraint: what the gather knows without reading the contact (its head
// told the rest), which leaves the contacts to the packing, which reads their surfaces.
void pointConstraint(ContactSurface& surface, std::uint32_t c, std::uint32_t slotA,
                     std::uint32_t slotB, ContactConstraint& constraint) {
    constraint.bodyA = slotA;
    constraint.bodyB = slotB;
    constraint.contact = c;
    constraint.surface = &surface;
}

// The constraints of the solved contacts, in contact order, and their summary.
void gatherConstraints(WorldState& state) {
    // Grown, never shrunk: every field of a used constraint is written below.
    if (state.constraints.size() < state.stats.touchingContacts)
        state.constraints.resize(state.stats.touchingContacts);
    ConstraintSummary& summary = state.solverScratch.summary;
    const auto contactCount = static_cast<std::uint32_t>(state.contacts.size());
    const ContactStageScratch& stage = state.contactStage;
    const ContactStageScratch::Head* const heads = stage.heads.data();
#if R2D_ASSERTS_ON
    std::size_t solvable = 0;
    for (std::uint32_t c = 0; c < contactCount; ++c) {
        const Contact& contact = state.contacts[c];
        R2D_ASSERT(heads[c].solvable == (isSolvable(contact) ? 1u : 0u) &&
                       heads[c].bouncy ==
                           (isSolvable(contact) && contact.restitution != 0.0f ? 1u : 0u) &&
                       (!isSolvable(contact) || (heads[c].bodyA == contact.edges[0].body &&
                                                 heads[c].bodyB == contact.edges[1].body)),
                   "a contact's head, left by the contact stage, is stale");
        solvable += heads[c].solvable;
        // A sparse stage skipped only contacts whose bodies both sleep (or are static).
        R2D_ASSERT(
            !stage.sparse || stage.visited[c] != 0 || !isSolvable(contact) ||
                (state.bodySlots[heads[c].bodyA] == 0 && state.bodySlots[heads[c].bodyB] == 0),
            "a sparse contact stage skipped a contact of an awake body");
    }
    R2D_ASSERT(solvable == stage.solvable, "the count of solvable contacts drifted");
#endif
    std::size_t used = 0;
    if (!runsInParallel(state.def)) {
        summary.bodies.clear();
        bool bouncy = false;
        for (std::uint32_t c = stage.nextUpdated(0, contactCount); c < contactCount;
             c = stage.nextUpdated(c + 1, contactCount)) {
            std::uint32_t slotA, slotB;
            if (!solvedSlots(state, heads[c], slotA, slotB)) continue;
            if (used == state.constraints.size())
                state.constraints.resize(2 * used + 16); // not expected
            summary.bodies.push_back({slotA, slotB});
            bouncy = bouncy || heads[c].bouncy != 0;
            pointConstraint(state.contacts[c], c, slotA, slotB, state.constraints[used++]);
        }
        summary.bouncy = bouncy;
        state.activeConstraints = std::span<ContactConstraint>(state.constraints.data(), used);
        return;
    }
    // In pieces: list each segment's solved contacts, add up where each segment starts; the
    // summary's body slots out of the lists; then, while the workers load the constraints, the
    // calling thread colours them (which reads only the summary and the bodies' masses: alone, the
    // colouring kept the workers waiting, some 0.08 ms a step in circle_rain_10000).
    const auto segments =
        static_cast<std::int32_t>((contactCount + kContactsPerSegment - 1) / kContactsPerSegment);
    ContactSolverScratch& scratch = state.solverScratch;
    std::vector<std::uint32_t>& starts = scratch.segmentStarts;
    starts.assign(static_cast<std::size_t>(segments) + 1, 0u);
    scratch.solvedContacts.resize(contactCount);
    scratch.solvedBodies.resize(contactCount);
    std::uint32_t* const solvedContacts = scratch.solvedContacts.data();
    ConstraintBodies* const solvedBodies = scratch.solvedBodies.data();
    const std::uint32_t* const slots = state.bodySlots.data();
    std::atomic<bool> bouncy{false}; // only ever set: the same for any schedule
    parallelFor(state.def, segments, kSegmentsPerPiece,
                [&](std::int32_t first, std::int32_t last, std::int32_t) {
                    bool pieceBouncy = false;
                    for (std::int32_t segment = first; segment < last; ++segment) {
                        const std::uint32_t begin =
                            static_cast<std::uint32_t>(segment) * kContactsPerSegment;
                        const std::uint32_t end =
                            std::min(begin + kContactsPerSegment, contactCount);
                        starts[static_cast<std::size_t>(segment) + 1] =
                            stage.sparse
                                ? listSolved(state, begin, end, solvedContacts + begin,
                                             solvedBodies + begin, pieceBouncy)
                                : listSolvedDense(heads, slots, begin, end, solvedContacts + begin,
                                                  solvedBodies + begin, pieceBouncy);
                    }
                    if (pieceBouncy) bouncy.store(true, std::memory_order_relaxed);
                });
    for (std::size_t segment = 1; segment < starts.size(); ++segment)
        starts[segment] += starts[segment - 1];
    used = starts.back();
    if (state.constraints.size() < used) state.constraints.resize(used);
    summary.bodies.resize(used);
    for (std::size_t segment = 0; segment + 1 < starts.size(); ++segment)
        std::copy(solvedBodies + segment * kContactsPerSegment,
                  solvedBodies + segment * kContactsPerSegment +
                      (starts[segment + 1] - starts[segment]),
                  summary.bodies.begin() + starts[segment]);
    const auto load = [&](std::int32_t first, std::int32_t last, std::int32_t) {
        for (auto segment = static_cast<std::size_t>(first);
             segment < static_cast<std::size_t>(last); ++segment) {
            const std::uint32_t* const contactOf = solvedContacts + segment * kContactsPerSegment;
            const ConstraintBodies* const slotsOf = solvedBodies + segment * kContactsPerSegment;
            ContactConstraint* const out = state.constraints.data() + starts[segment];
            for (std::uint32_t k = 0; k < starts[segment + 1] - starts[segment]; ++k)
                pointConstraint(state.contacts[contactOf[k]], contactOf[k], slotsOf[k].a,
                                slotsOf[k].b, out[k]);
        }
    };
    ParallelFor<decltype(load)> loading(state.def, segments, kSegmentsPerPiece, load);
    colourContactsAhead(state.solverMotions, summary, scratch);
    loading.finish();
    summary.bouncy = bouncy.load(std::memory_order_relaxed);
    state.activeConstraints = std::span<ContactConstraint>(state.constraints.data(), used);
}
} // namespace

void gatherSolverInputs(WorldState& state) {
    state.solverBodies.resize(state.awakeBodies.size() + 1);
    state.solverMotions.resize(state.awakeBodies.size() + 1);
    state.continuousStage.sweepAbove.resize(state.awakeBodies.size() + 1);
    state.continuousStage.startSpeedSq.resize(state.awakeBodies.size() + 1);
    state.solverBodies[0] = SolverState{};
    state.solverMotions[0] = SolverMotion{};
    // Solver slot per body (0: asleep or static), compact so that the constraint gather reads it
    // from cache instead of each body's record.
    state.bodySlots.assign(state.bodies.size(), 0u);
    parallelFor(state.def, static_cast<std::int32_t>(state.awakeBodies.size()), kBodiesPerPiece,
                [&](std::int32_t begin, std::int32_t end, std::int32_t) {
                    gatherBodies(state, static_cast<std::uint32_t>(begin),
                                 static_cast<std::uint32_t>(end));
                });
    gatherConstraints(state);
    gatherJoints(state);
}

} // namespace rigid2d::detail
