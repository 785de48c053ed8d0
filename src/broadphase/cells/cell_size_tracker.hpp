#pragma once
// Automatic cell size of the cell-based broad phases: a histogram of the proxies' larger half
// extents (1/8-octave buckets, read straight from the float's exponent and top mantissa bits)
// gives a running median in O(buckets) without storing or sorting sizes. The owner derives its
// cell size from the median and rebuilds when the median has moved by more than 2x since.

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>

#include "rigid2d/math.hpp"

namespace rigid2d::detail {

/// Half the larger side of `box`: the size a cell must fit. Taken in double, whose difference
/// of two floats is exact and whose half always fits a float again (no overflow, even for a box
/// across the float range).
[[nodiscard]] inline float largerHalfExtent(const AABB& box) noexcept {
    const double width = double{box.upper.x} - double{box.lower.x};
    const double height = double{box.upper.y} - double{box.lower.y};
    return static_cast<float>(0.5 * std::max(width, height));
}

class CellSizeTracker {
public:
    void add(const AABB& box) noexcept { ++m_counts[bucketOf(box)], ++m_total; }
    /// add() in two halves, for a loop over many boxes: the total is one store at the end rather
    /// than a read-modify-write per box.
    void addUncounted(const AABB& box) noexcept { ++m_counts[bucketOf(box)]; }
    void addToTotal(std::uint32_t boxes) noexcept { m_total += boxes; }
    void remove(const AABB& box) noexcept { --m_counts[bucketOf(box)], --m_total; }
    void change(const AABB& from, const AABB& to) noexcept {
        const std::uint32_t a = bucketOf(from);
        const std::uint32_t b = bucketOf(to);
        if (a != b) --m_counts[a], ++m_counts[b];
    }
    /// The median of the larger half extents, to 1/8 octave (0 when empty).
    [[nodiscard]] float medianHalfExtent() const noexcept;
    /// True when the median has left [reference / 2, reference * 2].
    [[nodiscard]] bool drifted(float reference) const noexcept {
        const float median = medianHalfExtent();
        return m_total != 0 && (median > 2.0f * reference || 2.0f * median < reference);
    }
    [[nodiscard]] std::uint32_t total() const noexcept { return m_total; }
    void clear() noexcept {
        m_counts.fill(0);
        m_total = 0;
    }

private:
    static constexpr int kDropBits = 20; // keep sign, exponent and 3 mantissa bits
    // Non-negative floats order like their bit patterns, so the bucket is monotonic in size.
    static std::uint32_t bucketOf(const AABB& box) noexcept {
        return std::bit_cast<std::uint32_t>(largerHalfExtent(box)) >> kDropBits;
    }

    std::array<std::uint32_t, (1u << (32 - kDropBits - 1))> m_counts{};
    std::uint32_t m_total = 0;
};

/// The automatic cell edge for a median half extent: `factor` times it, kept within sane limits
/// (a point cloud of zero-size boxes gets 1 m cells).
[[nodiscard]] float autoCellSize(float medianHalfExtent, float factor) noexcept;

} // namespace rigid2d::detail
