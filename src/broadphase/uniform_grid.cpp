#include "broadphase/uniform_grid.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "broadphase/pair_sort.hpp"
#include "core/assert.hpp"
#include "core/check.hpp"

namespace rigid2d::detail {

UniformGrid::UniformGrid(const BroadPhaseConfig& config)
    : m_bounds(config.worldBounds), m_maxCells(config.maxGridCells),
      m_fixedCellSize(config.cellSize > 0.0f) {
    configure(m_fixedCellSize ? config.cellSize : 1.0f);
}

// Cell edge c: at least the requested one, grown until ceil(W / c) * ceil(H / c) fits in
// maxGridCells (and each axis stays exactly representable as a float cell index).
void UniformGrid::configure(float cellSize) {
    const double width =
        static_cast<double>(m_bounds.upper.x) - static_cast<double>(m_bounds.lower.x);
    const double height =
        static_cast<double>(m_bounds.upper.y) - static_cast<double>(m_bounds.lower.y);
    const double maxCells = static_cast<double>(m_maxCells);
    constexpr double kMaxAxis = 1 << 24;
    double size = std::max({static_cast<double>(cellSize), std::sqrt(width * height / maxCells),
                            width / kMaxAxis, height / kMaxAxis});
    double columns = 0, rows = 0;
    for (;;) {
        columns = std::max(1.0, std::ceil(width / size));
        rows = std::max(1.0, std::ceil(height / size));
        if (columns * rows <= maxCells && columns <= kMaxAxis && rows <= kMaxAxis) break;
        size *= 1.01;
    }
    m_columns = static_cast<std::int32_t>(columns);
    m_rows = static_cast<std::int32_t>(rows);
    m_mapping =
        CellMapping(m_bounds.lower, static_cast<float>(size), {0, 0, m_columns - 1, m_rows - 1});
    // Nothing is filed under the new layout yet: every live proxy is dirty until file().
    m_start.assign(cellCount() + kStartPadding + static_cast<std::size_t>(m_columns), 0);
    m_firstCell = 1;
    m_lastCell = 0;
    m_entries.clear();
    m_primary.clear();
    m_overflow.clear();
    m_occupiedCells = 0;
    const auto& live = m_proxies.liveFlags();
    for (std::uint32_t id = 0; id < m_proxies.capacity(); ++id) {
        if (live[id] != 0) markDirty(id);
    }
}

ProxyId UniformGrid::insert(const AABB& box, std::uint64_t userData) {
    const ProxyId proxy = m_proxies.insert("UniformGrid::insert", box, userData);
    const std::uint32_t id = toIndex(proxy);
    if (id >= m_dirty.size()) {
        m_dirty.resize(id + 1, 0);
        m_inOrder.resize(id + 1, 0);
    }
    markDirty(id);
    return proxy;
}

void UniformGrid::move(ProxyId proxy, const AABB& box) {
    m_proxies.checkMove("UniformGrid::move", proxy, box);
    m_proxies.setBox(proxy, box);
    markDirty(toIndex(proxy));
}

void UniformGrid::remove(ProxyId proxy) {
    m_proxies.checkLive("UniformGrid::remove", proxy);
    m_proxies.remove(proxy);
    // Its entries are skipped from now on (not live; dirty if the id is handed out again).
    markDirty(toIndex(proxy));
}

template <class F>
void UniformGrid::forEachInFilingOrder(F&& f) const {
    for (std::uint32_t id : m_order) f(id);
    for (std::uint32_t id : m_dirtyList)
        if (m_inOrder[id] == 0) f(id);
}

void UniformGrid::countCells() {
    const AABB* boxes = m_proxies.boxes().data();
    const std::uint8_t* live = m_proxies.liveFlags().data();
    // Local copies: the stores into the arrays below could otherwise alias them (int/unsigned),
    // forcing reloads in the inner loops.
    const CellMapping mapping = m_mapping;
    const AABB bounds = m_bounds;
    const auto columns = static_cast<std::size_t>(m_columns);
    // Only the offsets of the last filing's cell range are nonzero (see m_firstCell).
    if (m_firstCell <= m_lastCell) {
        std::fill(m_start.begin() + static_cast<std::ptrdiff_t>(m_firstCell),
                  m_start.begin() + static_cast<std::ptrdiff_t>(m_lastCell + 3), 0u);
    }
    std::size_t first = cellCount(), last = 0;
    std::uint32_t* count = m_start.data() + 2;
    m_overflow.clear();
    m_visits.clear();
    m_sizes.clear();
    forEachInFilingOrder([&](std::uint32_t id) {
        if (live[id] == 0) return;
        const AABB& box = boxes[id];
        m_sizes.add(box);
        if (!contains(bounds, box)) {
            m_overflow.push_back(id);
            return;
        }
        const CellRange r = mapping.rangeOfInside(box);
        m_visits.push_back({{box, id}, r});
        first = std::min(first,
                         static_cast<std::size_t>(r.y0) * columns + static_cast<std::size_t>(r.x0));
        last = std::max(last,
                        static_cast<std::size_t>(r.y1) * columns + static_cast<std::size_t>(r.x1));
        std::uint32_t* cell =
            count + static_cast<std::size_t>(r.y0) * columns + static_cast<std::size_t>(r.x0);
        const auto w = static_cast<std::uint32_t>(r.x1 - r.x0);
        const auto h = static_cast<std::uint32_t>(r.y1 - r.y0);
        if ((w | h) <= 1) {
            // Up to 2 x 2 cells, the common case when cells are twice the median extent:
            // branch-free (the arrays are padded so the zero additions stay in bounds).
            cell[0] += 1;
            cell[1] += w;
            cell[columns] += h;
            cell[columns + 1] += w & h;
            return;
        }
        for (std::uint32_t y = 0; y <= h; ++y, cell += columns)
            for (std::uint32_t x = 0; x <= w; ++x) ++cell[x];
    });
    m_firstCell = first;
    m_lastCell = last;
}

void UniformGrid::file() {
    // Pass 1, count (and the size histogram); re-count once if the sizes drifted.
    countCells();
    if (!m_fixedCellSize && m_sizes.drifted(m_sizeReference)) {
        m_sizeReference = m_sizes.medianHalfExtent();
        configure(autoCellSize(m_sizeReference, kAutoCellFactor));
        countCells();
    }
    // m_start was counted at [c + 2]; prefix-sum, then scatter with [c + 1]++, after which
    // [c] .. [c + 1] delimit cell c.
    // Only the cells from m_firstCell to m_lastCell were counted: the sums run over those, so
    // a filing costs O(proxies + that range), not O(every cell of the bounds).
    std::uint32_t* start = m_start.data();
    std::size_t occupied = 0;
    std::size_t total = 0;
    if (m_firstCell <= m_lastCell) {
        for (std::size_t c = m_firstCell + 2; c <= m_lastCell + 2; ++c) {
            occupied += start[c] != 0;
            start[c] += start[c - 1];
        }
        total = start[m_lastCell + 2];
    }
    m_occupiedCells = occupied;

    // Pass 2, scatter, in the same order. Each proxy's entry in its lower-left cell is flagged
    // "primary": those, in cell order, are the next filing order.
    const auto columns = static_cast<std::size_t>(m_columns);
    m_entries.resize(total + 1);
    m_primary.assign(total + 1, 0);
    CellEntry* entries = m_entries.data();
    std::uint8_t* primary = m_primary.data();
    // Writes of the zero-width parts of the 2 x 2 fast path go to a sink entry past the end.
    const auto sink = static_cast<std::uint32_t>(total);
    for (const Visit& v : m_visits) {
        const CellRange& r = v.range;
        std::uint32_t* cell =
            start + 1 + static_cast<std::size_t>(r.y0) * columns + static_cast<std::size_t>(r.x0);
        primary[cell[0]] = 1;
        const auto w = static_cast<std::uint32_t>(r.x1 - r.x0);
        const auto h = static_cast<std::uint32_t>(r.y1 - r.y0);
        if ((w | h) <= 1) {
            const std::uint32_t wh = w & h;
            entries[cell[0]++] = v.entry;
            entries[w != 0 ? cell[1] : sink] = v.entry;
            cell[1] += w;
            entries[h != 0 ? cell[columns] : sink] = v.entry;
            cell[columns] += h;
            entries[wh != 0 ? cell[columns + 1] : sink] = v.entry;
            cell[columns + 1] += wh;
            continue;
        }
        for (std::uint32_t y = 0; y <= h; ++y, cell += columns)
            for (std::uint32_t x = 0; x <= w; ++x) entries[cell[x]++] = v.entry;
    }
    m_entries.pop_back(); // the sink

    m_order.clear();
    for (std::size_t i = 0; i < total; ++i)
        if (primary[i] != 0) m_order.push_back(entries[i].id);
    m_order.insert(m_order.end(), m_overflow.begin(), m_overflow.end());
    const auto& live = m_proxies.liveFlags();
    for (std::uint32_t id : m_dirtyList) {
        m_dirty[id] = 0;
        m_inOrder[id] = live[id];
    }
    m_dirtyList.clear();
    m_stale.store(false, std::memory_order_release);
}

void UniformGrid::fileIfStale() const {
    if (!m_stale.load(std::memory_order_acquire)) return;
    const std::lock_guard<std::mutex> lock(m_fileMutex);
    if (!m_stale.load(std::memory_order_relaxed)) return; // another query filed meanwhile
    // Filing changes no box, id or answer, only how they are stored. A grid is only ever created
    // non-const (makeBroadPhase), so casting away const here is defined.
    const_cast<UniformGrid*>(this)->file();
}

void UniformGrid::findPairs(std::vector<ProxyPair>& out) {
    out.clear();
    file();
    std::size_t tests = 0;
    const auto columns = static_cast<std::size_t>(m_columns);
    for (std::size_t c = m_firstCell; c <= m_lastCell; ++c) {
        const std::uint32_t begin = m_start[c];
        const std::uint32_t count = m_start[c + 1] - begin;
        if (count < 2) continue;
        const auto x = static_cast<std::int32_t>(c % columns);
        const auto y = static_cast<std::int32_t>(c / columns);
        tests += pairsInCell(&m_entries[begin], count, x, y, m_mapping, out);
    }
    // Overflow proxies: against the entries of the cells their box covers (the ownership rule
    // with the clamped mapping keeps each pair once), then against each other.
    const auto& boxes = m_proxies.boxes();
    for (std::size_t i = 0; i < m_overflow.size(); ++i) {
        const std::uint32_t id = m_overflow[i];
        const AABB& box = boxes[id];
        if (overlaps(box, m_bounds)) {
            forEachCell(m_mapping.rangeOf(box), [&](std::int32_t x, std::int32_t y) {
                const CellSpan cell = cellSpan(cellIndex(x, y));
                tests += boxAgainstEntries(m_entries.data() + cell.begin, cell.end - cell.begin, x,
                                           y, m_mapping, id, box, out);
            });
        }
        for (std::size_t j = i + 1; j < m_overflow.size(); ++j) {
            ++tests;
            if (overlaps(box, boxes[m_overflow[j]])) out.push_back(orderedPair(id, m_overflow[j]));
        }
    }
    m_overlapTests = tests;
    sortPairs(out, m_sortScratch);
}

template <class F>
void UniformGrid::forEachFiled(std::int32_t x, std::int32_t y, F&& f) const {
    const CellSpan cell = cellSpan(cellIndex(x, y));
    for (std::uint32_t i = cell.begin; i < cell.end; ++i) {
        if (isCurrent(m_entries[i].id)) f(m_entries[i]);
    }
}

template <class F>
void UniformGrid::forEachUnfiled(F&& f) const {
    for (std::uint32_t id : m_overflow)
        if (isCurrent(id)) f(id);
    for (std::uint32_t id : m_dirtyList)
        if (m_proxies.isLive(ProxyId{id})) f(id);
}

void UniformGrid::query(const AABB& region, FunctionRef<bool(ProxyId)> visit) const {
    requireValidBox("UniformGrid::query", "region", region);
    fileIfStale();
    const CellRange range = m_mapping.rangeOf(region);
    if (range.cellCount() > cellBudget()) return scanQuery(m_proxies, region, visit);
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
    checkRayArguments("UniformGrid::rayCast", origin, translation, maxFraction);
    fileIfStale();
    const RaySpan ray = raySpan(origin, translation, maxFraction, m_mapping.size());
    if (rayCellEstimate(m_mapping, ray) > cellBudget())
        return scanRayCast(m_proxies, origin, translation, maxFraction, visit);
    ScratchIds scratch;
    forEachRayCell(m_mapping, ray, [&](std::int32_t x, std::int32_t y) {
        forEachFiled(x, y, [&](const CellEntry& e) { scratch.ids.push_back(e.id); });
    });
    forEachUnfiled([&](std::uint32_t id) { scratch.ids.push_back(id); });
    visitRayInIdOrder(scratch.ids, m_proxies.boxes(), origin, translation, maxFraction, visit);
}

BroadPhaseStats UniformGrid::stats() const {
    BroadPhaseStats s;
    s.proxies = m_proxies.size();
    s.cells = m_occupiedCells;
    s.overflow = m_overflow.size();
    s.overlapTests = m_overlapTests;
    s.memoryBytes = m_proxies.memoryBytes() + m_start.capacity() * sizeof(std::uint32_t) +
                    m_entries.capacity() * sizeof(CellEntry) +
                    m_overflow.capacity() * sizeof(std::uint32_t) + m_dirty.capacity() +
                    m_dirtyList.capacity() * sizeof(std::uint32_t) +
                    m_sortScratch.capacity() * sizeof(ProxyPair);
    s.cellSize = m_mapping.size();
    s.levels = 1;
    return s;
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
// proxy outside is in the overflow list once; the dirty list matches the dirty flags.
void UniformGrid::validate() const {
    m_proxies.validate();
    R2D_CHECK(cellCount() <= m_maxCells, "grid has more cells than maxGridCells");
    R2D_CHECK(m_start.size() == cellCount() + kStartPadding + static_cast<std::size_t>(m_columns),
              "grid cell table has the wrong size");
    if (m_firstCell <= m_lastCell) {
        R2D_CHECK(m_lastCell < cellCount() && m_start[m_firstCell] == 0 &&
                      m_start[m_lastCell + 1] == m_entries.size(),
                  "grid cell offsets do not cover the entries");
    } else {
        R2D_CHECK(m_entries.empty(), "grid has entries but no filed cells");
    }
    const std::uint32_t capacity = m_proxies.capacity();
    R2D_CHECK(m_dirty.size() >= capacity, "dirty flags shorter than the proxies");
    std::size_t dirtyCount = 0;
    for (std::uint32_t id = 0; id < m_dirty.size(); ++id) dirtyCount += m_dirty[id] != 0;
    R2D_CHECK(dirtyCount == m_dirtyList.size(), "dirty list does not match the dirty flags");
    for (std::uint32_t id : m_dirtyList) R2D_CHECK(m_dirty[id] != 0, "dirty list holds a clean id");
    // The filing order holds each proxy live at the last filing once.
    std::vector<std::uint8_t> ordered(capacity, 0);
    for (std::uint32_t id : m_order) {
        R2D_CHECK(id < capacity && ordered[id] == 0 && m_inOrder[id] != 0,
                  "grid filing order lists a proxy twice or one it does not know");
        ordered[id] = 1;
    }
    for (std::uint32_t id = 0; id < capacity; ++id) {
        R2D_CHECK((ordered[id] != 0) == (m_inOrder[id] != 0), "grid filing order flags are stale");
        if (m_proxies.isLive(ProxyId{id}) && m_dirty[id] == 0)
            R2D_CHECK(ordered[id] != 0, "clean live proxy missing from the filing order");
    }

    std::vector<std::int64_t> seen(capacity, 0);
    std::size_t occupied = 0;
    std::size_t c = 0;
    for (std::int32_t y = 0; y < m_rows; ++y) {
        for (std::int32_t x = 0; x < m_columns; ++x, ++c) {
            const CellSpan span = cellSpan(c);
            R2D_CHECK(span.begin <= span.end, "grid cell offsets decrease");
            occupied += span.begin != span.end;
            for (std::uint32_t i = span.begin; i < span.end; ++i) {
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
    R2D_CHECK(occupied == m_occupiedCells, "grid occupied-cell count is stale");
    std::vector<std::uint8_t> inOverflow(capacity, 0);
    for (std::uint32_t id : m_overflow) {
        R2D_CHECK(id < capacity && inOverflow[id] == 0, "grid overflow lists a proxy twice");
        inOverflow[id] = 1;
    }
    for (std::uint32_t id = 0; id < capacity; ++id) {
        if (!isCurrent(id)) continue;
        const AABB& box = m_proxies.box(ProxyId{id});
        if (contains(m_bounds, box)) {
            R2D_CHECK(inOverflow[id] == 0, "grid proxy inside the bounds is in overflow");
            R2D_CHECK(seen[id] == m_mapping.rangeOf(box).cellCount(),
                      "grid proxy not in exactly the cells its box overlaps");
        } else {
            R2D_CHECK(inOverflow[id] != 0 && seen[id] == 0,
                      "grid proxy outside the bounds is not (only) in overflow");
        }
    }
}

void UniformGrid::debugDraw(DebugDraw& draw) const {
    const Color cellColor{0.3f, 0.6f, 0.9f, 0.6f};
    const Color overflowFill{1.0f, 0.4f, 0.1f, 0.25f};
    const Color overflowOutline{1.0f, 0.4f, 0.1f, 1.0f};
    const bool cull = draw.useCullRegion;
    draw.drawAABB(m_bounds, Color{0.5f, 0.5f, 0.5f, 1.0f});
    if (!cull || overlaps(draw.cullRegion, m_bounds)) {
        const CellRange range = cull ? m_mapping.rangeOf(draw.cullRegion) : m_mapping.clampRange();
        forEachCell(range, [&](std::int32_t x, std::int32_t y) {
            const CellSpan cell = cellSpan(cellIndex(x, y));
            if (cell.begin != cell.end) draw.drawAABB(m_mapping.cellBox(x, y), cellColor);
        });
    }
    forEachUnfiled([&](std::uint32_t id) {
        const AABB& box = m_proxies.box(ProxyId{id});
        if (contains(m_bounds, box)) return; // dirty but inside: drawn with its cells next time
        if (!cull || overlaps(box, draw.cullRegion))
            draw.drawBox(box, overflowFill, overflowOutline);
    });
}

} // namespace rigid2d::detail
