// The default scheduler: workerCount - 1 threads and one queue of tasks behind a mutex.
//
// A task is cut into pieces of the requested minimum range. Pieces are claimed one at a time under
// the mutex (a step hands over a few dozen per stage, so the lock is not what limits it); the
// thread that calls finishTask claims pieces of its own task too, as worker 0, and then sleeps
// until the last piece taken elsewhere is done. A finished task goes back to a free list, so a
// warmed-up world's step allocates nothing here either. A worker that finds the queue empty
// watches it for a while before it sleeps: a step's stages follow each other within tens of
// microseconds, about what waking a sleeping thread takes.
//
//   worker t:  wait for a queued task (watch briefly, then sleep); claim its next piece (dequeue
//              it when none is left); run it as worker t; count it done, waking the finisher
//              after the last
//   finish:    claim and run pieces of this task as worker 0; wait until all are done
#include "rigid2d/thread_pool.hpp"

#include <atomic>
#include <cfenv>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "core/check.hpp"
#include "core/parallel_stages.hpp"

namespace rigid2d {

namespace {

struct Task {
    TaskFunction* function = nullptr;
    void* context = nullptr;
    std::int32_t itemCount = 0;
    std::int32_t pieceRange = 1;
    std::int32_t pieceCount = 0;
    std::int32_t claimed = 0; ///< pieces handed out; guarded by the pool's mutex
    /// Pieces finished; written under the pool's mutex, read without it by a finisher that
    /// watches for the last one.
    std::atomic<std::int32_t> done{0};
    std::fenv_t environment{}; ///< the enqueuing thread's floating-point environment
};

} // namespace

// How long an idle worker watches the queue before it sleeps: a step's parallel stages are
// separated by serial ones of up to a few hundred microseconds, and waking a sleeping thread
// takes tens of microseconds on the critical path of every stage.
constexpr std::chrono::microseconds kWatchQueue{400};
// How long the thread that finishes a task watches for the pieces run elsewhere.
constexpr std::chrono::microseconds kWatchPieces{200};
// How long either watches without giving its core up.
constexpr std::chrono::microseconds kWatchAlone{20};

struct ThreadPool::Shared {
    std::int32_t workerCount = 1;
    std::mutex mutex;
    std::condition_variable taskQueued;
    std::condition_variable pieceDone;
    std::deque<Task*> queue; ///< tasks with pieces not yet claimed, oldest first
    /// queue.size(), readable without the lock by the workers that watch for a task.
    std::atomic<std::size_t> queued{0};
    std::vector<std::unique_ptr<Task>> tasks;
    std::vector<Task*> freeTasks;
    bool stopping = false;
    std::vector<std::thread> threads;

    // Claims the next piece of `task` (which has one left); the lock is held.
    std::int32_t claim(Task& task) {
        const std::int32_t piece = task.claimed++;
        if (task.claimed == task.pieceCount) {
            for (auto it = queue.begin(); it != queue.end(); ++it) {
                if (*it != &task) continue;
                queue.erase(it);
                queued.store(queue.size(), std::memory_order_relaxed);
                break;
            }
        }
        return piece;
    }

    // Runs one claimed piece with the lock released, and takes the lock back.
    void run(Task& task, std::int32_t piece, std::int32_t worker,
             std::unique_lock<std::mutex>& lock) {
        lock.unlock();
        // Rounding, exception masks and flush-to-zero as on the stepping thread: the same bits,
        // and a test's floating-point traps apply on every worker.
        if (worker != 0) std::fesetenv(&task.environment);
        const std::int32_t begin = piece * task.pieceRange;
        const std::int32_t end = std::min(begin + task.pieceRange, task.itemCount);
        task.function(begin, end, worker, task.context);
        lock.lock();
        if (task.done.fetch_add(1, std::memory_order_release) + 1 == task.pieceCount)
            pieceDone.notify_all();
    }

    // Watches, without the lock, for up to `time` or until `seen()`. After the first few
    // microseconds it offers its core between looks: a thread the scheduler put on the same core
    // (the one being waited for, often) then runs at once instead of after the watch.
    template <class Seen>
    static void watch(std::unique_lock<std::mutex>& lock, std::chrono::microseconds time,
                      Seen seen) {
        lock.unlock();
        const auto start = std::chrono::steady_clock::now();
        const auto politeFrom = start + kWatchAlone;
        const auto until = start + time;
        bool found = false;
        while (!found) {
            for (int i = 0; i < 64 && !found; ++i) {
                RIGID2D_SPIN_PAUSE();
                found = seen();
            }
            const auto now = std::chrono::steady_clock::now();
            if (now >= until) break;
            if (now >= politeFrom) std::this_thread::yield();
        }
        lock.lock();
    }

    void work(std::int32_t worker) {
        std::unique_lock<std::mutex> lock(mutex);
        for (;;) {
            if (queue.empty() && !stopping)
                watch(lock, kWatchQueue,
                      [&] { return queued.load(std::memory_order_relaxed) != 0; });
            taskQueued.wait(lock, [&] { return stopping || !queue.empty(); });
            if (queue.empty()) return; // stopping, and nothing left to do
            Task& task = *queue.front();
            const std::int32_t piece = claim(task);
            run(task, piece, worker, lock);
        }
    }
};

ThreadPool::ThreadPool(std::int32_t workerCount) : m_shared(std::make_unique<Shared>()) {
    detail::require(workerCount >= 1 && workerCount <= kMaxWorkers, "ThreadPool::ThreadPool",
                    "workerCount", "must be in [1, kMaxWorkers = 64]",
                    static_cast<float>(workerCount));
    m_shared->workerCount = workerCount;
    m_shared->threads.reserve(static_cast<std::size_t>(workerCount - 1));
    try {
        for (std::int32_t worker = 1; worker < workerCount; ++worker)
            m_shared->threads.emplace_back(
                [shared = m_shared.get(), worker] { shared->work(worker); });
    } catch (...) {
        // A thread that could not start: stop the ones that did before giving up.
        {
            const std::lock_guard<std::mutex> lock(m_shared->mutex);
            m_shared->stopping = true;
        }
        m_shared->taskQueued.notify_all();
        for (std::thread& thread : m_shared->threads) thread.join();
        throw;
    }
}

ThreadPool::~ThreadPool() {
    {
        const std::lock_guard<std::mutex> lock(m_shared->mutex);
        m_shared->stopping = true;
    }
    m_shared->taskQueued.notify_all();
    for (std::thread& thread : m_shared->threads) thread.join();
}

std::int32_t ThreadPool::workerCount() const noexcept { return m_shared->workerCount; }

void ThreadPool::attach(WorldDef& def) noexcept {
    def.workerCount = m_shared->workerCount;
    def.enqueueTask = &ThreadPool::enqueueTask;
    def.finishTask = &ThreadPool::finishTask;
    def.userTaskContext = m_shared.get();
}

void* ThreadPool::enqueueTask(TaskFunction* function, std::int32_t itemCount, std::int32_t minRange,
                              void* taskContext, void* pool) {
    auto& shared = *static_cast<Shared*>(pool);
    const std::int32_t range = std::max(minRange, std::int32_t{1});
    std::fenv_t environment;
    std::fegetenv(&environment);
    std::unique_lock<std::mutex> lock(shared.mutex);
    if (shared.freeTasks.empty()) {
        shared.tasks.push_back(std::make_unique<Task>());
        shared.freeTasks.push_back(shared.tasks.back().get());
    }
    Task* task = shared.freeTasks.back();
    shared.freeTasks.pop_back();
    task->claimed = 0;
    task->done.store(0, std::memory_order_relaxed);
    task->function = function;
    task->context = taskContext;
    task->itemCount = itemCount;
    task->pieceRange = range;
    task->pieceCount = itemCount <= 0 ? 0 : 1 + (itemCount - 1) / range;
    task->environment = environment;
    if (task->pieceCount > 0) {
        shared.queue.push_back(task);
        shared.queued.store(shared.queue.size(), std::memory_order_relaxed);
        lock.unlock();
        shared.taskQueued.notify_all();
    }
    return task;
}

void ThreadPool::finishTask(void* handle, void* pool) {
    auto& shared = *static_cast<Shared*>(pool);
    Task& task = *static_cast<Task*>(handle);
    std::unique_lock<std::mutex> lock(shared.mutex);
    while (task.claimed < task.pieceCount) {
        const std::int32_t piece = shared.claim(task);
        shared.run(task, piece, 0, lock);
    }
    const auto allDone = [&] {
        return task.done.load(std::memory_order_acquire) == task.pieceCount;
    };
    // The last pieces elsewhere are usually microseconds from done: sleeping now would add a
    // wake-up to the step's critical path.
    if (!allDone()) Shared::watch(lock, kWatchPieces, allDone);
    shared.pieceDone.wait(lock, allDone);
    shared.freeTasks.push_back(&task);
}

} // namespace rigid2d
