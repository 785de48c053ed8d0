#include "solver/contact_solver.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/assert.hpp"
#include "solver/soft_step_stages.hpp"
#include "solver/wide_kernels.hpp"

namespace rigid2d::detail {

namespace {

// Tangent of a contact: the normal turned clockwise.
[[nodiscard]] inline Vec2 tangentOf(Vec2 n) noexcept { return {n.y, -n.x}; }

/// The velocities of a constraint's two bodies, held in registers while its points are solved.
struct PairVelocity {
    Vec2 vA, vB;
    float wA, wB;

    [[nodiscard]] static PairVelocity load(const SolverState& a, const SolverState& b) noexcept {
        return {a.v, b.v, a.w, b.w};
    }
    /// Writes back only a body the constraint can move: an immovable one (the static slot, a
    /// kinematic body) is shared by constraints that workers solve at the same time.
    void store(const ScalarContact& c, SolverState& a, SolverState& b) const noexcept {
        if (c.invMassA != 0.0f || c.invInertiaA != 0.0f) {
            a.v = vA;
            a.w = wA;
        }
        if (c.invMassB != 0.0f || c.invInertiaB != 0.0f) {
            b.v = vB;
            b.w = wB;
        }
    }
    /// Velocity of B relative to A at the point's anchors.
    [[nodiscard]] Vec2 relative(const SolverPoint& p) const noexcept {
        return vB + cross(wB, p.anchorB) - vA - cross(wA, p.anchorA);
    }
    /// Impulse P at the point: -P on body A, +P on body B.
    void apply(const ScalarContact& c, const SolverPoint& p, Vec2 P) noexcept {
        vA -= c.invMassA * P;
        wA -= c.invInertiaA * cross(p.anchorA, P);
        vB += c.invMassB * P;
        wB += c.invInertiaB * cross(p.anchorB, P);
    }
};

// Bodies [begin, end) of the array (slot 0, the static slot, is never moved).
void integrateVelocities(std::span<SolverState> bodies, std::span<const SolverMotion> motions,
                         std::size_t begin, std::size_t end, float h, float maxSpeed,
                         float maxAngularSpeed) {
    const float maxSpeedSq = maxSpeed * maxSpeed;
    for (std::size_t i = std::max(begin, std::size_t{1}); i < end; ++i) {
        SolverState& b = bodies[i];
        const SolverMotion& m = motions[i];
        Vec2 v = b.v + h * m.linearAcceleration;
        float w = b.w + h * m.angularAcceleration;
        // Implicit damping: stable for any h * c, exactly v for c = 0.
        if (m.linearDamping != 0.0f) v *= 1.0f / (1.0f + h * m.linearDamping);
        if (m.angularDamping != 0.0f) w *= 1.0f / (1.0f + h * m.angularDamping);
        const float speedSq = dot(v, v);
        if (speedSq > maxSpeedSq) v *= maxSpeed / std::sqrt(speedSq);
        b.v = v;
        b.w = std::min(std::max(w, -maxAngularSpeed), maxAngularSpeed);
    }
}

void integratePositions(std::span<SolverState> bodies, std::size_t begin, std::size_t end,
                        float h) {
    for (std::size_t i = std::max(begin, std::size_t{1}); i < end; ++i) {
        SolverState& b = bodies[i];
        b.dp += h * b.v;
        if (b.w != 0.0f) {
            // First-order rotation update, renormalised (no trigonometry per substep).
            const float dw = h * b.w;
            b.dAngle += dw;
            Rot q{b.dq.c - dw * b.dq.s, b.dq.s + dw * b.dq.c};
            const float invLength = 1.0f / std::sqrt(q.c * q.c + q.s * q.s);
            b.dq = {q.c * invLength, q.s * invLength};
        }
    }
}

void warmStart(std::span<SolverState> bodies, const ScalarContact& c) {
    SolverState& a = bodies[c.bodyA];
    SolverState& b = bodies[c.bodyB];
    PairVelocity v = PairVelocity::load(a, b);
    const Vec2 n = c.normal;
    const Vec2 t = tangentOf(n);
    for (int i = 0; i < c.pointCount; ++i) {
        const SolverPoint& p = c.points[i];
        v.apply(c, p, p.normalImpulse * n + p.tangentImpulse * t);
    }
    v.store(c, a, b);
}

void solveContact(std::span<SolverState> bodies, ScalarContact& c, float inverseH,
                  float maxPushSpeed, bool useBias) {
    SolverState& a = bodies[c.bodyA];
    SolverState& b = bodies[c.bodyB];
    PairVelocity v = PairVelocity::load(a, b);
    const Vec2 n = c.normal;
    const Vec2 dp = b.dp - a.dp;
    for (int i = 0; i < c.pointCount; ++i) {
        SolverPoint& p = c.points[i];
        // Current separation from the position deltas of this step.
        const Vec2 prA = rotate(a.dq, p.anchorA);
        const Vec2 prB = rotate(b.dq, p.anchorB);
        const float s = dot(dp + prB - prA, n) + p.baseSeparation;
        float bias = 0.0f, massScale = 1.0f, impulseScale = 0.0f;
        if (s > 0.0f) {
            bias = s * inverseH; // speculative: close the gap this substep, no more
        } else if (useBias) {
            bias = std::max(c.softness.biasRate * s, -maxPushSpeed);
            massScale = c.softness.massScale;
            impulseScale = c.softness.impulseScale;
        }
        const Vec2 dv = v.relative(p);
        const float vn = dot(dv, n);
        float impulse = -p.normalMass * massScale * (vn + bias) - impulseScale * p.normalImpulse;
        const float newImpulse = std::max(p.normalImpulse + impulse, 0.0f);
        impulse = newImpulse - p.normalImpulse;
        p.normalImpulse = newImpulse;
        p.maxNormalImpulse = std::max(p.maxNormalImpulse, impulse);
        v.apply(c, p, impulse * n);
    }
    const Vec2 t = tangentOf(n);
    for (int i = 0; i < c.pointCount; ++i) {
        SolverPoint& p = c.points[i];
        const Vec2 dv = v.relative(p);
        const float vt = dot(dv, t);
        float impulse = -p.tangentMass * vt;
        const float maxFriction = c.friction * p.normalImpulse;
        const float newImpulse = std::clamp(p.tangentImpulse + impulse, -maxFriction, maxFriction);
        impulse = newImpulse - p.tangentImpulse;
        p.tangentImpulse = newImpulse;
        v.apply(c, p, impulse * t);
    }
    v.store(c, a, b);
}

void applyRestitution(std::span<SolverState> bodies, ScalarContact& c, float threshold) {
    if (c.restitution == 0.0f) return;
    // Only points that were closing fast and actually pushed bounce. Most constraints of a bouncy
    // scene have none (resting, sliding or speculative): their bodies are not even read.
    const auto bounces = [&](const SolverPoint& p) {
        return !(p.approachVelocity > -threshold || p.maxNormalImpulse == 0.0f);
    };
    if (std::none_of(c.points, c.points + c.pointCount, bounces)) return;
    SolverState& a = bodies[c.bodyA];
    SolverState& b = bodies[c.bodyB];
    PairVelocity v = PairVelocity::load(a, b);
    const Vec2 n = c.normal;
    for (int i = 0; i < c.pointCount; ++i) {
        SolverPoint& p = c.points[i];
        if (!bounces(p)) continue;
        const Vec2 dv = v.relative(p);
        const float vn = dot(dv, n);
        float impulse = -p.normalMass * (vn + c.restitution * p.approachVelocity);
        const float newImpulse = std::max(p.normalImpulse + impulse, 0.0f);
        impulse = newImpulse - p.normalImpulse;
        p.normalImpulse = newImpulse;
        p.maxNormalImpulse = std::max(p.maxNormalImpulse, impulse);
        v.apply(c, p, impulse * n);
    }
    v.store(c, a, b);
}

// The scalar counterpart of storeWideImpulses: the constraint's impulses and approach speeds
// into its manifold; whether it was hit (storeWideImpulses).
bool storeImpulses(const ScalarContact& c, float hitThreshold) {
    Manifold& manifold = c.surface->manifold;
    for (int i = 0; i < c.pointCount; ++i) {
        const SolverPoint& p = c.points[i];
        ManifoldPoint& mp = manifold.points[i];
        mp.normalImpulse = p.normalImpulse;
        mp.tangentImpulse = p.tangentImpulse;
        mp.maxNormalImpulse = p.maxNormalImpulse;
        mp.approachSpeed = -p.approachVelocity;
    }
    return wasHit(manifold.points, manifold.pointCount, hitThreshold);
}

} // namespace

Softness makeSoftness(float hertz, float dampingRatio, float h) noexcept {
    if (hertz == 0.0f) return {0.0f, 1.0f, 0.0f};
    const float omega = 2.0f * 3.14159265358979f * hertz;
    const float a1 = 2.0f * dampingRatio + h * omega;
    // Where the formulas below would divide zero by zero (the frequency and damping ratio are
    // bounded by kMaxHertz, so nothing overflows): a spring with neither stiffness nor damping to
    // speak of pushes nothing.
    if (!(a1 > 1e-30f)) return {0.0f, 0.0f, 1.0f};
    const float a2 = h * omega * a1;
    const float a3 = 1.0f / (1.0f + a2);
    return {omega / a1, a2 * a3, a3};
}

namespace {

struct SubstepSettings {
    int substeps = 1;
    float h = 0.0f;
    float inverseH = 0.0f;
    Softness contact{};
    Softness stiff{}; ///< against an immovable body
    JointStep joint{};
};

[[nodiscard]] SubstepSettings substepSettings(const SolverSettings& settings) {
    SubstepSettings s;
    s.substeps = std::max(settings.substeps, 1);
    s.h = settings.dt / static_cast<float>(s.substeps);
    s.inverseH = 1.0f / s.h;
    s.contact = makeSoftness(settings.contactHertz, settings.contactDampingRatio, s.h);
    s.stiff = makeSoftness(2.0f * settings.contactHertz, settings.contactDampingRatio, s.h);
    s.joint = {s.h, s.inverseH, makeSoftness(settings.jointHertz, settings.jointDampingRatio, s.h)};
    return s;
}

// Colours the revolute joints, the summary's candidates (scratch.movable must be filled); lists
// the joints left for the scalar solve in scratch.scalarJoints, and completes those of them that
// hold a point joint's first line only.
void colourJoints(std::span<JointConstraint> joints, const ConstraintSummary& summary,
                  ContactSolverScratch& scratch) {
    const std::span<const WideJointCandidate> candidates(summary.jointCandidates);
#if R2D_ASSERTS_ON
    ConstraintSummary expected;
    summarizeJoints(joints, expected);
    R2D_ASSERT(summary.jointCandidates == expected.jointCandidates &&
                   summary.jointBodies == expected.jointBodies,
               "the summary's joint candidates are not those of the joints");
#endif
    colourConstraints(summary.jointBodies, scratch.movable, scratch.bodyColours,
                      scratch.jointColouring);
    scratch.scalarJoints.clear();
    std::size_t next = 0; // the next candidate, in array order as the joints
    for (std::uint32_t i = 0; i < joints.size(); ++i) {
        const bool candidate = next < candidates.size() && candidates[next].joint == i;
        const bool wide = candidate && scratch.jointColouring.colourOf[next] != kContactColourCount;
        if (candidate) ++next;
        if (wide) continue;
        scratch.scalarJoints.push_back(i);
        if (joints[i].wideKind == WideJointKind::Point) completePointJoint(joints[i]);
    }
}

} // namespace

void solveSoftStepSequential(std::span<SolverState> bodies, std::span<const SolverMotion> motions,
                             std::span<JointConstraint> joints,
                             std::span<const ContactConstraint> constraints,
                             const SolverSettings& settings) {
    const SubstepSettings s = substepSettings(settings);
    const float push = settings.maxContactPushSpeed;
    std::vector<std::uint8_t> jointed;
    markJointedBodies(joints, bodies.size(), jointed);
    const PrepareContext context{bodies, motions, s.contact, s.stiff, settings.maxMassRatio,
                                 jointed};
    for (JointConstraint& j : joints) prepareJoint(j, s.joint);
    std::vector<ScalarContact> contacts(constraints.size());
    for (std::size_t i = 0; i < constraints.size(); ++i) {
        loadConstraint(constraints[i], contacts[i]);
        prepareConstraint(context, contacts[i]);
    }
    for (int i = 0; i < s.substeps; ++i) {
        integrateVelocities(bodies, motions, 1, bodies.size(), s.h, settings.maxLinearSpeed,
                            settings.maxAngularSpeed);
        for (const JointConstraint& j : joints) warmStartJoint(bodies, j);
        for (const ScalarContact& c : contacts) warmStart(bodies, c);
        for (JointConstraint& j : joints) solveJoint(bodies, j, s.joint, true);
        for (ScalarContact& c : contacts) solveContact(bodies, c, s.inverseH, push, true);
        integratePositions(bodies, 1, bodies.size(), s.h);
        for (JointConstraint& j : joints) solveJoint(bodies, j, s.joint, false);
        for (ScalarContact& c : contacts) solveContact(bodies, c, s.inverseH, push, false);
    }
    for (ScalarContact& c : contacts) applyRestitution(bodies, c, settings.restitutionThreshold);
    for (const ScalarContact& c : contacts) (void)storeImpulses(c, settings.hitThreshold);
}

namespace {

// Calls f(begin, end) for each run of consecutive slots of `slots` (ascending): a group's bodies
// mostly come in runs (a pyramid's boxes were made one after another), which the integration
// loops take whole rather than a call per body.
template <class F>
void forEachSlotRun(std::span<const std::uint32_t> slots, F&& f) {
    for (std::size_t i = 0; i < slots.size();) {
        std::size_t j = i + 1;
        while (j < slots.size() && slots[j] == slots[j - 1] + 1) ++j;
        f(slots[i], slots[j - 1] + std::size_t{1});
        i = j;
    }
}

// What the stages of one step read, whatever the lane width.
struct SoftStep {
    std::span<SolverState> bodies;
    std::span<const SolverMotion> motions;
    std::span<JointConstraint> joints;
    std::span<const ContactConstraint> constraints;
    const SolverSettings& settings;
    const SubstepSettings& s;
    const PrepareContext& context;
    bool bouncy = false;
    std::span<const WideJointCandidate> jointCandidates; ///< ConstraintSummary's
    const SlotStore* store = nullptr;
};

// The constraints' islands in groups (contact_groups.hpp), and the contacts' and joints' blocks
// laid out by colour and group. The layout depends on the constraints alone, not on the workers,
// so each block holds the same lanes (the same bits) however many there are; one participant runs
// it group by group. Groups and contact layout are kept while their inputs are (a pile at rest
// keeps its constraints step after step): grouping v3_large_pyramid's one island took 4% of a
// step. The scalar joints are listed anew every step (colourJoints), and split by group here.
template <int W>
void layOutConstraints(ContactSolverScratch& scratch, std::span<const JointConstraint> joints,
                       std::size_t slotCount, std::int32_t workers) {
    std::vector<ConstraintBodies>& scalarBodies = scratch.scalarJointBodies;
    scalarBodies.clear();
    for (const std::uint32_t j : scratch.scalarJoints)
        scalarBodies.push_back({joints[j].bodyA, joints[j].bodyB});
    const std::span<const ConstraintBodies> contacts(scratch.colouring.colouredConstraints);
    const std::span<const ConstraintBodies> wideJoints(scratch.jointColouring.colouredConstraints);
    ContactGroups& groups = scratch.contactGroups;
    if (groups.sourceContacts != scratch.colouring.generation ||
        groups.sourceJoints != scratch.jointColouring.generation ||
        groups.sourceTarget != scratch.groupConstraints ||
        groups.sourceScalarJoints != scalarBodies || groups.sourceSlots != slotCount) {
        groupIslands({contacts, wideJoints, scalarBodies}, slotCount, scratch.groupConstraints,
                     groups);
        groups.sourceContacts = scratch.colouring.generation;
        groups.sourceJoints = scratch.jointColouring.generation;
        groups.sourceTarget = scratch.groupConstraints;
        groups.sourceScalarJoints = scalarBodies;
        groups.sourceSlots = slotCount;
        ++groups.generation;
    }
    // Group by group, each on one participant, unless the largest group would leave the others
    // idle (a pile beside a few small islands): then colour by colour over all groups.
    const bool groupMajor =
        groups.count > 1 &&
        static_cast<std::size_t>(groups.largest) * static_cast<std::size_t>(std::max(workers, 1)) <=
            std::max<std::size_t>(groups.constraints, groups.largest);
    ContactLayout& layout = scratch.contactLayout;
    if (layout.sourceGroups != groups.generation || layout.sourceWidth != W ||
        layout.groupMajor != groupMajor) {
        layOutContacts<W>(scratch.colouring, groups, groupMajor, layout);
        layout.sourceGroups = groups.generation;
        layout.sourceWidth = W;
    }
    layOutJoints(scratch.jointColouring, groups, contacts.size(), groupMajor, scratch.scalarJoints,
                 scratch.jointLayout);
}

// Packs the blocks of width W, lists the stages and runs them with `kernels`.
template <int W>
void runSoftStep(const SoftStep& step, const WideKernels<W>& kernels, WideBlocks<W>& blocks,
                 ContactSolverScratch& scratch, const WorldDef* scheduler) {
    const std::span<SolverState> bodies = step.bodies;
    const std::span<JointConstraint> joints = step.joints;
    const std::span<const ContactConstraint> constraints = step.constraints;
    const SubstepSettings& s = step.s;
    const float push = step.settings.maxContactPushSpeed;
    const WideSoftness softness{step.context.contact, step.context.stiff};
    const bool parallel = scheduler != nullptr && runsInParallel(*scheduler);
    const std::int32_t workers = parallel ? scheduler->workerCount : 1;
    layOutConstraints<W>(scratch, joints, bodies.size(), workers);
    const ContactLayout& layout = scratch.contactLayout;
    blocks.contacts.resize(layout.blockCount);
    blocks.contactsCold.resize(blocks.contacts.size());
    JointLayout& jointLayout = scratch.jointLayout;
    packWideJoints<W>(joints, step.jointCandidates, jointLayout.orderOf(scratch.jointColouring),
                      jointLayout.segments, s.joint, blocks.points, blocks.revolutes,
                      jointLayout.blocksAt);
    scratch.pointBlocks = jointLayout.blocks(true, 0);
    scratch.revoluteBlocks = jointLayout.blocks(false, 0);
    const std::span<WideContact<W>> wide(blocks.contacts);
    const std::span<WideContactCold<W>> cold(blocks.contactsCold);
    const std::span<WideJoint<W>> wideJoints(blocks.points);
    const std::span<WideRevolute<W>> wideRevolutes(blocks.revolutes);
    const std::span<const std::uint32_t> order = layout.orderOf(scratch.colouring);
    const std::span<const std::uint32_t> overflow = order.subspan(layout.overflowStart.front());
    scratch.overflowContacts.resize(overflow.size());
    const std::span<ScalarContact> scalar(scratch.overflowContacts); // in the overflow's order
    const std::span<const std::uint32_t> groupBodies(scratch.contactGroups.bodies);

    using Kind = SoftStepStageKind;
    listSoftStepStages({bodies.size(), s.substeps, step.bouncy, step.store != nullptr, workers},
                       scratch);

    const std::span<const std::uint32_t> scalarJoints(scratch.scalarJoints);
    scratch.hitEvents.resize(constraints.size());
    const std::span<std::uint8_t> hits(scratch.hitEvents);
    SolverState* const state = bodies.data();
    const auto runOne = [&](const SoftStepStage& stage, std::int32_t begin, std::int32_t end) {
        const std::size_t first = stage.first + static_cast<std::size_t>(begin);
        const auto count = static_cast<std::size_t>(end - begin);
        const bool bias = stage.useBias;
        switch (stage.kind) {
        case Kind::PackContacts:
            packWideContacts<W>(step.context, constraints, order, layout.segments, wide, cold,
                                first, first + count);
            break;
        case Kind::PrepareOverflow:
            for (std::size_t i = first; i < first + count; ++i) {
                loadConstraint(constraints[overflow[i]], scalar[i]);
                prepareConstraint(step.context, scalar[i]);
            }
            break;
        case Kind::IntegrateVelocities:
            integrateVelocities(bodies, step.motions, first, first + count, s.h,
                                step.settings.maxLinearSpeed, step.settings.maxAngularSpeed);
            break;
        case Kind::IntegratePositions: integratePositions(bodies, first, first + count, s.h); break;
        case Kind::IntegrateGroupVelocities:
            forEachSlotRun(groupBodies.subspan(first, count), [&](std::size_t from,
                                                                  std::size_t to) {
                integrateVelocities(bodies, step.motions, from, to, s.h,
                                    step.settings.maxLinearSpeed, step.settings.maxAngularSpeed);
            });
            break;
        case Kind::IntegrateGroupPositions:
            forEachSlotRun(groupBodies.subspan(first, count),
                           [&](std::size_t from, std::size_t to) {
                               integratePositions(bodies, from, to, s.h);
                           });
            break;
        case Kind::WarmStartPoints:
            kernels.warmStartPoints(state, wideJoints.data() + first, count);
            break;
        case Kind::WarmStartRevolutes:
            kernels.warmStartRevolutes(state, wideRevolutes.data() + first, count);
            break;
        case Kind::WarmStartScalarJoints:
            for (const std::uint32_t j : scalarJoints.subspan(first, count))
                warmStartJoint(bodies, joints[j]);
            break;
        case Kind::WarmStartContacts:
            kernels.warmStartContacts(state, wide.data() + first, count);
            break;
        case Kind::WarmStartOverflow:
            for (const ScalarContact& c : scalar.subspan(first, count)) warmStart(bodies, c);
            break;
        case Kind::SolvePoints:
            kernels.solvePoints(state, wideJoints.data() + first, count, s.joint, bias);
            break;
        case Kind::SolveRevolutes:
            kernels.solveRevolutes(state, wideRevolutes.data() + first, count, s.joint, bias);
            break;
        case Kind::SolveScalarJoints:
            for (const std::uint32_t j : scalarJoints.subspan(first, count))
                solveJoint(bodies, joints[j], s.joint, bias);
            break;
        case Kind::SolveContacts:
            kernels.solveContacts(state, wide.data() + first, count, softness, s.inverseH, push,
                                  bias);
            break;
        case Kind::SolveOverflow:
            for (ScalarContact& c : scalar.subspan(first, count))
                solveContact(bodies, c, s.inverseH, push, bias);
            break;
        case Kind::StoreContactImpulses:
            storeWideImpulses<W>(wide.subspan(first, count), cold.subspan(first, count),
                                 step.settings.hitThreshold, hits);
            break;
        case Kind::StoreOverflowImpulses:
            for (std::size_t i = first; i < first + count; ++i)
                hits[overflow[i]] = storeImpulses(scalar[i], step.settings.hitThreshold) ? 1 : 0;
            break;
        case Kind::StorePointImpulses:
            storeWideJointImpulses<W>(wideJoints.subspan(first, count), {}, joints);
            break;
        case Kind::StoreRevoluteImpulses:
            storeWideJointImpulses<W>({}, wideRevolutes.subspan(first, count), joints);
            break;
        case Kind::RestituteContacts:
            kernels.restituteContacts(state, wide.data() + first, cold.data() + first, count,
                                      step.settings.restitutionThreshold);
            break;
        case Kind::RestituteOverflow:
            for (ScalarContact& c : scalar.subspan(first, count))
                applyRestitution(bodies, c, step.settings.restitutionThreshold);
            break;
        case Kind::StoreBodies:
            (*step.store)(static_cast<std::uint32_t>(first),
                          static_cast<std::uint32_t>(first + count));
            break;
        case Kind::RunGroups: break; // runStage runs the groups' own stages
        }
    };
    // A group's stages run whole, in order, on the participant that took the group.
    const auto runStage = [&](std::int32_t index, std::int32_t begin, std::int32_t end) {
        const SoftStepStage& stage = scratch.stages[static_cast<std::size_t>(index)];
        if (stage.kind != Kind::RunGroups) return runOne(stage, begin, end);
        for (std::size_t g = stage.first + static_cast<std::size_t>(begin);
             g < stage.first + static_cast<std::size_t>(end); ++g)
            for (std::size_t i = scratch.groupStageStart[g]; i < scratch.groupStageStart[g + 1];
                 ++i)
                runOne(scratch.groupStages[i], 0, scratch.groupPlans[i].itemCount);
    };
    static const WorldDef kCallingThread{};
    scratch.runner.run(parallel ? *scheduler : kCallingThread, scratch.plans, runStage);
}

// Bodies that cannot move take no colour (contact_colouring.hpp).
void colourContactsOf(std::span<const SolverMotion> motions, const ConstraintSummary& summary,
                      ContactSolverScratch& scratch) {
    scratch.movable.resize(motions.size());
    for (std::size_t i = 0; i < motions.size(); ++i)
        scratch.movable[i] = i != 0 && (motions[i].invMass > 0.0f || motions[i].invInertia > 0.0f);
    colourConstraints(summary.bodies, scratch.movable, scratch.bodyColours, scratch.colouring);
}

} // namespace

void colourContactsAhead(std::span<const SolverMotion> motions, const ConstraintSummary& summary,
                         ContactSolverScratch& scratch) {
    colourContactsOf(motions, summary, scratch);
    scratch.colouredAhead = true;
}

void summarizeJoints(std::span<const JointConstraint> joints, ConstraintSummary& summary) {
    summary.jointCandidates.clear();
    summary.jointBodies.clear();
    for (std::uint32_t i = 0; i < joints.size(); ++i) listJointCandidate(summary, i, joints[i]);
}

void summarizeConstraints(std::span<const ContactConstraint> constraints,
                          ConstraintSummary& summary) {
    summary.bodies.resize(constraints.size());
    summary.bouncy = false;
    for (std::size_t i = 0; i < constraints.size(); ++i) {
        summary.bodies[i] = {constraints[i].bodyA, constraints[i].bodyB};
        summary.bouncy = summary.bouncy || constraints[i].surface->restitution != 0.0f;
    }
}

void solveSoftStep(std::span<SolverState> bodies, std::span<const SolverMotion> motions,
                   std::span<JointConstraint> joints,
                   std::span<const ContactConstraint> constraints, const ConstraintSummary& summary,
                   const SolverSettings& settings, ContactSolverScratch& scratch,
                   const WorldDef* scheduler, const SlotStore* store) {
    R2D_ASSERT(summary.bodies.size() == constraints.size(), "the summary is of other constraints");
    const SubstepSettings s = substepSettings(settings);

    if (!std::exchange(scratch.colouredAhead, false)) colourContactsOf(motions, summary, scratch);
    R2D_ASSERT(scratch.colouring.coloured &&
                   std::ranges::equal(summary.bodies, scratch.colouring.colouredConstraints),
               "the contacts were coloured ahead, and then the constraints changed");
    // Each constraint is prepared as it is packed, in the first stages. Only the mass ratio limit
    // reads which bodies are jointed: without contacts or the limit, no pass over the joints.
    if (!constraints.empty() && settings.maxMassRatio > 0.0f)
        markJointedBodies(joints, bodies.size(), scratch.jointed);
    else
        scratch.jointed.clear();
    const PrepareContext context{bodies,         motions, s.contact, s.stiff, settings.maxMassRatio,
                                 scratch.jointed};
    colourJoints(joints, summary, scratch);
    for (const std::uint32_t j : scratch.scalarJoints) prepareJoint(joints[j], s.joint);

    const SoftStep step{bodies,      motions,        joints,
                        constraints, settings,       s,
                        context,     summary.bouncy, summary.jointCandidates,
                        store};
    scratch.path = solverSimdPath();
    const WideKernels<8>* kernels8 =
        scratch.kernels8 != nullptr ? scratch.kernels8 : wideKernels8(scratch.path);
    if (kernels8 != nullptr) {
        runSoftStep(step, *kernels8, scratch.wide8, scratch, scheduler);
        return;
    }
    runSoftStep(step, wideKernels4(scratch.path), scratch.wide4, scratch, scheduler);
}

} // namespace rigid2d::detail
