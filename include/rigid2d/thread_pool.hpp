#pragma once
/// A small pool of threads that runs a world's step on several cores, for programs without a job
/// system of their own (target `rigid2d::threads`). A game that has one plugs it into
/// WorldDef::enqueueTask / finishTask instead; the results are the same bits either way.
///
///     rigid2d::ThreadPool pool(4);
///     rigid2d::WorldDef def;
///     pool.attach(def);              // workerCount = 4 and the pool's callbacks
///     rigid2d::World world(def);     // the pool must outlive the world

#include <cstdint>
#include <memory>

#include "rigid2d/types.hpp"

namespace rigid2d {

class ThreadPool {
public:
    /// `workerCount` workers in all, in [1, kMaxWorkers]: the thread that waits for a task
    /// (World::step's) works on it too, so the pool starts workerCount - 1 threads. Pieces run
    /// with the floating-point environment of the thread that enqueued them. Throws
    /// `Error` naming "ThreadPool::ThreadPool" and "workerCount" outside that range.
    explicit ThreadPool(std::int32_t workerCount);
    /// Joins the threads. No world may be stepping through the pool any more.
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    [[nodiscard]] std::int32_t workerCount() const noexcept;
    /// Sets def.workerCount, def.enqueueTask, def.finishTask and def.userTaskContext to this pool.
    void attach(WorldDef& def) noexcept;

    /// The callbacks attach installs (userTaskContext is the pool).
    static void* enqueueTask(TaskFunction* task, std::int32_t itemCount, std::int32_t minRange,
                             void* taskContext, void* pool);
    static void finishTask(void* handle, void* pool);

private:
    struct Shared;
    std::unique_ptr<Shared> m_shared;
};

} // namespace rigid2d
