#pragma once
// How the step spreads a loop over the game's workers (WorldDef::enqueueTask / finishTask), or
// runs it on the calling thread when the world has no scheduler or one worker.
//
// A body passed to parallelFor must give the same result however the items are split and in
// whatever order the pieces run: it writes only to slots of its own items, or to the scratch of
// the worker index it is given, which the caller then merges in an order that does not depend
// on the split (sorted, or by item), or to shared data through atomics whose end state does not
// depend on their order (the islands' union-find, island/sleep_islands.hpp). That is what keeps a
// step's bits independent of the number of workers and of the scheduler.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>
#include <utility>

#include "core/assert.hpp"
#include "rigid2d/types.hpp"

namespace rigid2d::detail {

/// True when parallelFor hands work to the world's scheduler at all.
[[nodiscard]] inline bool runsInParallel(const WorldDef& def) noexcept {
    return def.workerCount > 1 && def.enqueueTask != nullptr && def.finishTask != nullptr;
}

/// A parallelFor (below) begun at construction and finished by finish(): in between, the calling
/// thread may do other work while the scheduler's workers take the pieces. Without workers, or
/// with too few items for a hand-over, the body runs at once, in the constructor. `body` must
/// outlive the task.
template <class Body>
class ParallelFor {
public:
    ParallelFor(const WorldDef& def, std::int32_t count, std::int32_t minRange, Body& body)
        : m_def(def), m_call{&body, def.workerCount} {
        if (count <= 0) return;
        minRange = std::max(minRange, std::int32_t{1});
        if (!runsInParallel(def) || count <= minRange) {
            body(std::int32_t{0}, count, std::int32_t{0});
            return;
        }
        // About four pieces per worker: enough for a scheduler to even out pieces of unequal
        // cost, few enough that handing them over costs little.
        const std::int32_t pieces = 4 * def.workerCount;
        const std::int32_t range = std::max(minRange, (count + pieces - 1) / pieces);
        m_handle = def.enqueueTask(&run, count, range, &m_call, def.userTaskContext);
    }
    ParallelFor(const ParallelFor&) = delete;
    ParallelFor& operator=(const ParallelFor&) = delete;
    ~ParallelFor() { finish(); }

    /// Returns when every piece has run.
    void finish() {
        if (m_handle != nullptr)
            m_def.finishTask(std::exchange(m_handle, nullptr), m_def.userTaskContext);
    }

private:
    struct Call {
        Body* body;
        std::int32_t workerCount;
    };
    static void run(std::int32_t begin, std::int32_t end, std::int32_t worker, void* context) {
        const Call& c = *static_cast<const Call*>(context);
        // Per-worker scratch is indexed by it: a scheduler that breaks the contract must not
        // write out of bounds, in any build.
        R2D_CHECK(worker >= 0 && worker < c.workerCount,
                  "a scheduler passed a worker index outside [0, WorldDef::workerCount)");
        (*c.body)(begin, end, worker);
    }

    const WorldDef& m_def;
    Call m_call;
    void* m_handle = nullptr;
};

/// Calls body(begin, end, workerIndex) over pieces that cover [0, count) exactly once, each piece
/// at least `minRange` items long (but the last), workerIndex in [0, def.workerCount). Returns
/// when every piece has run. `minRange` is what one piece must hold to be worth a hand-over.
template <class Body>
void parallelFor(const WorldDef& def, std::int32_t count, std::int32_t minRange, Body&& body) {
    ParallelFor<std::remove_reference_t<Body>> task(def, count, minRange, body);
    task.finish();
}

/// The first index from `from` on whose flag is not 0, or flags.size(): how a serial pass after a
/// parallel one skips the items that need nothing, eight at a time.
[[nodiscard]] inline std::size_t nextMarked(std::span<const std::uint8_t> flags,
                                            std::size_t from) noexcept {
    std::size_t i = from;
    while (i < flags.size() && (i & 7u) != 0) {
        if (flags[i] != 0) return i;
        ++i;
    }
    for (; i + 8 <= flags.size(); i += 8) {
        std::uint64_t eight;
        std::memcpy(&eight, flags.data() + i, sizeof eight);
        if (eight != 0) break;
    }
    while (i < flags.size() && flags[i] == 0) ++i;
    return i;
}

} // namespace rigid2d::detail
