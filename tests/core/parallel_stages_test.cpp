// ParallelStages: every item of every stage once, a stage only after the last item of the one
// before, on the pool at every worker count, with the shuffled scheduler and without a scheduler.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <vector>

#include "core/parallel_stages.hpp"
#include "core/shuffled_scheduler.hpp"
#include "rigid2d/thread_pool.hpp"

using namespace rigid2d;
using rigid2d::detail::ParallelStages;
using rigid2d::detail::StagePlan;

namespace {

// Stages of assorted sizes (an empty one, one item, one chunk of everything, many small chunks).
std::vector<StagePlan> testPlans() {
    std::vector<StagePlan> plans;
    for (std::int32_t s = 0; s < 60; ++s) {
        const std::int32_t items = s % 7 == 3 ? 0 : 1 + (s * 37) % 300;
        plans.push_back({items, s % 5 == 0 ? items : 1 + s % 9});
    }
    return plans;
}

// Runs the plans; each item records the stage it belongs to and how many items of the previous
// stage were done when it ran, which must be all of them.
bool runsInOrder(const WorldDef& def, ParallelStages& stages) {
    const std::vector<StagePlan> plans = testPlans();
    std::vector<std::vector<std::atomic<int>>> visits(plans.size());
    std::vector<std::atomic<int>> done(plans.size());
    for (std::size_t s = 0; s < plans.size(); ++s)
        visits[s] = std::vector<std::atomic<int>>(static_cast<std::size_t>(plans[s].itemCount));
    std::atomic<bool> early{false};
    stages.run(def, plans, [&](std::int32_t stage, std::int32_t begin, std::int32_t end) {
        const auto s = static_cast<std::size_t>(stage);
        // The last non-empty stage before this one must be complete.
        for (std::size_t p = s; p-- > 0;) {
            if (plans[p].itemCount == 0) continue;
            if (done[p].load() != plans[p].itemCount) early = true;
            break;
        }
        for (std::int32_t i = begin; i < end; ++i) ++visits[s][static_cast<std::size_t>(i)];
        done[s] += end - begin;
    });
    bool once = true;
    for (const auto& stage : visits)
        for (const auto& item : stage) once = once && item.load() == 1;
    return once && !early.load();
}

} // namespace

TEST_CASE("ParallelStages without a scheduler runs each stage whole, in order") {
    ParallelStages stages;
    CHECK(runsInOrder(WorldDef{}, stages));
}

TEST_CASE("ParallelStages on the thread pool: each item once, each stage after the last") {
    ParallelStages stages; // reused: the counters are reset for every run
    for (const std::int32_t workers : {1, 2, 3, 4, 8}) {
        CAPTURE(workers);
        ThreadPool pool(workers);
        WorldDef def;
        pool.attach(def);
        for (int run = 0; run < 5; ++run) CHECK(runsInOrder(def, stages));
    }
}

TEST_CASE("ParallelStages with participants run one after another in a random order") {
    for (const std::uint32_t seed : {1u, 2u, 3u}) {
        CAPTURE(seed);
        testing::ShuffledScheduler scheduler(4, seed);
        WorldDef def;
        scheduler.attach(def);
        ParallelStages stages;
        CHECK(runsInOrder(def, stages));
        CHECK(runsInOrder(def, stages));
        CHECK(scheduler.unfinished() == 0);
    }
}
