#include <doctest/doctest.h>

#include <atomic>
#include <random>
#include <stdexcept>
#include <vector>

#include "core/parallel_for.hpp"
#include "core/shuffled_scheduler.hpp"
#include "rigid2d/thread_pool.hpp"

using namespace rigid2d;

namespace {
// How often parallelFor visited each of `count` items, and the largest worker index it was given.
struct Visits {
    std::vector<std::atomic<int>> items;
    std::atomic<int> pieces{0};
    std::atomic<std::int32_t> highestWorker{-1};
    explicit Visits(std::size_t count) : items(count) {}
    void operator()(std::int32_t begin, std::int32_t end, std::int32_t worker) {
        ++pieces;
        for (std::int32_t i = begin; i < end; ++i) ++items[static_cast<std::size_t>(i)];
        std::int32_t seen = highestWorker.load();
        while (worker > seen && !highestWorker.compare_exchange_weak(seen, worker)) {
        }
    }
    [[nodiscard]] bool eachOnce() const {
        for (const auto& item : items)
            if (item.load() != 1) return false;
        return true;
    }
};
} // namespace

TEST_CASE("parallelFor without a scheduler runs the whole range as one piece on worker 0") {
    WorldDef def;
    def.workerCount = 8; // not used without callbacks
    Visits visits(1000);
    detail::parallelFor(def, 1000, 10, visits);
    CHECK(visits.eachOnce());
    CHECK(visits.pieces == 1);
    CHECK(visits.highestWorker == 0);
    CHECK_FALSE(detail::runsInParallel(def));
}

TEST_CASE("parallelFor hands a range to the scheduler only when it is worth more than one piece") {
    testing::ShuffledScheduler scheduler(4, 1u);
    WorldDef def;
    scheduler.attach(def);
    CHECK(detail::runsInParallel(def));
    Visits small(40);
    detail::parallelFor(def, 40, 64, small);
    CHECK(small.eachOnce());
    CHECK(scheduler.tasks() == 0);
    Visits none(0);
    detail::parallelFor(def, 0, 1, none);
    CHECK(scheduler.tasks() == 0);

    Visits large(5000);
    detail::parallelFor(def, 5000, 64, large);
    CHECK(scheduler.tasks() == 1);
    CHECK(large.eachOnce());
    CHECK(large.pieces > 1);
    CHECK(large.highestWorker < 4);
    // The second task is deferred to finishTask: it too has run when parallelFor returns.
    Visits deferred(5000);
    detail::parallelFor(def, 5000, 64, deferred);
    CHECK(scheduler.tasks() == 2);
    CHECK(scheduler.unfinished() == 0);
    CHECK(deferred.eachOnce());
}

TEST_CASE("parallelFor with one worker runs inline even with a scheduler") {
    testing::ShuffledScheduler scheduler(1, 2u);
    WorldDef def;
    scheduler.attach(def);
    Visits visits(5000);
    detail::parallelFor(def, 5000, 16, visits);
    CHECK(visits.eachOnce());
    CHECK(visits.pieces == 1);
    CHECK(scheduler.tasks() == 0);
}

TEST_CASE("parallelFor on the thread pool covers every item once from every worker count") {
    for (std::int32_t workers : {2, 3, 4, 8}) {
        CAPTURE(workers);
        ThreadPool pool(workers);
        WorldDef def;
        pool.attach(def);
        for (std::int32_t count : {1, 63, 64, 65, 1000, 100000}) {
            CAPTURE(count);
            Visits visits(static_cast<std::size_t>(count));
            detail::parallelFor(def, count, 64, visits);
            CHECK(visits.eachOnce());
            CHECK(visits.highestWorker < workers);
        }
    }
}

TEST_CASE("a ParallelFor runs its pieces between its construction and finish()") {
    // The test scheduler runs every other task at once and defers the rest to finishTask: the
    // second is begun but has not run yet.
    testing::ShuffledScheduler scheduler(4, 3u);
    WorldDef def;
    scheduler.attach(def);
    Visits first(5000);
    detail::parallelFor(def, 5000, 64, first);
    CHECK(scheduler.tasks() == 1);
    Visits deferred(5000);
    {
        detail::ParallelFor<Visits> task(def, 5000, 64, deferred);
        CHECK(scheduler.tasks() == 2);
        CHECK(scheduler.unfinished() == 1);
        CHECK(deferred.pieces == 0);
        task.finish();
        CHECK(scheduler.unfinished() == 0);
        CHECK(deferred.eachOnce());
        task.finish(); // a second finish() does nothing
    }
    CHECK(deferred.eachOnce());
    // Without workers, or too small for two pieces: done in the constructor.
    Visits small(40);
    const detail::ParallelFor<Visits> smallTask(def, 40, 64, small);
    CHECK(small.eachOnce());
    CHECK(scheduler.tasks() == 2);

    // On the pool, the workers take pieces while the calling thread does other work.
    ThreadPool pool(2);
    WorldDef pooled;
    pool.attach(pooled);
    Visits visits(100000);
    detail::ParallelFor<Visits> task(pooled, 100000, 64, visits);
    std::uint64_t otherWork = 0;
    for (int i = 0; i < 100000; ++i) otherWork += static_cast<std::uint64_t>(i) * 7u;
    task.finish();
    CHECK(otherWork > 0);
    CHECK(visits.eachOnce());
    CHECK(visits.highestWorker < 2);
}

namespace {
void* enqueueWithBadWorker(TaskFunction* task, std::int32_t itemCount, std::int32_t, void* context,
                           void* workerIndex) {
    task(0, itemCount, *static_cast<std::int32_t*>(workerIndex), context);
    return nullptr;
}
void finishNothing(void*, void*) {}
} // namespace

TEST_CASE("a scheduler that passes a worker index out of range is caught") {
    for (std::int32_t bad : {-1, 4, 100}) {
        CAPTURE(bad);
        WorldDef def;
        def.workerCount = 4;
        def.enqueueTask = &enqueueWithBadWorker;
        def.finishTask = &finishNothing;
        def.userTaskContext = &bad;
        int calls = 0;
        // The suite's assert handler throws (tests/main.cpp).
        CHECK_THROWS_AS(
            detail::parallelFor(def, 1000, 10,
                                [&](std::int32_t, std::int32_t, std::int32_t) { ++calls; }),
            std::logic_error);
        CHECK(calls == 0);
    }
}

TEST_CASE("nextMarked finds the same flags as a plain scan, eight at a time or not") {
    std::mt19937 random(5u);
    for (int round = 0; round < 200; ++round) {
        std::vector<std::uint8_t> flags(random() % 70u);
        // Mostly zeros, as after a quiet step; a few marks anywhere, including the ends.
        for (std::uint8_t& flag : flags)
            flag = random() % 9u == 0 ? std::uint8_t(1 + random() % 5u) : 0;
        std::vector<std::size_t> expected, found;
        for (std::size_t i = 0; i < flags.size(); ++i)
            if (flags[i] != 0) expected.push_back(i);
        for (std::size_t i = detail::nextMarked(flags, 0); i < flags.size();
             i = detail::nextMarked(flags, i + 1))
            found.push_back(i);
        CHECK(found == expected);
        CHECK(detail::nextMarked(flags, flags.size()) == flags.size());
    }
}
