#include "broadphase/cells/cell_size_tracker.hpp"

#include <algorithm>
#include <bit>

namespace rigid2d::detail {

float CellSizeTracker::medianHalfExtent() const noexcept {
    if (m_total == 0) return 0.0f;
    const std::uint32_t half = (m_total + 1) / 2;
    std::uint32_t seen = 0;
    for (std::uint32_t b = 0; b < m_counts.size(); ++b) {
        seen += m_counts[b];
        // The middle of the bucket's value range.
        if (seen >= half) return std::bit_cast<float>((b << kDropBits) | (1u << (kDropBits - 1)));
    }
    return 0.0f;
}

float autoCellSize(float medianHalfExtent, float factor) noexcept {
    constexpr float kMinCell = 1e-3f;
    constexpr float kMaxCell = 1e12f;
    if (!(medianHalfExtent > 0.0f)) return 1.0f;
    return std::clamp(medianHalfExtent * factor, kMinCell, kMaxCell);
}

} // namespace rigid2d::detail
