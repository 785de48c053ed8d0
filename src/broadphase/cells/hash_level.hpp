#pragma once
// One level of a cell hash: square cells of one edge anchored at the origin, unbounded, of which
// only the occupied ones exist (an open-addressing table of cell lists, CellTable). A proxy is
// listed in every cell its box overlaps; a move touches only the cells it leaves or enters.
//
// The level keeps no boxes and no placement: the hash that owns it passes each proxy's cell
// range and the box array. Pairs and queries report each pair or proxy once over all of the
// level's cells, by the ownership rule of CellMapping::ownsPair; a ray lists the proxies of every
// cell it may touch, repeats included (visitRayInIdOrder drops them).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "broadphase/cells/cell_coords.hpp"
#include "broadphase/cells/cell_lists.hpp"
#include "broadphase/cells/cell_pairs.hpp"
#include "broadphase/cells/cell_ray.hpp"
#include "broadphase/cells/cell_table.hpp"
#include "broadphase/pair_sort.hpp"
#include "core/assert.hpp"
#include "rigid2d/broad_phase.hpp"
#include "rigid2d/debug_draw.hpp"

namespace rigid2d::detail {

class HashLevel {
public:
    explicit HashLevel(float cellSize) noexcept : m_mapping(cellSize) {}

    [[nodiscard]] const CellMapping& mapping() const noexcept { return m_mapping; }
    [[nodiscard]] CellRange rangeOf(const AABB& box) const noexcept {
        return m_mapping.rangeOf(box);
    }
    /// Proxies listed on the level.
    [[nodiscard]] std::size_t proxies() const noexcept { return m_proxies; }
    /// Occupied cells.
    [[nodiscard]] std::size_t occupied() const noexcept { return m_table.size(); }
    [[nodiscard]] std::size_t memoryBytes() const noexcept {
        return m_table.memoryBytes() + m_pool.memoryBytes();
    }

    /// Lists proxy `id` in every cell of `range`.
    void attach(std::uint32_t id, const CellRange& range) {
        ++m_proxies;
        forEachCell(range, [&](std::int32_t x, std::int32_t y) { add(x, y, id); });
    }
    /// Takes proxy `id` out of the cells of `range` (where attach or move listed it).
    void detach(std::uint32_t id, const CellRange& range) {
        --m_proxies;
        forEachCell(range, [&](std::int32_t x, std::int32_t y) { remove(x, y, id); });
    }
    /// Moves proxy `id` from the cells of `from` to those of `to`.
    void move(std::uint32_t id, const CellRange& from, const CellRange& to) {
        forEachCellChange(
            from, to, [&](std::int32_t x, std::int32_t y) { remove(x, y, id); },
            [&](std::int32_t x, std::int32_t y) { add(x, y, id); });
    }

    /// Calls f(x, y, bucket) for each occupied cell of `range`, walking the range or the
    /// occupied cells, whichever is shorter.
    template <class F>
    void forEachOccupiedIn(const CellRange& range, F&& f) const {
        if (range.cellCount() <= static_cast<std::int64_t>(m_table.size())) {
            // Plain loops rather than forEachCell: the compiler inlines these into the callers.
            for (std::int32_t y = range.y0; y <= range.y1; ++y) {
                for (std::int32_t x = range.x0; x <= range.x1; ++x) {
                    if (const CellBucket* bucket = m_table.find(packCell(x, y))) f(x, y, *bucket);
                }
            }
        } else {
            m_table.forEachCell([&](std::uint64_t key, const CellBucket& bucket) {
                const std::int32_t x = cellXOf(key);
                const std::int32_t y = cellYOf(key);
                if (range.contains(x, y)) f(x, y, bucket);
            });
        }
    }

    /// Appends every pair of the level's proxies whose boxes overlap, each once (unsorted), of
    /// the cells in slice `slice` of `slices` of the table (CellTable::forEachCellOfSlice);
    /// `entries` is reused storage. Returns the box tests done.
    std::size_t collectPairs(const std::vector<AABB>& boxes, std::vector<CellEntry>& entries,
                             std::vector<ProxyPair>& out, std::size_t slice = 0,
                             std::size_t slices = 1) const;

    /// Appends the pairs between proxy `id` (box `box`) and the level's proxies its box
    /// overlaps, each once; `id` itself is skipped. Returns the box tests done.
    std::size_t pairsWith(std::uint32_t id, const AABB& box, const std::vector<AABB>& boxes,
                          std::vector<ProxyPair>& out) const {
        std::size_t tests = 0;
        forEachOccupiedIn(m_mapping.rangeOf(box),
                          [&](std::int32_t x, std::int32_t y, const CellBucket& bucket) {
                              tests += pairsInBucket(bucket, x, y, id, box, boxes, out);
                          });
        return tests;
    }

    /// Appends the ids of the level's proxies whose box overlaps `region` (whose cell range on
    /// this level is `range`), each once.
    void collectOverlapping(const CellRange& range, const AABB& region,
                            const std::vector<AABB>& boxes, std::vector<std::uint32_t>& ids) const {
        forEachOccupiedIn(range, [&](std::int32_t x, std::int32_t y, const CellBucket& bucket) {
            m_pool.forEach(bucket, [&](std::uint32_t id) {
                const AABB& box = boxes[id];
                if (overlaps(box, region) && m_mapping.ownsPair(x, y, box, region))
                    ids.push_back(id);
            });
        });
    }

    /// Appends the ids listed in the cells `ray` may touch (with repeats).
    void collectAlongRay(const RaySpan& ray, std::vector<std::uint32_t>& ids) const {
        forEachRayCell(m_mapping, ray, [&](std::int32_t x, std::int32_t y) {
            if (const CellBucket* bucket = m_table.find(packCell(x, y)))
                m_pool.forEach(*bucket, [&](std::uint32_t id) { ids.push_back(id); });
        });
    }

    /// Checks the table and its lists, that no cell lists a proxy twice and that each listing
    /// is one `covers(id, x, y)` accepts. Returns the number of listings.
    template <class Covers>
    std::int64_t validate(Covers&& covers) const;

    /// Draws the occupied cells that overlap `region` (every one when `region` is null).
    void draw(DebugDraw& draw, const AABB* region, Color color) const;

private:
    void add(std::int32_t x, std::int32_t y, std::uint32_t id) {
        m_table.add(packCell(x, y), id, m_pool);
    }
    void remove(std::int32_t x, std::int32_t y, std::uint32_t id);
    /// pairsWith in one cell. Out of line: inlined into the walk over the cells it cost more.
    std::size_t pairsInBucket(const CellBucket& bucket, std::int32_t x, std::int32_t y,
                              std::uint32_t id, const AABB& box, const std::vector<AABB>& boxes,
                              std::vector<ProxyPair>& out) const;
    /// The sorted ids of one bucket (for validate).
    void sortedIds(const CellBucket& bucket, std::vector<std::uint32_t>& ids) const;

    CellMapping m_mapping;
    CellTable m_table;
    IdChunkPool m_pool;
    std::size_t m_proxies = 0;
};

template <class Covers>
std::int64_t HashLevel::validate(Covers&& covers) const {
    m_pool.validate(m_table.validate(m_pool));
    std::int64_t listings = 0;
    std::vector<std::uint32_t> ids;
    m_table.forEachCell([&](std::uint64_t key, const CellBucket& bucket) {
        sortedIds(bucket, ids);
        for (std::size_t i = 0; i < ids.size(); ++i) {
            R2D_CHECK(i == 0 || ids[i - 1] != ids[i], "cell lists a proxy twice");
            R2D_CHECK(covers(ids[i], cellXOf(key), cellYOf(key)),
                      "cell lists a proxy whose box does not cover it");
        }
        listings += bucket.count;
    });
    return listings;
}

} // namespace rigid2d::detail
