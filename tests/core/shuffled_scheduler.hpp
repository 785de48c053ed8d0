#pragma once
// A scheduler for tests (WorldDef::enqueueTask / finishTask) that runs on the calling thread but
// as unlike the default pool as it can: pieces of random length (at least the minimum range),
// run in a random order, as random worker indices; every other task runs at once and returns no
// handle, the others wait for finishTask. A step that depends on the split or the order of its
// pieces gives other bits with it.

#include <algorithm>
#include <cstdint>
#include <list>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "rigid2d/types.hpp"

namespace rigid2d::testing {

class ShuffledScheduler {
public:
    ShuffledScheduler(std::int32_t workerCount, std::uint32_t seed)
        : m_workerCount(workerCount), m_random(seed) {}

    void attach(WorldDef& def) {
        def.workerCount = m_workerCount;
        def.enqueueTask = &enqueue;
        def.finishTask = &finish;
        def.userTaskContext = this;
    }
    [[nodiscard]] int tasks() const noexcept { return m_tasks; }
    [[nodiscard]] int unfinished() const noexcept { return static_cast<int>(m_pending.size()); }

private:
    struct Pending {
        TaskFunction* task;
        void* context;
        std::vector<std::pair<std::int32_t, std::int32_t>> pieces;
    };

    static void* enqueue(TaskFunction* task, std::int32_t itemCount, std::int32_t minRange,
                         void* context, void* self) {
        auto& s = *static_cast<ShuffledScheduler*>(self);
        Pending pending{task, context, {}};
        const std::int32_t range = std::max(minRange, std::int32_t{1});
        for (std::int32_t begin = 0; begin < itemCount;) {
            const std::int32_t length =
                range + static_cast<std::int32_t>(s.m_random() % 3u) * range;
            const std::int32_t end = std::min(itemCount, begin + length);
            pending.pieces.emplace_back(begin, end);
            begin = end;
        }
        std::shuffle(pending.pieces.begin(), pending.pieces.end(), s.m_random);
        if (++s.m_tasks % 2 == 1) {
            s.run(pending);
            return nullptr;
        }
        s.m_pending.push_back(std::move(pending));
        return &s.m_pending.back();
    }

    static void finish(void* handle, void* self) {
        auto& s = *static_cast<ShuffledScheduler*>(self);
        for (auto it = s.m_pending.begin(); it != s.m_pending.end(); ++it) {
            if (&*it != handle) continue;
            s.run(*it);
            s.m_pending.erase(it);
            return;
        }
        throw std::logic_error("finishTask: a handle this scheduler did not hand out");
    }

    void run(const Pending& pending) {
        for (const auto& [begin, end] : pending.pieces)
            pending.task(begin, end,
                         static_cast<std::int32_t>(m_random() % std::uint32_t(m_workerCount)),
                         pending.context);
    }

    std::int32_t m_workerCount;
    std::mt19937 m_random;
    int m_tasks = 0;
    std::list<Pending> m_pending; ///< handles stay valid while others come and go
};

} // namespace rigid2d::testing
