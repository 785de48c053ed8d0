// A cell's box tests four at a time: every overlapping pair once, in order, against a plain double
// loop; the sorted sweep also counts exactly the pairs whose x intervals overlap; the register
// kernel's pair matrix also leaves out the pairs whose ownership groups share a bit.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "broadphase/cells/cell_sweep.hpp"
#include "broadphase/cells/cell_sweep_avx2.hpp"
#include "core/cpu_features.hpp"
#include "rigid2d/math.hpp"

using namespace rigid2d;

namespace {

struct Box {
    float lowX, lowY, highX, highY;
};

using Pairs = std::vector<std::pair<std::size_t, std::size_t>>;

// Boxes on a coarse lattice of coordinates, so that many only touch (closed intervals overlap)
// and many share a lower x.
std::vector<Box> latticeBoxes(std::mt19937& random, std::size_t count) {
    std::uniform_int_distribution<int> corner(0, 12), size(0, 4);
    std::vector<Box> boxes(count);
    for (Box& b : boxes) {
        b.lowX = 0.5f * static_cast<float>(corner(random));
        b.lowY = 0.5f * static_cast<float>(corner(random));
        b.highX = b.lowX + 0.5f * static_cast<float>(size(random));
        b.highY = b.lowY + 0.5f * static_cast<float>(size(random));
    }
    return boxes;
}

Pairs plainPairs(const std::vector<Box>& boxes, std::size_t& xOverlaps) {
    Pairs pairs;
    xOverlaps = 0;
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        for (std::size_t j = i + 1; j < boxes.size(); ++j) {
            const Box &p = boxes[i], &q = boxes[j];
            const bool x = p.lowX <= q.highX && q.lowX <= p.highX;
            xOverlaps += x ? 1 : 0;
            if (x && p.lowY <= q.highY && q.lowY <= p.highY) pairs.emplace_back(i, j);
        }
    }
    return pairs;
}

detail::CellColumns columnsOf(const std::vector<Box>& boxes) {
    detail::CellColumns columns;
    columns.fill(boxes.size(), [&](std::size_t k) {
        const Box& b = boxes[k];
        return AABB{{b.lowX, b.lowY}, {b.highX, b.highY}};
    });
    return columns;
}

} // namespace

TEST_CASE("cell sweep: every overlapping pair once, by i then j, for every count") {
    std::mt19937 random(7);
    for (std::size_t count = 0; count <= 40; ++count) {
        for (int round = 0; round < 20; ++round) {
            CAPTURE(count);
            const std::vector<Box> boxes = latticeBoxes(random, count);
            std::size_t xOverlaps = 0;
            const Pairs expected = plainPairs(boxes, xOverlaps);
            const detail::CellColumns columns = columnsOf(boxes);
            Pairs found;
            detail::forEachOverlap(columns.view(), count,
                                   [&](std::size_t i, std::size_t j) { found.emplace_back(i, j); });
            CHECK(found == expected);
        }
    }
}

TEST_CASE("cell sweep: boxes sorted by lower x are swept to the same pairs and x tests") {
    std::mt19937 random(11);
    for (std::size_t count = 0; count <= 60; ++count) {
        for (int round = 0; round < 20; ++round) {
            CAPTURE(count);
            std::vector<Box> boxes = latticeBoxes(random, count);
            std::stable_sort(boxes.begin(), boxes.end(),
                             [](const Box& a, const Box& b) { return a.lowX < b.lowX; });
            std::size_t xOverlaps = 0;
            const Pairs expected = plainPairs(boxes, xOverlaps);
            const detail::CellColumns columns = columnsOf(boxes);
            Pairs found;
            const std::size_t tests = detail::forEachOverlapSorted(
                columns.view(), count,
                [&](std::size_t i, std::size_t j) { found.emplace_back(i, j); });
            CHECK(found == expected);
            CHECK(tests == xOverlaps);
        }
    }
}

// Boxes are finite (the broad phases refuse others): the largest one still misses the padding.
TEST_CASE("cell sweep: the padding overlaps nothing, not even the largest finite box") {
    const float big = std::numeric_limits<float>::max();
    const std::vector<Box> boxes{{-big, -big, big, big}, {0.0f, 0.0f, 1.0f, 1.0f}};
    const detail::CellColumns columns = columnsOf(boxes);
    Pairs found;
    detail::forEachOverlap(columns.view(), boxes.size(),
                           [&](std::size_t i, std::size_t j) { found.emplace_back(i, j); });
    CHECK(found == Pairs{{0, 1}});
    found.clear();
    CHECK(detail::forEachOverlapSorted(
              columns.view(), boxes.size(),
              [&](std::size_t i, std::size_t j) { found.emplace_back(i, j); }) == 1);
    CHECK(found == Pairs{{0, 1}});
}

namespace {

// A box with an id after it, as the grid's entries are laid out: the kernel reads at a stride.
struct Entry {
    Box box;
    std::uint32_t id;
};

template <int kGroups>
using MatrixKernel = detail::PairMatrix<kGroups> (*)(const unsigned char*, std::size_t,
                                                     const std::uint8_t*, std::size_t);

// The kernels are inlined by force, so they are called here through functions that may be
// called through a pointer.
template <int kGroups>
detail::PairMatrix<kGroups> narrowMatrix(const unsigned char* first, std::size_t stride,
                                         const std::uint8_t* group, std::size_t count) {
    return detail::overlapMatrix<kGroups>(first, stride, group, count);
}

#if RIGID2D_CELL_AVX2
// The eight-lane kernel may only be inlined into a function compiled for AVX2.
template <int kGroups>
RIGID2D_TARGET_AVX2 detail::PairMatrix<kGroups>
wideMatrix(const unsigned char* first, std::size_t stride, const std::uint8_t* group,
           std::size_t count) {
    return detail::overlapMatrixAvx2<kGroups>(first, stride, group, count);
}
#endif

template <int kGroups>
void checkPairMatrix(std::mt19937& random, MatrixKernel<kGroups> kernel) {
    constexpr std::size_t kBoxes = 4 * kGroups;
    std::uniform_int_distribution<int> groupBits(0, 3);
    for (std::size_t count = 0; count <= kBoxes; ++count) {
        for (int round = 0; round < 200; ++round) {
            CAPTURE(count);
            const std::vector<Box> boxes = latticeBoxes(random, count);
            // Past the count: boxes that overlap everything, in groups that admit every pair;
            // the kernel reads them and must drop them. (Finite, as the grid's are: the entries
            // of the next cells, or its zeroed slack.)
            std::vector<Entry> entries(kBoxes);
            std::vector<std::uint8_t> groups(kBoxes, 0);
            for (std::size_t k = 0; k < kBoxes; ++k) {
                entries[k].box = k < count ? boxes[k] : Box{-1e30f, -1e30f, 1e30f, 1e30f};
                if (k < count) groups[k] = static_cast<std::uint8_t>(groupBits(random));
            }
            std::size_t xOverlaps = 0;
            Pairs expected;
            for (const auto& [i, j] : plainPairs(boxes, xOverlaps))
                if ((groups[i] & groups[j]) == 0) expected.emplace_back(i, j);
            Pairs found;
            kernel(reinterpret_cast<const unsigned char*>(&entries[0].box), sizeof(Entry),
                   groups.data(), count)
                .forEachPair([&](int i, int j) {
                    found.emplace_back(static_cast<std::size_t>(i), static_cast<std::size_t>(j));
                });
            CHECK(found == expected);
        }
    }
}

} // namespace

TEST_CASE("cell sweep: the pair matrix of up to twelve boxes keeps the pairs no group refuses") {
    std::mt19937 random(13);
    checkPairMatrix<1>(random, &narrowMatrix<1>);
    checkPairMatrix<2>(random, &narrowMatrix<2>);
    checkPairMatrix<3>(random, &narrowMatrix<3>);
}

TEST_CASE("cell sweep: the eight-lane pair matrix keeps the same pairs as the four-lane one") {
#if RIGID2D_CELL_AVX2
    if (!detail::cpuHasAvx2()) {
        MESSAGE("this CPU has no AVX2: the eight-lane kernel is not run here");
        return;
    }
    std::mt19937 random(17);
    checkPairMatrix<2>(random, &wideMatrix<2>);
    checkPairMatrix<3>(random, &wideMatrix<3>);
#else
    MESSAGE("not an x86-64 build: no eight-lane kernel");
#endif
}
