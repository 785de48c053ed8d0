#pragma once
/// Keyframes of a running world for rewinding: a snapshot every few steps, within a memory budget.
/// Any step in between is reached by restoring the keyframe before it and stepping forward, which
/// lands on the same bits because the step is deterministic.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "rigid2d/world.hpp"

namespace rigid2d::demos {

class SnapshotHistory {
public:
    /// Keeps a snapshot every `interval` steps; the oldest go first when the snapshots together
    /// pass `byteBudget`.
    explicit SnapshotHistory(int interval = 10, std::size_t byteBudget = std::size_t{512} << 20);

    void clear();
    /// Called with the world after `step` steps; keeps it when `step` is a keyframe step.
    void record(int step, const World& world);
    /// Drops the keyframes after `step` (the world took another path from there).
    void forgetAfter(int step);
    /// Restores the newest keyframe at or before `step` into `world` and returns its step, or -1
    /// when there is none.
    int restoreAtOrBefore(int step, World& world) const;
    /// The first step a keyframe covers, or -1 when there is none.
    [[nodiscard]] int earliest() const noexcept;
    [[nodiscard]] std::size_t bytes() const noexcept { return m_bytes; }

private:
    struct Keyframe {
        int step = 0;
        std::vector<std::uint8_t> bytes;
    };
    int m_interval;
    std::size_t m_budget;
    std::size_t m_bytes = 0;
    std::deque<Keyframe> m_frames;
    std::vector<std::vector<std::uint8_t>> m_spare; ///< buffers of dropped keyframes, reused
};

} // namespace rigid2d::demos
