#include "broadphase/uniform_grid.hpp"

#include <algorithm>
#include <cstring>

#include "broadphase/cells/cell_sweep.hpp"
#include "broadphase/cells/cell_sweep_avx2.hpp"
#include "broadphase/pair_sort.hpp"
#include "core/assert.hpp"
#include "core/check.hpp"
#include "core/cpu_features.hpp"
#include "core/grow.hpp"
#include "core/parallel_for.hpp"

namespace rigid2d::detail {

namespace {

// Room for every pair a cell of `entries` can hold.
std::size_t pairRoom(std::uint32_t entries) noexcept {
    return std::size_t{entries} * (entries - 1) / 2;
}

// The ids of a cell of n <= kRegisterCell entries that are primary (flag 0), written at `order`:
// a fixed number written, each kept when primary and in the cell, so no branch on the count (the
// order has room for the extra writes). Returns the new end.
RIGID2D_ALWAYS_INLINE std::uint32_t* writePrimaryIds(const CellEntry* e, const std::uint8_t* flags,
                                                     std::uint32_t n, std::uint32_t* order) {
    for (std::uint32_t k = 0; k < kRegisterCell; ++k) {
        *order = e[k].id;
        order += static_cast<unsigned>(k < n) & static_cast<unsigned>(flags[k] == 0);
    }
    return order;
}

// The pairs of a cell's pair matrix, as ordered pairs of ids at `write`. Returns the new end.
template <int kGroups>
RIGID2D_ALWAYS_INLINE ProxyPair* writePairs(const PairMatrix<kGroups>& matrix, const CellEntry* e,
                                            ProxyPair* write) {
    matrix.forEachPair([&](int i, int j) { *write++ = orderedPair(e[i].id, e[j].id); });
    return write;
}

} // namespace

UniformGrid::UniformGrid(const BroadPhaseConfig& config)
    : m_bounds(config.worldBounds), m_maxCells(config.maxGridCells),
      m_fixedCellSize(config.cellSize > 0.0f), m_avx2(cpuHasAvx2()) {
    // An automatic cell edge comes from the proxies at the first filing; until then a coarse
    // layout of at most 64 cells a side, so that building a grid costs what its proxies cost
    // (1 m cells over the default bounds made a 4M-cell array, 32 MB cleared for nothing).
    const double side =
        std::max(static_cast<double>(m_bounds.upper.x) - static_cast<double>(m_bounds.lower.x),
                 static_cast<double>(m_bounds.upper.y) - static_cast<double>(m_bounds.lower.y));
    configure(m_fixedCellSize ? config.cellSize : static_cast<float>(side / 64.0));
}

void UniformGrid::reserve(std::size_t proxies) {
    BuiltInBroadPhase::reserve(proxies);
    m_dirty.reserve(proxies);
    m_inOrder.reserve(proxies);
    m_inserted.reserve(proxies);
    m_dirtyList.reserve(proxies);
}

ProxyId UniformGrid::insert(const AABB& box, std::uint64_t userData) {
    const ProxyId proxy = m_proxies.insert("UniformGrid::insert", box, userData);
    const std::uint32_t id = toIndex(proxy);
    if (id >= m_dirty.size()) {
        m_dirty.resize(id + 1, 0);
        m_inOrder.resize(id + 1, 0);
    }
    // Not in the filing order and not yet listed (a dirty id outside the order was inserted
    // earlier in this batch): the next filing visits it from m_inserted.
    if (m_inOrder[id] == 0 && !isDirty(id)) m_inserted.push_back(id);
    markDirty(id);
    return proxy;
}

void UniformGrid::appendDirtyGrowing(std::uint32_t id) { m_dirtyList.push_back(id); }

void UniformGrid::move(ProxyId proxy, const AABB& box) {
    m_proxies.move("UniformGrid::move", proxy, box);
    markDirty(toIndex(proxy));
}

void UniformGrid::moveChecked(std::span<const ProxyId> proxies, std::span<const AABB> boxes) {
    // markDirty's list has room for every proxy here, so each is appended without a check: the
    // slot is written always and kept when the proxy was clean.
    const std::size_t listed = m_dirtyList.size();
    resizeWithRoom(m_dirtyList, listed + proxies.size());
    std::uint32_t* list = m_dirtyList.data() + listed;
    std::uint32_t* dirty = m_dirty.data();
    const std::uint32_t mark = m_dirtyMark;
    std::size_t added = 0;
    for (std::size_t i = 0; i < proxies.size(); ++i) {
        const std::uint32_t id = toIndex(proxies[i]);
        m_proxies.setCheckedBox(proxies[i], boxes[i]);
        list[added] = id;
        added += static_cast<std::size_t>(dirty[id] != mark);
        dirty[id] = mark;
    }
    m_dirtyList.resize(listed + added);
}

void UniformGrid::remove(ProxyId proxy) {
    m_proxies.checkLive("UniformGrid::remove", proxy);
    m_proxies.remove(proxy);
    // Its entries are skipped from now on (not live; dirty if the id is handed out again).
    markDirty(toIndex(proxy));
    m_removed.push_back(toIndex(proxy));
}

// Every pair of the cell is tested; it is kept when the lower-left corner of the intersection
// (the larger lower x, the larger lower y) falls in this cell, computed as filing computes cells.
std::size_t UniformGrid::cellPairs(std::uint32_t cell, PairCursor& at) const {
    // A local cursor: writes through the caller's pointer would reload it after every pair.
    ProxyPair* write = at.pairs;
    const CellEntry* e = m_entries.data() + m_begin[cell];
    const std::uint32_t n = m_count[cell];
    const std::uint8_t* flags = m_flags.data() + m_begin[cell];
    std::uint32_t* order = at.order;
    if (n <= kRegisterCell) {
        at.order = writePrimaryIds(e, flags, n, order);
        forEachOwnedPairOfFew(
            e, flags, n, [&](std::uint32_t a, std::uint32_t b) { *write++ = orderedPair(a, b); });
        at.pairs = write;
        return std::size_t{n} * (n - 1) / 2;
    }
    for (std::uint32_t i = 0; i < n; ++i) {
        *order = e[i].id;
        order += flags[i] == 0 ? 1 : 0;
    }
    at.order = order;
    if (n < 2) return 0;
    // An overlapping pair is this cell's when the intersection's lower-left corner is in it:
    // unless both boxes start in an earlier column, or both in an earlier row (exactly the
    // filing's cells, no float recomputation).
    if (n > kSweepThreshold) {
        // Crowded: sorted by lower x (with the flags alongside), then swept.
        SweepScratch& sweep = *at.sweep;
        std::vector<SweepEntry>& sorted = sweep.entries;
        sorted.clear();
        for (std::uint32_t i = 0; i < n; ++i) sorted.push_back({e[i], flags[i]});
        std::sort(sorted.begin(), sorted.end(), [](const SweepEntry& a, const SweepEntry& b) {
            return a.entry.box.lower.x < b.entry.box.lower.x;
        });
        const SweepEntry* se = sorted.data();
        sweep.columns.fill(n, [&](std::size_t k) -> const AABB& { return se[k].entry.box; });
        const std::size_t tests =
            forEachOverlapSorted(sweep.columns.view(), n, [&](std::size_t i, std::size_t j) {
                if ((se[i].flags & se[j].flags) == 0)
                    *write++ = orderedPair(se[i].entry.id, se[j].entry.id);
            });
        at.pairs = write;
        return tests;
    }
    // Few entries: every pair, the cell's columns on the stack.
    SmallCellColumns columns;
    columns.fill(n, [&](std::size_t k) -> const AABB& { return e[k].box; });
    forEachOverlap(columns.view(), n, [&](std::size_t i, std::size_t j) {
        if ((flags[i] & flags[j]) == 0) *write++ = orderedPair(e[i].id, e[j].id);
    });
    at.pairs = write;
    return std::size_t{n} * (n - 1) / 2;
}

std::size_t UniformGrid::cellRunPairs(std::size_t first, std::size_t last, PairCursor& at) const {
#if RIGID2D_CELL_AVX2
    if (m_avx2) return cellRunPairsAvx2(first, last, at);
#endif
    std::size_t tests = 0;
    for (std::size_t k = first; k < last; ++k) tests += cellPairs(m_occupied[k], at);
    return tests;
}

#if RIGID2D_CELL_AVX2
// cellRunPairs with the eight-lane kernel for cells of five to twelve entries (the others as
// cellPairs has them). No lambda here calls the kernel: a lambda would not share the target.
RIGID2D_TARGET_AVX2 std::size_t UniformGrid::cellRunPairsAvx2(std::size_t first, std::size_t last,
                                                              PairCursor& at) const {
    std::size_t tests = 0;
    for (std::size_t k = first; k < last; ++k) {
        const std::uint32_t cell = m_occupied[k];
        const std::uint32_t n = m_count[cell];
        if (n <= 4 || n > kRegisterCell) {
            tests += cellPairs(cell, at);
            continue;
        }
        const CellEntry* e = m_entries.data() + m_begin[cell];
        const std::uint8_t* flags = m_flags.data() + m_begin[cell];
        const auto* boxes = reinterpret_cast<const unsigned char*>(&e[0].box);
        at.order = writePrimaryIds(e, flags, n, at.order);
        at.pairs =
            n <= 8
                ? writePairs(overlapMatrixAvx2<2>(boxes, sizeof(CellEntry), flags, n), e, at.pairs)
                : writePairs(overlapMatrixAvx2<3>(boxes, sizeof(CellEntry), flags, n), e, at.pairs);
        tests += std::size_t{n} * (n - 1) / 2;
    }
    return tests;
}
#endif

std::size_t UniformGrid::cellPairsInPieces(std::int32_t pieces, std::vector<ProxyPair>& out) {
    // Runs of about equal entries, each writing at its own offsets into m_candidates and
    // m_order (room for its cells' pairs, and for all their entries), then closed up in run
    // order: the same pairs and order as one run.
    const auto runs = static_cast<std::size_t>(pieces);
    if (m_runs.size() < runs) m_runs.resize(runs);
    std::size_t entries = 0;
    for (const std::uint32_t c : m_occupied) entries += m_count[c];
    std::size_t cell = 0, pairsAt = 0, orderAt = 0, seen = 0;
    for (std::size_t r = 0; r < runs; ++r) {
        CellRun& run = m_runs[r];
        run.firstCell = cell;
        run.pairsAt = pairsAt;
        run.orderAt = orderAt;
        const std::size_t upTo = entries * (r + 1) / runs;
        for (; cell < m_occupied.size() && (seen < upTo || r + 1 == runs); ++cell) {
            const std::uint32_t count = m_count[m_occupied[cell]];
            seen += count;
            orderAt += count;
            pairsAt += pairRoom(count);
        }
        run.lastCell = cell;
        pairsAt += 1;
        orderAt += kRegisterCell; // cellPairs writes up to this many ids past the kept ones
    }
    if (m_candidates.size() < pairsAt) resizeWithRoom(m_candidates, pairsAt);
    resizeWithRoom(m_order, orderAt + m_outliers.size() + 1);
    parallelFor(*m_workers, pieces, 1, [&](std::int32_t begin, std::int32_t end, std::int32_t) {
        for (auto r = static_cast<std::size_t>(begin); r < static_cast<std::size_t>(end); ++r) {
            CellRun& run = m_runs[r];
            run.end = {m_candidates.data() + run.pairsAt, m_order.data() + run.orderAt, &run.sweep};
            run.tests = cellRunPairs(run.firstCell, run.lastCell, run.end);
        }
    });
    std::size_t tests = 0;
    std::size_t pairCount = 0;
    for (std::size_t r = 0; r < runs; ++r) {
        pairCount += static_cast<std::size_t>(m_runs[r].end.pairs -
                                              (m_candidates.data() + m_runs[r].pairsAt));
    }
    reserveWithRoom(out, pairCount);
    std::uint32_t* order = m_order.data();
    for (std::size_t r = 0; r < runs; ++r) {
        const CellRun& run = m_runs[r];
        out.insert(out.end(), m_candidates.data() + run.pairsAt, run.end.pairs);
        // Closing up moves ids toward the front, between ranges that may overlap.
        const std::uint32_t* from = m_order.data() + run.orderAt;
        const auto ids = static_cast<std::size_t>(run.end.order - from);
        std::memmove(order, from, ids * sizeof(std::uint32_t));
        order += ids;
        tests += run.tests;
    }
    m_order.resize(static_cast<std::size_t>(order - m_order.data()));
    return tests;
}

void UniformGrid::collectPairs(std::vector<ProxyPair>& out) {
    out.clear();
    // Already filed when update() came after the last change (m_order is rebuilt below anyway).
    if (!m_dirtyList.empty()) fileChanges();
    // The pairs of each occupied cell, and on the way the next filing order (primary entries
    // in cell order, then the outliers).
    m_orderPending = false;
    std::size_t tests = 0;
    if (const std::int32_t pieces = pairSearchPieces(); pieces > 1) {
        tests = cellPairsInPieces(pieces, out);
    } else {
        std::size_t room = 1;
        for (const std::uint32_t c : m_occupied) room += pairRoom(m_count[c]);
        if (m_candidates.size() < room) resizeWithRoom(m_candidates, room);
        resizeWithRoom(m_order, m_visitCount + m_outliers.size() + kRegisterCell);
        PairCursor at{m_candidates.data(), m_order.data(), &m_sweep};
        tests = cellRunPairs(0, m_occupied.size(), at);
        reserveWithRoom(out, static_cast<std::size_t>(at.pairs - m_candidates.data()));
        out.assign(m_candidates.data(), at.pairs);
        m_order.resize(static_cast<std::size_t>(at.order - m_order.data()));
    }
    m_order.insert(m_order.end(), m_outliers.begin(), m_outliers.end());
    // Outliers: against the entries of the cells their box covers (the ownership rule
    // with the clamped mapping keeps each pair once), then against each other by a sweep along
    // x, so that many proxies outside the bounds cost O(n log n + pairs), not all pairs.
    const auto& boxes = m_proxies.boxes();
    for (const std::uint32_t id : m_outliers) {
        const AABB& box = boxes[id];
        if (!overlaps(box, m_bounds)) continue;
        forEachCell(m_mapping.rangeOf(box), [&](std::int32_t x, std::int32_t y) {
            const std::size_t cell = cellIndex(x, y);
            if (m_count[cell] != 0)
                tests += boxAgainstEntries(&m_entries[m_begin[cell]], m_count[cell], x, y,
                                           m_mapping, id, box, out);
        });
    }
    m_outlierSweep.assign(m_outliers.begin(), m_outliers.end());
    std::sort(m_outlierSweep.begin(), m_outlierSweep.end(), [&](std::uint32_t a, std::uint32_t b) {
        return boxes[a].lower.x < boxes[b].lower.x ||
               (boxes[a].lower.x == boxes[b].lower.x && a < b);
    });
    for (std::size_t i = 0; i < m_outlierSweep.size(); ++i) {
        const AABB& box = boxes[m_outlierSweep[i]];
        for (std::size_t j = i + 1;
             j < m_outlierSweep.size() && boxes[m_outlierSweep[j]].lower.x <= box.upper.x; ++j) {
            ++tests;
            if (overlaps(box, boxes[m_outlierSweep[j]]))
                out.push_back(orderedPair(m_outlierSweep[i], m_outlierSweep[j]));
        }
    }
    m_overlapTests = tests;
}

template <class F>
void UniformGrid::forEachFiled(std::int32_t x, std::int32_t y, F&& f) const {
    const std::size_t cell = cellIndex(x, y);
    const std::uint32_t begin = m_begin[cell];
    // After update() every entry is live and holds its proxy's current box.
    const bool filed = m_dirtyList.empty();
    for (std::uint32_t i = begin; i < begin + m_count[cell]; ++i)
        if (filed || isCurrent(m_entries[i].id)) f(m_entries[i]);
}

template <class F>
void UniformGrid::forEachUnfiled(F&& f) const {
    for (std::uint32_t id : m_outliers)
        if (isCurrent(id)) f(id);
    for (std::uint32_t id : m_dirtyList)
        if (m_proxies.isLive(ProxyId{id})) f(id);
}

void UniformGrid::query(const AABB& region, FunctionRef<bool(ProxyId)> visit) const {
    requireValidBox("UniformGrid::query", "region", region);
    const CellRange range = m_mapping.rangeOf(region);
    if (range.cellCount() > cellBudget()) return m_proxies.queryAll(region, visit);
    ScratchIds scratch;
    if (overlaps(region, m_bounds)) {
        forEachCell(range, [&](std::int32_t x, std::int32_t y) {
            forEachFiled(x, y, [&](const CellEntry& e) {
                if (overlaps(e.box, region) && m_mapping.ownsPair(x, y, e.box, region))
                    scratch.ids.push_back(e.id);
            });
        });
    }
    forEachUnfiled([&](std::uint32_t id) {
        if (overlaps(m_proxies.box(ProxyId{id}), region)) scratch.ids.push_back(id);
    });
    visitInIdOrder(scratch.ids, visit);
}

void UniformGrid::rayCast(Vec2 origin, Vec2 translation, float maxFraction,
                          FunctionRef<float(ProxyId)> visit) const {
    ProxyTable::checkRay("UniformGrid::rayCast", origin, translation, maxFraction);
    const RaySpan ray = raySpan(origin, translation, maxFraction, m_mapping.size());
    if (rayCellEstimate(m_mapping, ray) > cellBudget())
        return m_proxies.rayCastAll(origin, translation, maxFraction, visit);
    ScratchIds scratch;
    forEachRayCell(m_mapping, ray, [&](std::int32_t x, std::int32_t y) {
        forEachFiled(x, y, [&](const CellEntry& e) { scratch.ids.push_back(e.id); });
    });
    forEachUnfiled([&](std::uint32_t id) { scratch.ids.push_back(id); });
    visitRayInIdOrder(scratch.ids, m_proxies.boxes(), origin, translation, maxFraction, visit);
}

AABB UniformGrid::box(ProxyId proxy) const {
    m_proxies.checkLive("UniformGrid::box", proxy);
    return m_proxies.box(proxy);
}

std::uint64_t UniformGrid::userData(ProxyId proxy) const {
    m_proxies.checkLive("UniformGrid::userData", proxy);
    return m_proxies.userData(proxy);
}

// The filing is a partition of entries by cell; every live clean proxy inside the bounds has one
// entry (with its current box) in each cell its box overlaps and no other; every live clean
// proxy outside is in the outlier list once; the dirty list matches the dirty flags.
void UniformGrid::validate() const {
    m_proxies.validate();
    R2D_CHECK(cellCount() <= m_maxCells, "grid has more cells than maxGridCells");
    const std::size_t slots = cellCount() + kCellPadding + static_cast<std::size_t>(m_columns);
    R2D_CHECK(m_begin.size() == slots && m_count.size() == slots && m_free.size() == slots,
              "grid cell table has the wrong size");
    for (std::size_t c = cellCount(); c < slots; ++c)
        R2D_CHECK(m_count[c] == 0 && m_free[c] == 0, "grid padding cell holds entries");
    // The occupied cells, ascending, are exactly those with entries or free slots (a refresh
    // may have emptied some), and their entries and free slots tile the entry array in that
    // order.
    std::uint32_t running = 0;
    for (std::size_t k = 0; k < m_occupied.size(); ++k) {
        const std::uint32_t c = m_occupied[k];
        R2D_CHECK(c < cellCount() && (k == 0 || m_occupied[k - 1] < c),
                  "grid occupied cells are not ascending");
        R2D_CHECK(m_count[c] + m_free[c] != 0 && m_begin[c] == running,
                  "grid cell offsets do not tile the entries");
        running += m_count[c] + m_free[c];
    }
    R2D_CHECK(running + kEntrySlack == m_entries.size(),
              "grid cell offsets do not cover the entries");
    const std::uint32_t capacity = m_proxies.capacity();
    R2D_CHECK(m_dirty.size() >= capacity, "dirty flags shorter than the proxies");
    std::size_t dirtyCount = 0;
    for (std::uint32_t id = 0; id < m_dirty.size(); ++id) dirtyCount += isDirty(id) ? 1 : 0;
    R2D_CHECK(dirtyCount == m_dirtyList.size(), "dirty list does not match the dirty flags");
    for (std::uint32_t id : m_dirtyList) R2D_CHECK(isDirty(id), "dirty list holds a clean id");
    // The filing order (m_order, or the one the next file() writes first) holds each proxy live
    // at the last filing once.
    std::vector<std::uint32_t> pendingOrder;
    if (m_orderPending) writeFilingOrder(pendingOrder);
    std::vector<std::uint8_t> ordered(capacity, 0);
    for (std::uint32_t id : m_orderPending ? pendingOrder : m_order) {
        R2D_CHECK(id < capacity && ordered[id] == 0 && m_inOrder[id] != 0,
                  "grid filing order lists a proxy twice or one it does not know");
        ordered[id] = 1;
    }
    for (std::uint32_t id = 0; id < capacity; ++id) {
        R2D_CHECK((ordered[id] != 0) == (m_inOrder[id] != 0), "grid filing order flags are stale");
        if (m_proxies.isLive(ProxyId{id}) && !isDirty(id))
            R2D_CHECK(ordered[id] != 0, "clean live proxy missing from the filing order");
    }

    std::vector<std::int64_t> seen(capacity, 0);
    std::size_t occupied = 0;
    std::size_t c = 0;
    for (std::int32_t y = 0; y < m_rows; ++y) {
        for (std::int32_t x = 0; x < m_columns; ++x, ++c) {
            occupied += m_count[c] + m_free[c] != 0;
            for (std::uint32_t i = m_begin[c]; i < m_begin[c] + m_count[c]; ++i) {
                const CellEntry& e = m_entries[i];
                R2D_CHECK(e.id < capacity, "grid entry id out of range");
                if (!isCurrent(e.id)) continue; // stale until the next findPairs, never visited
                R2D_CHECK(e.box == m_proxies.box(ProxyId{e.id}), "grid entry box is stale");
                R2D_CHECK(m_mapping.rangeOf(e.box).contains(x, y),
                          "grid entry in a cell its box does not cover");
                ++seen[e.id];
            }
        }
    }
    R2D_CHECK(occupied == m_occupied.size(), "grid occupied-cell count is stale");
    std::vector<std::uint8_t> inOutliers(capacity, 0);
    for (std::uint32_t id : m_outliers) {
        R2D_CHECK(id < capacity && inOutliers[id] == 0, "grid outlier list holds a proxy twice");
        inOutliers[id] = 1;
    }
    // An outlier may have moved inside since the filing (a refresh leaves outliers as they are).
    for (std::uint32_t id = 0; id < capacity; ++id) {
        if (!isCurrent(id)) continue;
        const AABB& box = m_proxies.box(ProxyId{id});
        if (inOutliers[id] != 0) {
            R2D_CHECK(seen[id] == 0, "grid outlier has entries in cells");
            R2D_CHECK(m_refreshes != 0 || !contains(m_bounds, box),
                      "grid proxy inside the bounds at the filing is an outlier");
        } else {
            R2D_CHECK(contains(m_bounds, box) && seen[id] == m_mapping.rangeOf(box).cellCount(),
                      "grid proxy not in exactly the cells its box overlaps");
        }
    }
}

void UniformGrid::debugDraw(DebugDraw& draw) const {
    const Color cellColor{0.3f, 0.6f, 0.9f, 0.6f};
    const Color outlierFill{1.0f, 0.4f, 0.1f, 0.25f};
    const Color outlierOutline{1.0f, 0.4f, 0.1f, 1.0f};
    const bool cull = draw.useCullRegion;
    draw.drawAABB(m_bounds, Color{0.5f, 0.5f, 0.5f, 1.0f});
    if (!cull || overlaps(draw.cullRegion, m_bounds)) {
        const CellRange range = cull ? m_mapping.rangeOf(draw.cullRegion) : m_mapping.clampRange();
        forEachCell(range, [&](std::int32_t x, std::int32_t y) {
            const std::size_t cell = cellIndex(x, y);
            if (m_count[cell] != 0) draw.drawAABB(m_mapping.cellBox(x, y), cellColor);
        });
    }
    forEachUnfiled([&](std::uint32_t id) {
        const AABB& box = m_proxies.box(ProxyId{id});
        if (contains(m_bounds, box)) return; // dirty but inside: drawn with its cells next time
        if (!cull || overlaps(box, draw.cullRegion)) draw.drawBox(box, outlierFill, outlierOutline);
    });
}

} // namespace rigid2d::detail
