#include "history.hpp"

#include <algorithm>
#include <utility>

namespace rigid2d::demos {

SnapshotHistory::SnapshotHistory(int interval, std::size_t byteBudget)
    : m_interval(std::max(interval, 1)), m_budget(byteBudget) {}

void SnapshotHistory::clear() {
    for (Keyframe& frame : m_frames) m_spare.push_back(std::move(frame.bytes));
    m_frames.clear();
    m_bytes = 0;
}

void SnapshotHistory::record(int step, const World& world) {
    if (step % m_interval != 0) return;
    forgetAfter(step - 1);
    Keyframe frame;
    frame.step = step;
    if (!m_spare.empty()) {
        frame.bytes = std::move(m_spare.back());
        m_spare.pop_back();
    }
    world.snapshot(frame.bytes);
    m_bytes += frame.bytes.size();
    m_frames.push_back(std::move(frame));
    // Always keep the newest, however large.
    while (m_bytes > m_budget && m_frames.size() > 1) {
        m_bytes -= m_frames.front().bytes.size();
        m_spare.push_back(std::move(m_frames.front().bytes));
        m_frames.pop_front();
    }
}

void SnapshotHistory::forgetAfter(int step) {
    while (!m_frames.empty() && m_frames.back().step > step) {
        m_bytes -= m_frames.back().bytes.size();
        m_spare.push_back(std::move(m_frames.back().bytes));
        m_frames.pop_back();
    }
}

int SnapshotHistory::restoreAtOrBefore(int step, World& world) const {
    for (auto it = m_frames.rbegin(); it != m_frames.rend(); ++it) {
        if (it->step > step) continue;
        world.restore(it->bytes);
        return it->step;
    }
    return -1;
}

int SnapshotHistory::earliest() const noexcept {
    return m_frames.empty() ? -1 : m_frames.front().step;
}

} // namespace rigid2d::demos
