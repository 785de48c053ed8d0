#include "broadphase/sorted_grid.hpp"

#include <algorithm>
#include <bit>

#include "broadphase/geometry.hpp"
#include "broadphase/pair_sort.hpp"
#include "core/assert.hpp"
#include "core/check.hpp"

namespace rigid2d::detail {

namespace {
constexpr float kAutoCellFactor = 4.0f; // cell edge: 4 x the median half extent, as the hash
// The cells ahead of a cell: with their mirror images they are the 8 around it, so each pair of
// neighbouring cells is scanned once.
constexpr std::int32_t kForward[4][2] = {{1, 0}, {-1, 1}, {0, 1}, {1, 1}};
} // namespace

ProxyId SortedGrid::insert(const AABB& box, std::uint64_t userData) {
    const ProxyId id = m_proxies.insert("SortedGrid::insert", box, userData);
    m_sizes.add(box);
    markChanged(id);
    m_stale = true;
    return id;
}

void SortedGrid::move(ProxyId proxy, const AABB& box) {
    AABB previous;
    const AABB& stored = m_proxies.move("SortedGrid::move", proxy, box, &previous);
    m_sizes.change(previous, stored);
    markChanged(proxy);
    m_stale = true;
}

void SortedGrid::moveChecked(std::span<const ProxyId> proxies, std::span<const AABB> boxes) {
    for (std::size_t i = 0; i < proxies.size(); ++i) {
        m_sizes.change(m_proxies.box(proxies[i]), boxes[i]);
        m_proxies.setCheckedBox(proxies[i], boxes[i]);
        markChanged(proxies[i]);
    }
    m_stale = m_stale || !proxies.empty();
}

void SortedGrid::remove(ProxyId proxy) {
    m_proxies.checkLive("SortedGrid::remove", proxy);
    m_sizes.remove(m_proxies.box(proxy));
    m_proxies.remove(proxy); // its entry is skipped by the live check until the next filing
    m_stale = true;
}

void SortedGrid::update() {
    if (m_stale) file();
}

void SortedGrid::markChanged(ProxyId proxy) {
    if (!m_filed) return;
    const std::uint32_t i = toIndex(proxy);
    if (i >= m_isChanged.size()) m_isChanged.resize(i + 1, 0);
    if (m_isChanged[i] != 0) return;
    m_isChanged[i] = 1;
    m_changed.push_back(i);
}

std::uint32_t SortedGrid::bucketOf(std::int32_t x, std::int32_t y) const noexcept {
    const auto ux = static_cast<std::uint32_t>(x), uy = static_cast<std::uint32_t>(y);
    return ((ux * 0x9E3779B1u) ^ (uy * 0x85EBCA77u)) & m_mask;
}

template <class F>
void SortedGrid::forEachInCell(std::int32_t x, std::int32_t y, F&& f) const {
    const std::uint32_t b = bucketOf(x, y);
    for (std::uint32_t k = m_starts[b]; k < m_starts[b + 1]; ++k) {
        const Entry& e = m_entries[k];
        if (e.x == x && e.y == y) f(e);
    }
}

// Counting sort of the small proxies by bucket; the outliers aside.
void SortedGrid::file() {
    const float cell = m_fixedCellSize > 0.0f
                           ? m_fixedCellSize
                           : autoCellSize(m_sizes.medianHalfExtent(), kAutoCellFactor);
    m_mapping = CellMapping(cell);
    const auto& boxes = m_proxies.boxes();
    const auto& live = m_proxies.liveFlags();
    const std::uint32_t capacity = m_proxies.capacity();
    m_outliers.clear();
    const std::size_t tableSize = std::bit_ceil(std::max<std::size_t>(2 * m_proxies.size(), 16));
    m_mask = static_cast<std::uint32_t>(tableSize - 1);
    m_starts.assign(tableSize + 1, 0);
    m_bucketOf.assign(capacity, 0xFFFFFFFFu);
    for (std::uint32_t i = 0; i < capacity; ++i) {
        if (live[i] == 0) continue;
        const CellRange r = m_mapping.rangeOf(boxes[i]);
        if (r.width() > 2 || r.height() > 2) {
            m_outliers.push_back(i);
            continue;
        }
        m_bucketOf[i] = bucketOf(r.x0, r.y0);
        ++m_starts[m_bucketOf[i] + 1];
    }
    for (std::size_t b = 1; b <= tableSize; ++b) m_starts[b] += m_starts[b - 1];
    m_entries.resize(m_starts[tableSize]);
    std::vector<std::uint32_t> next(m_starts.begin(), m_starts.end() - 1);
    for (std::uint32_t i = 0; i < capacity; ++i) {
        if (m_bucketOf[i] == 0xFFFFFFFFu) continue;
        const AABB& box = boxes[i];
        m_entries[next[m_bucketOf[i]]++] = {box, m_mapping.column(box.lower.x),
                                            m_mapping.row(box.lower.y), i};
    }
    // Cells sharing a bucket (hash collisions) are put side by side; ids stay ascending within a
    // cell. Buckets hold one or two entries on average, so an insertion sort is the right tool.
    for (std::size_t b = 0; b < tableSize; ++b) {
        for (std::uint32_t k = m_starts[b] + 1; k < m_starts[b + 1]; ++k) {
            const Entry e = m_entries[k];
            std::uint32_t j = k;
            const auto before = [&](const Entry& f) {
                return f.y > e.y || (f.y == e.y && f.x > e.x);
            };
            for (; j > m_starts[b] && before(m_entries[j - 1]); --j)
                m_entries[j] = m_entries[j - 1];
            m_entries[j] = e;
        }
    }
    for (const std::uint32_t i : m_changed) m_isChanged[i] = 0;
    m_changed.clear();
    m_filed = true;
    m_stale = false;
}

void SortedGrid::collectPairs(std::vector<ProxyPair>& out) {
    out.clear();
    m_overlapTests = 0;
    update();
    const auto emit = [&](std::uint32_t a, std::uint32_t b) {
        out.push_back({ProxyId{std::min(a, b)}, ProxyId{std::max(a, b)}});
    };
    // Small against small, a cell at a time (a bucket holds its cells' entries side by side):
    // within the cell, then against each forward neighbour's entries.
    for (std::size_t b = 0; b + 1 < m_starts.size(); ++b) {
        for (std::uint32_t begin = m_starts[b]; begin < m_starts[b + 1];) {
            const std::int32_t x = m_entries[begin].x, y = m_entries[begin].y;
            std::uint32_t end = begin + 1;
            while (end < m_starts[b + 1] && m_entries[end].x == x && m_entries[end].y == y) ++end;
            for (std::uint32_t k = begin; k < end; ++k)
                for (std::uint32_t j = k + 1; j < end; ++j) {
                    ++m_overlapTests;
                    if (overlaps(m_entries[k].box, m_entries[j].box))
                        emit(m_entries[k].id, m_entries[j].id);
                }
            for (const auto& d : kForward) {
                forEachInCell(x + d[0], y + d[1], [&](const Entry& f) {
                    for (std::uint32_t k = begin; k < end; ++k) {
                        ++m_overlapTests;
                        if (overlaps(m_entries[k].box, f.box)) emit(m_entries[k].id, f.id);
                    }
                });
            }
            begin = end;
        }
    }
    // Outliers against everything: small ones filed under the cells the outlier covers (and one
    // cell before it on each axis: a small proxy reaches one cell past its own), or all of them
    // when that is fewer to look at; outliers pairwise.
    const auto& boxes = m_proxies.boxes();
    for (std::size_t i = 0; i < m_outliers.size(); ++i) {
        const std::uint32_t a = m_outliers[i];
        const AABB& box = boxes[a];
        for (std::size_t j = i + 1; j < m_outliers.size(); ++j) {
            ++m_overlapTests;
            if (overlaps(box, boxes[m_outliers[j]])) emit(a, m_outliers[j]);
        }
        const CellRange r = m_mapping.rangeOf(box);
        const auto test = [&](const Entry& f) {
            ++m_overlapTests;
            if (overlaps(box, f.box)) emit(a, f.id);
        };
        if ((r.width() + 1) * (r.height() + 1) > static_cast<std::int64_t>(m_entries.size())) {
            for (const Entry& f : m_entries) test(f);
        } else {
            for (std::int64_t y = std::int64_t{r.y0} - 1; y <= r.y1; ++y)
                for (std::int64_t x = std::int64_t{r.x0} - 1; x <= r.x1; ++x)
                    forEachInCell(static_cast<std::int32_t>(x), static_cast<std::int32_t>(y), test);
        }
    }
}

// Between filings: the filed entries whose proxy is unchanged (live, not moved since), then the
// changed proxies with their current boxes.
void SortedGrid::query(const AABB& region, FunctionRef<bool(ProxyId)> visit) const {
    requireValidBox("SortedGrid::query", "region", region);
    const auto& boxes = m_proxies.boxes();
    const auto& live = m_proxies.liveFlags();
    const CellRange r = m_mapping.rangeOf(region);
    if (!m_filed ||
        (r.width() + 1) * (r.height() + 1) > static_cast<std::int64_t>(m_entries.size())) {
        for (std::uint32_t i = 0; i < m_proxies.capacity(); ++i)
            if (live[i] != 0 && overlaps(boxes[i], region) && !visit(ProxyId{i})) return;
        return;
    }
    const auto unchanged = [&](std::uint32_t i) {
        return live[i] != 0 && (i >= m_isChanged.size() || m_isChanged[i] == 0);
    };
    bool go = true;
    for (std::int64_t y = std::int64_t{r.y0} - 1; go && y <= r.y1; ++y)
        for (std::int64_t x = std::int64_t{r.x0} - 1; go && x <= r.x1; ++x)
            forEachInCell(static_cast<std::int32_t>(x), static_cast<std::int32_t>(y),
                          [&](const Entry& e) {
                              if (go && unchanged(e.id) && overlaps(e.box, region))
                                  go = visit(ProxyId{e.id});
                          });
    for (const std::uint32_t i : m_outliers)
        if (go && unchanged(i) && overlaps(boxes[i], region)) go = visit(ProxyId{i});
    for (const std::uint32_t i : m_changed)
        if (go && live[i] != 0 && overlaps(boxes[i], region)) go = visit(ProxyId{i});
}

// Every proxy's box against the segment: a ray crosses cells of every kind of content, and the
// slab test of one box costs about what stepping into one cell would.
void SortedGrid::rayCast(Vec2 origin, Vec2 translation, float maxFraction,
                         FunctionRef<float(ProxyId)> visit) const {
    ProxyTable::checkRay("SortedGrid::rayCast", origin, translation, maxFraction);
    m_proxies.rayCastAll(origin, translation, maxFraction, visit);
}

BroadPhaseStats SortedGrid::stats() const {
    BroadPhaseStats s;
    s.active = name();
    s.proxies = m_proxies.size();
    s.cells = m_starts.empty() ? 0 : m_starts.size() - 1;
    s.outliers = m_outliers.size();
    s.overlapTests = m_overlapTests;
    s.memoryBytes = m_proxies.memoryBytes() + m_entries.capacity() * sizeof(Entry) +
                    (m_starts.capacity() + m_outliers.capacity() + m_bucketOf.capacity()) *
                        sizeof(std::uint32_t);
    s.cellSize = m_mapping.size();
    return s;
}

AABB SortedGrid::box(ProxyId proxy) const {
    m_proxies.checkLive("SortedGrid::box", proxy);
    return m_proxies.box(proxy);
}

std::uint64_t SortedGrid::userData(ProxyId proxy) const {
    m_proxies.checkLive("SortedGrid::userData", proxy);
    return m_proxies.userData(proxy);
}

void SortedGrid::validate() const {
    m_proxies.validate();
    R2D_CHECK(m_sizes.total() == m_proxies.size(), "size histogram does not count every proxy");
    if (!m_filed) return;
    for (const std::uint32_t i : m_changed) R2D_CHECK(m_isChanged[i] != 0, "changed flag not set");
    for (std::size_t b = 0; b + 1 < m_starts.size(); ++b)
        for (std::uint32_t k = m_starts[b]; k < m_starts[b + 1]; ++k) {
            const Entry& e = m_entries[k];
            R2D_CHECK(bucketOf(e.x, e.y) == b, "an entry sits in another cell's bucket");
            const bool unchanged = m_proxies.isLive(ProxyId{e.id}) &&
                                   (e.id >= m_isChanged.size() || m_isChanged[e.id] == 0);
            R2D_CHECK(!unchanged || m_proxies.box(ProxyId{e.id}) == e.box,
                      "an unchanged proxy's filed box is stale");
            const CellRange r = m_mapping.rangeOf(e.box);
            R2D_CHECK(r.x0 == e.x && r.y0 == e.y && r.width() <= 2 && r.height() <= 2,
                      "an entry is filed under the wrong cell or is too big to file");
        }
}

// The cells of the last filing.
void SortedGrid::debugDraw(DebugDraw& draw) const {
    const float size = m_mapping.size();
    for (const Entry& e : m_entries) {
        const Vec2 lower{static_cast<float>(e.x) * size, static_cast<float>(e.y) * size};
        const AABB cell{lower, lower + Vec2{size, size}};
        if (draw.useCullRegion && !overlaps(cell, draw.cullRegion)) continue;
        draw.drawAABB(cell, {0.4f, 0.7f, 0.9f, 1.0f});
    }
}

} // namespace rigid2d::detail
