#include <doctest/doctest.h>

#include <atomic>
#include <cfenv>
#include <string>
#include <thread>
#include <vector>

#include "rigid2d/error.hpp"
#include "rigid2d/thread_pool.hpp"

using namespace rigid2d;

namespace {
// A task over `items` that counts each item's visits and fails if two pieces run at once as the
// same worker.
struct Checked {
    std::vector<std::atomic<int>> items;
    std::vector<std::atomic<bool>> busy;
    std::atomic<int> clashes{0};
    std::atomic<int> badWorkers{0};
    Checked(std::size_t count, std::size_t workers) : items(count), busy(workers) {}

    static void run(std::int32_t begin, std::int32_t end, std::int32_t worker, void* context) {
        auto& self = *static_cast<Checked*>(context);
        if (worker < 0 || static_cast<std::size_t>(worker) >= self.busy.size()) {
            ++self.badWorkers;
            return;
        }
        if (self.busy[static_cast<std::size_t>(worker)].exchange(true)) ++self.clashes;
        for (std::int32_t i = begin; i < end; ++i) ++self.items[static_cast<std::size_t>(i)];
        std::this_thread::yield(); // let pieces overlap
        self.busy[static_cast<std::size_t>(worker)] = false;
    }
    [[nodiscard]] bool eachOnce() const {
        for (const auto& item : items)
            if (item.load() != 1) return false;
        return true;
    }
};
} // namespace

TEST_CASE("ThreadPool refuses a worker count below 1 or above kMaxWorkers") {
    for (std::int32_t bad : {0, -1, kMaxWorkers + 1}) {
        CAPTURE(bad);
        try {
            ThreadPool pool(bad);
            FAIL("accepted");
        } catch (const Error& e) {
            const std::string message = e.what();
            CHECK(message.find("ThreadPool::ThreadPool") != std::string::npos);
            CHECK(message.find("workerCount") != std::string::npos);
        }
    }
}

TEST_CASE("ThreadPool::attach fills the scheduler fields of a WorldDef") {
    ThreadPool pool(3);
    WorldDef def;
    pool.attach(def);
    CHECK(pool.workerCount() == 3);
    CHECK(def.workerCount == 3);
    CHECK((def.enqueueTask == &ThreadPool::enqueueTask));
    CHECK((def.finishTask == &ThreadPool::finishTask));
    CHECK(def.userTaskContext != nullptr);
}

TEST_CASE("ThreadPool runs every item once, no worker index twice at a time") {
    for (std::int32_t workers : {1, 2, 4, 8}) {
        CAPTURE(workers);
        ThreadPool pool(workers);
        WorldDef def;
        pool.attach(def);
        for (int round = 0; round < 50; ++round) {
            const std::int32_t count = 1 + round * 37;
            Checked task(static_cast<std::size_t>(count), static_cast<std::size_t>(workers));
            void* handle =
                def.enqueueTask(&Checked::run, count, 1 + round % 7, &task, def.userTaskContext);
            REQUIRE(handle != nullptr);
            def.finishTask(handle, def.userTaskContext);
            CHECK(task.eachOnce());
            CHECK(task.clashes == 0);
            CHECK(task.badWorkers == 0);
        }
        Checked empty(0, static_cast<std::size_t>(workers));
        def.finishTask(def.enqueueTask(&Checked::run, 0, 1, &empty, def.userTaskContext),
                       def.userTaskContext);
    }
}

TEST_CASE("one ThreadPool serves tasks from two threads at once") {
    ThreadPool pool(3);
    WorldDef def;
    pool.attach(def);
    std::atomic<int> failures{0};
    auto submit = [&] {
        for (int round = 0; round < 100; ++round) {
            Checked task(500, 3);
            def.finishTask(def.enqueueTask(&Checked::run, 500, 16, &task, def.userTaskContext),
                           def.userTaskContext);
            if (!task.eachOnce() || task.badWorkers != 0) ++failures;
        }
    };
    std::thread other(submit);
    submit();
    other.join();
    CHECK(failures == 0);
}

namespace {
struct RoundingSeen {
    std::atomic<int> other{0};
    std::atomic<int> pieces{0};
    static void run(std::int32_t, std::int32_t, std::int32_t, void* context) {
        auto& self = *static_cast<RoundingSeen*>(context);
        ++self.pieces;
        if (std::fegetround() != FE_DOWNWARD) ++self.other;
        std::this_thread::yield();
    }
};
} // namespace

TEST_CASE("ThreadPool runs pieces with the enqueuing thread's floating-point environment") {
    ThreadPool pool(4);
    WorldDef def;
    pool.attach(def);
    const int previous = std::fegetround();
    REQUIRE(std::fesetround(FE_DOWNWARD) == 0);
    RoundingSeen seen;
    def.finishTask(def.enqueueTask(&RoundingSeen::run, 400, 1, &seen, def.userTaskContext),
                   def.userTaskContext);
    std::fesetround(previous);
    CHECK(seen.pieces == 400);
    CHECK(seen.other == 0);
}
