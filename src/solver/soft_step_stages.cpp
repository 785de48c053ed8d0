#include "solver/soft_step_stages.hpp"

#include <algorithm>

namespace rigid2d::detail {

namespace {

// The least items a participant claims at once, per kind of item: below these, handing a piece to
// another core costs more (its bodies' cache lines move with it) than solving it.
constexpr std::int32_t kMinBodies = 256;
constexpr std::int32_t kMinBlocks = 8;

// The stages of a step as they are listed (addSteps). A coloured kind takes one stage per colour
// (its blocks share no movable body, so any split is exact); a list that runs in order takes one
// stage of a single chunk, so it runs in order on one participant.
//
// Blocks are packed and stored colour by colour too, with the chunks of the solve, although
// colours do not depend on each other there: a participant then packs the very blocks it solves
// and stores them from its own cache. Packed as one stage over all blocks, one participant packed
// the first colours and the other the last, and half of the blocks (a kilobyte each at 8 lanes)
// crossed between the cores before the first substep and again to be stored: on two workers,
// v3_large_pyramid took 2.24-2.38 ms a step, against 1.99-2.12 this way.
class StageList {
public:
    StageList(std::vector<StagePlan>& plans, std::vector<SoftStepStage>& stages,
              std::int32_t workers)
        : m_plans(plans), m_stages(stages), m_workers(workers) {
        m_plans.clear();
        m_stages.clear();
    }

    void add(SoftStepStageKind kind, bool useBias, std::size_t first, std::size_t count,
             std::int32_t minChunk) {
        if (count == 0) return;
        const auto items = static_cast<std::int32_t>(count);
        // One chunk per worker: the items of a stage take equal time (blocks of equal width,
        // bodies), and a participant then solves the same blocks and moves the same bodies at
        // every stage of every substep, from its own cache. With four chunks per worker, a chunk
        // another participant took to even out a few microseconds of lag brought its bodies'
        // cache lines over and back: on two workers the solve of circle_rain_10000 took 1.14 ms
        // a step, 1.06 this way (v3_large_pyramid 1.31, 1.26). A participant that falls a whole
        // share behind (one the scheduler starts late) still has its share taken from it.
        const std::int32_t chunk =
            m_workers <= 1 ? items : std::max(minChunk, (items + m_workers - 1) / m_workers);
        m_plans.push_back({items, chunk});
        m_stages.push_back({kind, useBias, static_cast<std::uint32_t>(first)});
    }
    /// Items [first, first + count) that participants claim one at a time.
    void addEach(SoftStepStageKind kind, std::size_t first, std::size_t count) {
        if (count == 0) return;
        m_plans.push_back({static_cast<std::int32_t>(count), 1});
        m_stages.push_back({kind, false, static_cast<std::uint32_t>(first)});
    }
    [[nodiscard]] std::size_t size() const noexcept { return m_stages.size(); }
    /// Items [first, first + count) of a list that runs in order: one chunk, one participant.
    void addRun(SoftStepStageKind kind, bool useBias, std::size_t first, std::size_t count) {
        add(kind, useBias, first, count, static_cast<std::int32_t>(count));
    }
    /// One stage per colour, but a run of small colours (the last few of a greedy colouring,
    /// each a few blocks) is one stage run whole by one participant, colour after colour, as the
    /// stages would have run them: a stage ends at a barrier that costs both participants more
    /// than such a colour's work. The bits are the same.
    void addColours(SoftStepStageKind kind, bool useBias, const ColourBlocks& blocks,
                    std::int32_t minChunk) {
        const auto small = [&](int k) {
            return blocks.start[k + 1] - blocks.start[k] < 4 * static_cast<std::size_t>(minChunk);
        };
        for (int k = 0; k < kContactColourCount;) {
            const bool whole = small(k);
            int end = k + 1;
            while (whole && end < kContactColourCount && small(end)) ++end;
            const std::size_t count = blocks.start[end] - blocks.start[k];
            add(kind, useBias, blocks.start[k], count,
                whole ? static_cast<std::int32_t>(count) : minChunk);
            k = end;
        }
    }

private:
    std::vector<StagePlan>& m_plans;
    std::vector<SoftStepStage>& m_stages;
    std::int32_t m_workers;
};

// The joints of one pass: the point joints' and the other revolute joints' blocks by colour, then
// the joints solved one at a time.
struct JointItems {
    ColourBlocks points, revolutes;
    std::size_t scalarFirst = 0, scalarCount = 0;
};

// The contacts of one pass: their colours' blocks, then their overflow list.
struct ContactItems {
    ColourBlocks blocks;
    std::size_t overflowFirst = 0, overflowCount = 0;
};

// The stages of one pass (warm start, solve or relax) over `joints` and `contacts`.
void addPass(StageList& list, const JointItems& joints, const ContactItems& contacts,
             bool warmStart, bool useBias) {
    using Kind = SoftStepStageKind;
    list.addColours(warmStart ? Kind::WarmStartPoints : Kind::SolvePoints, useBias, joints.points,
                    kMinBlocks);
    list.addColours(warmStart ? Kind::WarmStartRevolutes : Kind::SolveRevolutes, useBias,
                    joints.revolutes, kMinBlocks);
    list.addRun(warmStart ? Kind::WarmStartScalarJoints : Kind::SolveScalarJoints, useBias,
                joints.scalarFirst, joints.scalarCount);
    list.addColours(warmStart ? Kind::WarmStartContacts : Kind::SolveContacts, useBias,
                    contacts.blocks, kMinBlocks);
    list.addRun(warmStart ? Kind::WarmStartOverflow : Kind::SolveOverflow, useBias,
                contacts.overflowFirst, contacts.overflowCount);
}

// The bodies a stage of integration covers: slots [1, bodyCount), or those of one group.
struct BodyItems {
    SoftStepStageKind velocities, positions;
    std::size_t first = 0, count = 0;
};

// The whole step of `joints`, `contacts` and `bodies`: the contacts prepared and packed into their
// blocks (and the overflow ones prepared); per substep, integrate velocities; warm start, solve,
// integrate positions, relax, each over the point joints, the other revolute joints, the scalar
// joints, the contacts and the overflow contacts; then restitution and the contacts' impulses
// stored.
void addSteps(StageList& list, const SoftStepShape& shape, const JointItems& joints,
              const ContactItems& contacts, const BodyItems& bodies) {
    using Kind = SoftStepStageKind;
    list.addColours(Kind::PackContacts, false, contacts.blocks, kMinBlocks);
    list.addRun(Kind::PrepareOverflow, false, contacts.overflowFirst, contacts.overflowCount);
    for (int i = 0; i < shape.substeps; ++i) {
        list.add(bodies.velocities, false, bodies.first, bodies.count, kMinBodies);
        addPass(list, joints, contacts, true, false);
        addPass(list, joints, contacts, false, true);
        list.add(bodies.positions, false, bodies.first, bodies.count, kMinBodies);
        addPass(list, joints, contacts, false, false);
    }
    // Restitution in colour order too, on the blocks (the usual case has none: no passes).
    if (shape.bouncy) {
        list.addColours(Kind::RestituteContacts, false, contacts.blocks, kMinBlocks);
        list.addRun(Kind::RestituteOverflow, false, contacts.overflowFirst, contacts.overflowCount);
    }
    list.addColours(Kind::StoreContactImpulses, false, contacts.blocks, kMinBlocks);
    list.addRun(Kind::StoreOverflowImpulses, false, contacts.overflowFirst, contacts.overflowCount);
}

} // namespace

void listSoftStepStages(const SoftStepShape& shape, ContactSolverScratch& scratch) {
    using Kind = SoftStepStageKind;
    StageList list(scratch.plans, scratch.stages, shape.workers);
    const ContactLayout& layout = scratch.contactLayout;
    const JointLayout& jointLayout = scratch.jointLayout;
    const std::size_t overflowBegin = layout.overflowStart.front();
    if (!layout.groupMajor) {
        const JointItems joints{scratch.pointBlocks, scratch.revoluteBlocks, 0,
                                scratch.scalarJoints.size()};
        const ContactItems contacts{layout.colourBlocks, 0,
                                    layout.overflowStart.back() - overflowBegin};
        addSteps(list, shape, joints, contacts,
                 {Kind::IntegrateVelocities, Kind::IntegratePositions, 1, shape.bodyCount - 1});
        list.addColours(Kind::StorePointImpulses, false, scratch.pointBlocks, kMinBlocks);
        list.addColours(Kind::StoreRevoluteImpulses, false, scratch.revoluteBlocks, kMinBlocks);
    } else {
        // Each group's whole step, on the participant that takes the group: groups share no body
        // that moves, so they need no barrier between them.
        const ContactGroups& groups = scratch.contactGroups;
        StageList groupList(scratch.groupPlans, scratch.groupStages, 1);
        scratch.groupStageStart.clear();
        for (std::uint32_t g = 0; g < groups.count; ++g) {
            scratch.groupStageStart.push_back(static_cast<std::uint32_t>(groupList.size()));
            const JointItems joints{jointLayout.blocks(true, g), jointLayout.blocks(false, g),
                                    jointLayout.scalarStart[g],
                                    jointLayout.scalarStart[g + 1] - jointLayout.scalarStart[g]};
            const ContactItems contacts{layout.groupBlocks[g],
                                        layout.overflowStart[g] - overflowBegin,
                                        layout.overflowStart[g + 1] - layout.overflowStart[g]};
            addSteps(groupList, shape, joints, contacts,
                     {Kind::IntegrateGroupVelocities, Kind::IntegrateGroupPositions,
                      groups.bodyStart[g], groups.bodyStart[g + 1] - groups.bodyStart[g]});
        }
        scratch.groupStageStart.push_back(static_cast<std::uint32_t>(groupList.size()));
        list.addEach(Kind::RunGroups, 0, groups.count);
        // The bodies of no constraint: their substeps alone.
        const std::size_t free = groups.bodyStart[groups.count];
        const std::size_t freeCount = groups.bodyStart[groups.count + 1] - free;
        for (int i = 0; i < shape.substeps; ++i) {
            list.add(Kind::IntegrateGroupVelocities, false, free, freeCount, kMinBodies);
            list.add(Kind::IntegrateGroupPositions, false, free, freeCount, kMinBodies);
        }
        // The joints' impulses, of all groups at once.
        list.addRun(Kind::StorePointImpulses, false, 0, jointLayout.blocksAt.back().points);
        list.addRun(Kind::StoreRevoluteImpulses, false, 0, jointLayout.blocksAt.back().revolutes);
    }
    // The chunks of the integration: a participant writes back the bodies it moved.
    if (shape.storeBodies) list.add(Kind::StoreBodies, false, 1, shape.bodyCount - 1, kMinBodies);
}

} // namespace rigid2d::detail
