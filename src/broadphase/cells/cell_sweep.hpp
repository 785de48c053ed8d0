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
//
// The grid's cells of up to kRegisterCell boxes (nearly all in a world of scattered bodies) take
// overlapMatrix instead: the boxes straight from their entries into registers, every pair tested
// without a branch, the pairs handed back as a bit matrix.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "core/always_inline.hpp"

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

/// Cells of at most this many boxes are tested from registers (overlapMatrix).
inline constexpr std::size_t kRegisterCell = 12;

/// The overlapping pairs of up to 4 * kGroups boxes as a bit matrix: row i, bit j set when i < j,
/// both are below the count, the boxes overlap and their ownership groups share no bit.
template <int kGroups>
struct PairMatrix {
    static_assert(kGroups >= 1 && kGroups <= 3);
    static constexpr int kBoxes = 4 * kGroups;
    static constexpr int kStride = kBoxes <= 8 ? 8 : 16; ///< bits a row takes
    static constexpr int kRowsPerWord = 64 / kStride;
    static constexpr int kWords = (kBoxes - 1 + kRowsPerWord - 1) / kRowsPerWord;
    std::uint64_t words[kWords] = {};

    void setRow(int i, unsigned bits) noexcept {
        words[i / kRowsPerWord] |= std::uint64_t{bits} << (kStride * (i % kRowsPerWord));
    }
    /// Calls pair(i, j) for every bit set, by row, then column.
    template <class Pair>
    RIGID2D_ALWAYS_INLINE void forEachPair(Pair&& pair) const {
        for (int w = 0; w < kWords; ++w) {
            for (std::uint64_t m = words[w]; m != 0; m &= m - 1) {
                const int bit = std::countr_zero(m);
                pair(w * kRowsPerWord + bit / kStride, bit % kStride);
            }
        }
    }
};

/// The pair matrix of count <= 4 * kGroups boxes, box k being the four floats (lower x, lower y,
/// upper x, upper y) at `first + k * stride` bytes and group[k] its ownership bits (a pair whose
/// groups share a bit is another cell's). Reads 4 * kGroups boxes and groups whatever count is:
/// the caller's memory holds that many; the extra lanes are masked off.
///
/// Why: a grid cell holds a handful of boxes, a different handful in every cell, and loops
/// bounded by that count, with a branch per row and per overlap, cost more in mispredictions
/// than the tests themselves. Here every row is tested, unrolled and branch-free, and the caller
/// walks the set bits in a loop a word. The boxes go straight into registers (transposed):
/// columns written to the stack and read back four wide stalled each load on store forwarding.
template <int kGroups>
RIGID2D_ALWAYS_INLINE PairMatrix<kGroups>
overlapMatrix(const unsigned char* first, std::size_t stride, const std::uint8_t* group,
              std::size_t count) {
    PairMatrix<kGroups> matrix;
    constexpr int kBoxes = PairMatrix<kGroups>::kBoxes;
    const unsigned valid = (1u << count) - 1u;
#if defined(__SSE2__)
    const auto box = [&](int k) {
        return _mm_loadu_ps(reinterpret_cast<const float*>(first + k * stride));
    };
    const auto groupLanes = [&](int k) { // group[k .. k + 4) as four 32-bit lanes
        std::int32_t bytes;
        std::memcpy(&bytes, group + k, sizeof bytes);
        const __m128i zero = _mm_setzero_si128();
        return _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(bytes), zero), zero);
    };
    __m128 lowX[kGroups], lowY[kGroups], highX[kGroups], highY[kGroups];
    __m128i groups[kGroups];
    for (int g = 0; g < kGroups; ++g) {
        lowX[g] = box(4 * g);
        lowY[g] = box(4 * g + 1);
        highX[g] = box(4 * g + 2);
        highY[g] = box(4 * g + 3);
        _MM_TRANSPOSE4_PS(lowX[g], lowY[g], highX[g], highY[g]);
        groups[g] = groupLanes(4 * g);
    }
    // Unrolled whole: the lane shuffles and group ranges become constants, and no loop branch.
#pragma GCC unroll 16
    for (int i = 0; i + 1 < kBoxes; ++i) {
        const __m128 b = box(i);
        const __m128 bLowX = _mm_shuffle_ps(b, b, 0x00), bLowY = _mm_shuffle_ps(b, b, 0x55);
        const __m128 bHighX = _mm_shuffle_ps(b, b, 0xAA), bHighY = _mm_shuffle_ps(b, b, 0xFF);
        const __m128i bGroup = _mm_set1_epi32(group[i]);
        unsigned row = 0;
        // Groups wholly left of the diagonal hold no bit of this row.
#pragma GCC unroll 4
        for (int g = i / 4; g < kGroups; ++g) {
            const __m128 x =
                _mm_and_ps(_mm_cmple_ps(bLowX, highX[g]), _mm_cmple_ps(lowX[g], bHighX));
            const __m128 y =
                _mm_and_ps(_mm_cmple_ps(bLowY, highY[g]), _mm_cmple_ps(lowY[g], bHighY));
            const __m128 owned = _mm_castsi128_ps(
                _mm_cmpeq_epi32(_mm_and_si128(bGroup, groups[g]), _mm_setzero_si128()));
            row |= static_cast<unsigned>(_mm_movemask_ps(_mm_and_ps(_mm_and_ps(x, y), owned)))
                   << (4 * g);
        }
        matrix.setRow(i, row & valid & ~((2u << i) - 1u));
    }
#else
    for (int i = 0; i + 1 < kBoxes; ++i) {
        const float* p = reinterpret_cast<const float*>(first + i * stride);
        unsigned row = 0;
        for (int j = i + 1; j < kBoxes; ++j) {
            const float* q = reinterpret_cast<const float*>(first + j * stride);
            const bool hit = p[0] <= q[2] && q[0] <= p[2] && p[1] <= q[3] && q[1] <= p[3] &&
                             (group[i] & group[j]) == 0;
            row |= unsigned{hit} << j;
        }
        matrix.setRow(i, row & valid);
    }
#endif
    return matrix;
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
