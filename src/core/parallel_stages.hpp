#pragma once
// A chain of short stages, each over its own items, where stage s + 1 may start only when every
// item of stage s is done: the solver's colours and substeps, a hundred or more per step. A
// parallelFor per stage would hand each one to the scheduler and wait for it; here every worker
// instead joins one task for the whole chain and the stages are passed between them through
// counters:
//
//   participant p:  s = the current stage; while s is not the last:
//                       claim the next chunk of p's own share of s (an atomic add), else of the
//                       next participant's share, and so on round; run it and count it done:
//                       whoever completes the last item makes s + 1 current
//                       if no chunk was left, wait (spin, then yield) until s is no longer current
//
// Each stage's chunks are shared out the same way every time, so a participant solves the same
// constraints and moves the same bodies substep after substep, and their data stays in its
// core's cache instead of moving between cores at every stage; taking from another's share
// evens out the participants that fall behind.
//
// No participant ever waits for an item nobody has claimed, only for chunks that another
// participant is running, so any scheduler works: one that runs the participants one after
// another on one thread has the first do every stage and the others find nothing left. A stage
// body must give the same result however its items are split (parallel_for.hpp), which is what
// keeps the bits independent of the worker count.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <thread>

#include "core/parallel_for.hpp"

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__) || defined(_M_IX86)
#include <emmintrin.h>
#define RIGID2D_SPIN_PAUSE() _mm_pause()
#else
#define RIGID2D_SPIN_PAUSE() ((void)0)
#endif

namespace rigid2d::detail {

/// How long a participant spins on a stage before it yields its core: a few microseconds, the
/// usual rest of a stage when every participant has a core of its own.
inline constexpr int kSpinsBeforeYield = 256;

/// One stage: its item count, and how many items a participant claims at once (a stage whose
/// chunk holds all its items runs on one participant: a small colour, a serial list).
struct StagePlan {
    std::int32_t itemCount = 0;
    std::int32_t chunk = 1;
};

/// The counters of a run, kept between steps so that a warm step does not allocate.
class ParallelStages {
public:
    /// Calls body(stage, begin, end) over every stage of `plans` in order, covering each stage's
    /// items once; stage s + 1 starts after the last item of stage s is done.
    template <class Body>
    void run(const WorldDef& def, std::span<const StagePlan> plans, Body&& body) {
        const auto stageCount = static_cast<std::int32_t>(plans.size());
        if (!runsInParallel(def)) {
            for (std::int32_t s = 0; s < stageCount; ++s)
                if (plans[s].itemCount > 0) body(s, std::int32_t{0}, plans[s].itemCount);
            return;
        }
        reset(plans, def.workerCount);
        parallelFor(def, def.workerCount, 1,
                    [&](std::int32_t participant, std::int32_t, std::int32_t) {
                        participate(plans, participant, body);
                    });
    }

private:
    // A participant's share of one stage: chunks [next, end) not yet claimed. Apart on their own
    // cache lines: claims of one share do not slow the others.
    struct alignas(64) Share {
        std::atomic<std::int32_t> next{0};
        std::int32_t end = 0;
    };
    struct alignas(64) Completed {
        std::atomic<std::int32_t> items{0};
    };

    void reset(std::span<const StagePlan> plans, std::int32_t participants) {
        const std::size_t stageCount = plans.size();
        const auto shareCount = stageCount * static_cast<std::size_t>(participants);
        if (shareCount > m_shareCapacity) {
            m_shareCapacity = std::max(shareCount, 2 * m_shareCapacity);
            m_shares = std::make_unique<Share[]>(m_shareCapacity);
        }
        if (stageCount > m_stageCapacity) {
            m_stageCapacity = std::max(stageCount, 2 * m_stageCapacity);
            m_completed = std::make_unique<Completed[]>(m_stageCapacity);
        }
        if (!m_current) m_current = std::make_unique<Current>();
        m_participants = participants;
        for (std::size_t s = 0; s < stageCount; ++s) {
            const std::int64_t chunks = chunkCount(plans[s]);
            for (std::int32_t p = 0; p < participants; ++p) {
                Share& share = m_shares[s * static_cast<std::size_t>(participants) +
                                        static_cast<std::size_t>(p)];
                share.next.store(static_cast<std::int32_t>(chunks * p / participants),
                                 std::memory_order_relaxed);
                share.end = static_cast<std::int32_t>(chunks * (p + 1) / participants);
            }
            m_completed[s].items.store(0, std::memory_order_relaxed);
        }
        // The enqueueing of the participants' task publishes these stores to them.
        m_current->stage.store(0, std::memory_order_relaxed);
    }

    [[nodiscard]] static std::int64_t chunkCount(const StagePlan& plan) noexcept {
        if (plan.itemCount <= 0) return 0;
        const std::int64_t chunk = std::max(plan.chunk, std::int32_t{1});
        return (plan.itemCount + chunk - 1) / chunk;
    }

    // The next unclaimed chunk of stage s, from `participant`'s share first; -1 if none is left.
    [[nodiscard]] std::int32_t claim(std::size_t s, std::int32_t participant) {
        for (std::int32_t k = 0; k < m_participants; ++k) {
            const std::int32_t p = (participant + k) % m_participants;
            Share& share = m_shares[s * static_cast<std::size_t>(m_participants) +
                                    static_cast<std::size_t>(p)];
            if (share.next.load(std::memory_order_relaxed) >= share.end) continue;
            const std::int32_t chunk = share.next.fetch_add(1, std::memory_order_relaxed);
            if (chunk < share.end) return chunk;
        }
        return -1;
    }

    template <class Body>
    void participate(std::span<const StagePlan> plans, std::int32_t participant, Body& body) {
        const auto stageCount = static_cast<std::int32_t>(plans.size());
        for (;;) {
            const std::int32_t s = m_current->stage.load(std::memory_order_acquire);
            if (s >= stageCount) return;
            const StagePlan plan = plans[s];
            const std::int32_t chunk = std::max(plan.chunk, std::int32_t{1});
            bool last = false;
            while (!last) {
                const std::int32_t claimed = claim(static_cast<std::size_t>(s), participant);
                if (claimed < 0) break;
                const std::int32_t begin = claimed * chunk;
                const std::int32_t end = std::min(begin + chunk, plan.itemCount);
                body(s, begin, end);
                // acq_rel: the participant that completes the stage sees every other's writes and
                // passes them on with the release below.
                const std::int32_t done =
                    m_completed[s].items.fetch_add(end - begin, std::memory_order_acq_rel) +
                    (end - begin);
                last = done == plan.itemCount;
            }
            if (last || plan.itemCount <= 0) {
                // An empty stage has no last item: whoever comes first moves on, once.
                std::int32_t expected = s;
                m_current->stage.compare_exchange_strong(expected, s + 1,
                                                         std::memory_order_acq_rel);
                continue;
            }
            // Someone else is finishing stage s. Spin briefly (the rest of a stage is usually a
            // few microseconds away), then give the core up: on a busy machine the participant
            // being waited for may need it.
            for (int spins = 0; m_current->stage.load(std::memory_order_acquire) == s; ++spins) {
                if (spins < kSpinsBeforeYield)
                    RIGID2D_SPIN_PAUSE();
                else
                    std::this_thread::yield();
            }
        }
    }

    struct alignas(64) Current {
        std::atomic<std::int32_t> stage{0};
    };

    std::unique_ptr<Share[]> m_shares; ///< stage s, participant p at s * participants + p
    std::size_t m_shareCapacity = 0;
    std::unique_ptr<Completed[]> m_completed; ///< items done, per stage
    std::size_t m_stageCapacity = 0;
    std::int32_t m_participants = 1;
    std::unique_ptr<Current> m_current; ///< on the heap: the scratch that holds this can move
};

} // namespace rigid2d::detail
