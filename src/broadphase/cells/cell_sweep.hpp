#pragma once
// The box tests inside one cell, four at a time: the cell's boxes as columns (lower x, lower y,
// upper x, upper y), each box against the later ones. Whether two boxes of a cell overlap is a coin
// toss that the branch predictor loses, so the tests are compares and a mask, and only the pairs
// that do overlap reach a branch (the caller's ownership rule, the write). A crowded cell, sorted
// by lower x, is swept: a box meets only the boxes that start before it ends.
//
// The columns need kColumnPadding slots past the last box holding an empty interval (lower
// +infinity, upper -infinity: padColumns), which the four-wide loads read and which overlap
// nothing.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace rigid2d::detail {

inline constexpr std::size_t kColumnPadding = 4;
/// Above this many boxes a cell is sorted by lower x and swept (forEachOverlapSorted) rather than
/// tested pair by pair (clustered scenes).
inline constexpr std::size_t kSweepThreshold = 16;

/// A cell's boxes as four columns; box i is (lowX[i], lowY[i]) - (highX[i], highY[i]).
struct ColumnView {
    const float* lowX;
    const float* lowY;
    const float* highX;
    const float* highY;
};

/// Writes the empty padding boxes at [count, count + kColumnPadding).
inline void padColumns(float* lowX, float* lowY, float* highX, float* highY,
                       std::size_t count) noexcept {
    for (std::size_t k = count; k < count + kColumnPadding; ++k) {
        lowX[k] = lowY[k] = std::numeric_limits<float>::infinity();
        highX[k] = highY[k] = -std::numeric_limits<float>::infinity();
    }
}

/// Writes boxOf(k) (an AABB) for k < count into the columns, then the padding.
template <class BoxOf>
void fillColumns(float* lowX, float* lowY, float* highX, float* highY, std::size_t count,
                 BoxOf&& boxOf) {
    for (std::size_t k = 0; k < count; ++k) {
        const auto& box = boxOf(k);
        lowX[k] = box.lower.x;
        lowY[k] = box.lower.y;
        highX[k] = box.upper.x;
        highY[k] = box.upper.y;
    }
    padColumns(lowX, lowY, highX, highY, count);
}

/// The columns of a cell of at most kSweepThreshold boxes, on the stack.
struct SmallCellColumns {
    float lowX[kSweepThreshold + kColumnPadding], lowY[kSweepThreshold + kColumnPadding];
    float highX[kSweepThreshold + kColumnPadding], highY[kSweepThreshold + kColumnPadding];

    /// The boxes boxOf(k), k < count <= kSweepThreshold, and the padding.
    template <class BoxOf>
    void fill(std::size_t count, BoxOf&& boxOf) {
        fillColumns(lowX, lowY, highX, highY, count, boxOf);
    }
    [[nodiscard]] ColumnView view() const noexcept { return {lowX, lowY, highX, highY}; }
};

/// Columns that grow with the largest cell seen (the crowded cells' scratch).
struct CellColumns {
    std::vector<float> lowX, lowY, highX, highY;

    /// The boxes boxOf(k), k < count, and the padding (the columns grow to hold them).
    template <class BoxOf>
    void fill(std::size_t count, BoxOf&& boxOf) {
        for (std::vector<float>* column : {&lowX, &lowY, &highX, &highY})
            if (column->size() < count + kColumnPadding) column->resize(count + kColumnPadding);
        fillColumns(lowX.data(), lowY.data(), highX.data(), highY.data(), count, boxOf);
    }
    [[nodiscard]] ColumnView view() const noexcept {
        return {lowX.data(), lowY.data(), highX.data(), highY.data()};
    }
};

/// Calls hit(i, j) for every i < j < count whose boxes overlap (closed intervals), by i, then j.
template <class Hit>
void forEachOverlap(ColumnView c, std::size_t count, Hit&& hit) {
#if defined(__SSE2__)
    for (std::size_t i = 0; i + 1 < count; ++i) {
        const __m128 pLowX = _mm_set1_ps(c.lowX[i]), pLowY = _mm_set1_ps(c.lowY[i]);
        const __m128 pHighX = _mm_set1_ps(c.highX[i]), pHighY = _mm_set1_ps(c.highY[i]);
        for (std::size_t j = i + 1; j < count; j += 4) {
            const __m128 x = _mm_and_ps(_mm_cmple_ps(pLowX, _mm_loadu_ps(c.highX + j)),
                                        _mm_cmple_ps(_mm_loadu_ps(c.lowX + j), pHighX));
            const __m128 y = _mm_and_ps(_mm_cmple_ps(pLowY, _mm_loadu_ps(c.highY + j)),
                                        _mm_cmple_ps(_mm_loadu_ps(c.lowY + j), pHighY));
            for (auto bits = static_cast<unsigned>(_mm_movemask_ps(_mm_and_ps(x, y))); bits != 0;
                 bits &= bits - 1)
                hit(i, j + static_cast<std::size_t>(std::countr_zero(bits)));
        }
    }
#else
    for (std::size_t i = 0; i + 1 < count; ++i)
        for (std::size_t j = i + 1; j < count; ++j)
            if (c.lowX[i] <= c.highX[j] && c.lowX[j] <= c.highX[i] && c.lowY[i] <= c.highY[j] &&
                c.lowY[j] <= c.highY[i])
                hit(i, j);
#endif
}

/// forEachOverlap for boxes sorted by lower x: box i meets the boxes after it up to the first that
/// starts right of its upper x (a later box cannot end left of where i starts). Returns the pairs
/// whose x intervals overlap, the box tests a sweep does.
template <class Hit>
std::size_t forEachOverlapSorted(ColumnView c, std::size_t count, Hit&& hit) {
    std::size_t tests = 0;
#if defined(__SSE2__)
    // The set bits of a four-lane mask (std::popcount is a library call without -mpopcnt).
    constexpr std::uint8_t kLanesSet[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
    for (std::size_t i = 0; i + 1 < count; ++i) {
        const __m128 pLowY = _mm_set1_ps(c.lowY[i]);
        const __m128 pHighX = _mm_set1_ps(c.highX[i]), pHighY = _mm_set1_ps(c.highY[i]);
        for (std::size_t j = i + 1;; j += 4) {
            // Sorted, so the lanes that start in time come first; the padding never does.
            const auto inX = static_cast<unsigned>(
                _mm_movemask_ps(_mm_cmple_ps(_mm_loadu_ps(c.lowX + j), pHighX)));
            tests += kLanesSet[inX];
            const __m128 y = _mm_and_ps(_mm_cmple_ps(pLowY, _mm_loadu_ps(c.highY + j)),
                                        _mm_cmple_ps(_mm_loadu_ps(c.lowY + j), pHighY));
            for (unsigned bits = inX & static_cast<unsigned>(_mm_movemask_ps(y)); bits != 0;
                 bits &= bits - 1)
                hit(i, j + static_cast<std::size_t>(std::countr_zero(bits)));
            if (inX != 0xFu) break;
        }
    }
#else
    for (std::size_t i = 0; i + 1 < count; ++i) {
        for (std::size_t j = i + 1; j < count && c.lowX[j] <= c.highX[i]; ++j) {
            ++tests;
            if (c.lowY[j] <= c.highY[i] && c.lowY[i] <= c.highY[j]) hit(i, j);
        }
    }
#endif
    return tests;
}

} // namespace rigid2d::detail
