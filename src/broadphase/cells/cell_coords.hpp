#pragma once
// Cell coordinate math shared by the cell-based broad phases (grid, sorted_grid and the hash
// levels of spatial_hash and hierarchical_hash).
//
// Correctness of every cell structure rests on one property: the float -> cell mapping is
// monotonic (floor of a scaled, shifted value, then a clamp). So if two closed intervals overlap,
// their cell ranges overlap, and the cell holding the lower-left corner of the intersection of two
// boxes is (max of their first columns, max of their first rows). Everything — storage, pair
// dedup, queries — uses the same `CellMapping`, so float rounding at cell borders can never make a
// box miss a cell that another structure expects it in.

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/float_range.hpp"
#include "rigid2d/math.hpp"

namespace rigid2d::detail {

/// Cell coordinates are clamped to +-2^30 so that +-1 never overflows an int32 and two of them
/// pack into one 64-bit key. Clamping keeps the mapping monotonic: far-away boxes only share
/// border cells (slower, never wrong).
inline constexpr std::int32_t kCellCoordLimit = std::int32_t{1} << 30;

/// An inclusive rectangle of cells.
struct CellRange {
    std::int32_t x0 = 0, y0 = 0, x1 = -1, y1 = -1;

    [[nodiscard]] std::int64_t width() const noexcept { return std::int64_t{x1} - x0 + 1; }
    [[nodiscard]] std::int64_t height() const noexcept { return std::int64_t{y1} - y0 + 1; }
    [[nodiscard]] std::int64_t cellCount() const noexcept { return width() * height(); }
    [[nodiscard]] bool contains(std::int32_t x, std::int32_t y) const noexcept {
        return x >= x0 && x <= x1 && y >= y0 && y <= y1;
    }
    friend bool operator==(const CellRange&, const CellRange&) = default;
};

/// Calls f(x, y) for every cell of `range`.
template <class F>
void forEachCell(const CellRange& range, F&& f) {
    for (std::int32_t y = range.y0; y <= range.y1; ++y)
        for (std::int32_t x = range.x0; x <= range.x1; ++x) f(x, y);
}

/// The cell changes of a proxy moving from `from` to `to`: leave(x, y) for each cell it leaves,
/// then enter(x, y) for each cell it enters; cells in both are not touched.
template <class Leave, class Enter>
void forEachCellChange(const CellRange& from, const CellRange& to, Leave&& leave, Enter&& enter) {
    forEachCell(from, [&](std::int32_t x, std::int32_t y) {
        if (!to.contains(x, y)) leave(x, y);
    });
    forEachCell(to, [&](std::int32_t x, std::int32_t y) {
        if (!from.contains(x, y)) enter(x, y);
    });
}

/// Two cell coordinates in one 64-bit key (x in the high half).
[[nodiscard]] inline std::uint64_t packCell(std::int32_t x, std::int32_t y) noexcept {
    return (std::uint64_t{static_cast<std::uint32_t>(x)} << 32) | static_cast<std::uint32_t>(y);
}
[[nodiscard]] inline std::int32_t cellXOf(std::uint64_t key) noexcept {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(key >> 32));
}
[[nodiscard]] inline std::int32_t cellYOf(std::uint64_t key) noexcept {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(key));
}

/// Maps world coordinates to cells of edge `size()` anchored at `origin`, clamped to
/// [lo, hi] on each axis (the grid's columns/rows, or +-kCellCoordLimit for the hashes).
class CellMapping {
public:
    CellMapping() = default;
    CellMapping(Vec2 origin, float cellSize, CellRange clampRange) noexcept
        : m_origin(origin), m_size(cellSize), m_inverse(1.0f / cellSize), m_clamp(clampRange),
          m_reach(reachOf(cellSize, clampRange)) {}
    /// Unbounded (hash) mapping anchored at the world origin.
    explicit CellMapping(float cellSize) noexcept
        : CellMapping({0.0f, 0.0f}, cellSize,
                      {-kCellCoordLimit, -kCellCoordLimit, kCellCoordLimit, kCellCoordLimit}) {}

    [[nodiscard]] float size() const noexcept { return m_size; }
    /// 1 / size(), the factor every mapping multiplies by.
    [[nodiscard]] float inverse() const noexcept { return m_inverse; }
    [[nodiscard]] Vec2 origin() const noexcept { return m_origin; }
    [[nodiscard]] const CellRange& clampRange() const noexcept { return m_clamp; }

    [[nodiscard]] std::int32_t column(float x) const noexcept {
        return cellAt(x - m_origin.x, m_clamp.x0, m_clamp.x1);
    }
    [[nodiscard]] std::int32_t row(float y) const noexcept {
        return cellAt(y - m_origin.y, m_clamp.y0, m_clamp.y1);
    }
    /// column() for axis 0, row() for axis 1.
    [[nodiscard]] std::int32_t cellOn(int axis, float v) const noexcept {
        return axis == 0 ? column(v) : row(v);
    }
    [[nodiscard]] CellRange rangeOf(const AABB& box) const noexcept {
        return {column(box.lower.x), row(box.lower.y), column(box.upper.x), row(box.upper.y)};
    }
    /// rangeOf for a box inside the mapped area (lower >= origin on both axes), where the scaled
    /// values are >= 0: truncation is the floor there and only the upper clamp can apply, so
    /// the result equals rangeOf's with fewer instructions (the grid files every box with it).
    /// The clamp comes before the conversion, so no finite or infinite value can overflow it.
    [[nodiscard]] CellRange rangeOfInside(const AABB& box) const noexcept {
        const auto cell = [](float scaled, std::int32_t hi) {
            return static_cast<std::int32_t>(std::min(scaled, static_cast<float>(hi)));
        };
        return {cell((box.lower.x - m_origin.x) * m_inverse, m_clamp.x1),
                cell((box.lower.y - m_origin.y) * m_inverse, m_clamp.y1),
                cell((box.upper.x - m_origin.x) * m_inverse, m_clamp.x1),
                cell((box.upper.y - m_origin.y) * m_inverse, m_clamp.y1)};
    }
    /// The world box of cell (x, y) (for drawing).
    [[nodiscard]] AABB cellBox(std::int32_t x, std::int32_t y) const noexcept {
        const Vec2 lower{m_origin.x + static_cast<float>(x) * m_size,
                         m_origin.y + static_cast<float>(y) * m_size};
        return {lower, lower + Vec2{m_size, m_size}};
    }
    /// The pair-dedup rule: two overlapping boxes are reported only from the cell that holds
    /// the lower-left corner of their intersection.
    [[nodiscard]] bool ownsPair(std::int32_t x, std::int32_t y, const AABB& a,
                                const AABB& b) const noexcept {
        return column(std::max(a.lower.x, b.lower.x)) == x &&
               row(std::max(a.lower.y, b.lower.y)) == y;
    }

private:
    // Past the reach the scaled offset is beyond the clamp range, so the cell is the clamp. The
    // offset is not scaled there: a box near the float's reach over small cells would overflow.
    // Within it the result is toCell's, bit for bit.
    [[nodiscard]] std::int32_t cellAt(float offset, std::int32_t lo,
                                      std::int32_t hi) const noexcept {
        if (offset > m_reach) return hi;
        if (!(offset >= -m_reach)) return lo; // NaN too, as toCell
        return toCell(offset * m_inverse, lo, hi);
    }
    // Two cells beyond the farthest clamp, in world units (at most the float's largest value).
    static float reachOf(float cellSize, const CellRange& clamp) noexcept {
        const auto far = [](std::int32_t a, std::int32_t b) {
            return std::max(std::abs(static_cast<double>(a)), std::abs(static_cast<double>(b)));
        };
        const double cells = std::max(far(clamp.x0, clamp.x1), far(clamp.y0, clamp.y1));
        return clampToFloat((cells + 2.0) * double{cellSize});
    }

    // clamp(floor(scaled), lo, hi), without a floorf call (not inlined on baseline x86-64):
    // clamp first so the conversion cannot overflow, truncate, then step down for negatives.
    static std::int32_t toCell(float scaled, std::int32_t lo, std::int32_t hi) noexcept {
        if (!(scaled >= static_cast<float>(lo))) return lo;
        if (scaled >= static_cast<float>(hi)) return hi;
        const auto truncated = static_cast<std::int32_t>(scaled);
        return truncated - (static_cast<float>(truncated) > scaled ? 1 : 0);
    }

    Vec2 m_origin{0.0f, 0.0f};
    float m_size = 1.0f;
    float m_inverse = 1.0f;
    CellRange m_clamp{-kCellCoordLimit, -kCellCoordLimit, kCellCoordLimit, kCellCoordLimit};
    float m_reach = reachOf(1.0f, m_clamp);
};

} // namespace rigid2d::detail
