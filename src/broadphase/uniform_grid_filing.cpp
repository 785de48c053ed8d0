// The grid's filing: the counting sort of every live proxy into the cells (uniform_grid.hpp's
// header comment), in the order of the last filing.

#include <algorithm>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "broadphase/pair_sort.hpp"
#include "broadphase/uniform_grid.hpp"
#include "core/grow.hpp"

namespace rigid2d::detail {

namespace {

#if defined(__SSE2__)
// The count pass's `contains(bounds, box)` and `rangeOfInside(box)` in the four lanes of one
// register (lower x, lower y, upper x, upper y): the same float operations lane by lane, so
// the same answers, in about a third of the instructions (it runs for every proxy every frame).
class InsideRange {
public:
    InsideRange(const CellMapping& mapping, const AABB& bounds) noexcept
        : m_bound(_mm_setr_ps(bounds.lower.x, bounds.lower.y, -bounds.upper.x, -bounds.upper.y)),
          m_origin(_mm_setr_ps(mapping.origin().x, mapping.origin().y, mapping.origin().x,
                               mapping.origin().y)),
          m_inverse(_mm_set1_ps(mapping.inverse())),
          m_clamp(_mm_setr_ps(static_cast<float>(mapping.clampRange().x1),
                              static_cast<float>(mapping.clampRange().y1),
                              static_cast<float>(mapping.clampRange().x1),
                              static_cast<float>(mapping.clampRange().y1))) {}

    /// False when the box is not inside the bounds; else sets `range` to rangeOfInside(box).
    bool operator()(const AABB& box, CellRange& range) const noexcept {
        const __m128 b = load(box);
        if (!inside(b)) return false;
        alignas(16) std::int32_t cells[4];
        _mm_store_si128(reinterpret_cast<__m128i*>(cells), cellsOf(b));
        range = {cells[0], cells[1], cells[2], cells[3]};
        return true;
    }

    /// Whether `now` is inside the bounds and covers exactly the cells of `was` (inside): the
    /// same operations as above on both, compared in registers.
    [[nodiscard]] bool sameCells(const AABB& was, const AABB& now) const noexcept {
        const __m128 b = load(now);
        if (!inside(b)) return false;
        return _mm_movemask_epi8(_mm_cmpeq_epi32(cellsOf(load(was)), cellsOf(b))) == 0xFFFF;
    }

private:
    [[nodiscard]] static __m128 load(const AABB& box) noexcept {
        static_assert(sizeof(AABB) == 4 * sizeof(float));
        return _mm_loadu_ps(&box.lower.x);
    }
    /// lower >= bounds.lower and -upper >= -bounds.upper, exactly contains()'s comparisons.
    [[nodiscard]] bool inside(__m128 box) const noexcept {
        const __m128 signs = _mm_setr_ps(1.0f, 1.0f, -1.0f, -1.0f);
        return _mm_movemask_ps(_mm_cmpge_ps(_mm_mul_ps(box, signs), m_bound)) == 0xF;
    }
    /// rangeOfInside's cells of a box inside: minps(scaled, hi) is std::min(scaled, hi) for the
    /// non-NaN values found inside.
    [[nodiscard]] __m128i cellsOf(__m128 box) const noexcept {
        return _mm_cvttps_epi32(
            _mm_min_ps(_mm_mul_ps(_mm_sub_ps(box, m_origin), m_inverse), m_clamp));
    }

    __m128 m_bound, m_origin, m_inverse, m_clamp;
};
#endif

} // namespace

std::size_t UniformGrid::countCells(bool sampleSizes) {
    // Clear the counts of the last filing: every nonzero one lies in m_occupied, which is
    // sorted, so one fill over its span unless that span is mostly empty cells.
    const std::size_t cells = cellCount();
    std::size_t span = 0;
    if (!m_occupied.empty()) {
        span = std::size_t{m_occupied.back()} + 1 - m_occupied.front();
        if (span <= 4 * m_occupied.size()) {
            std::fill_n(m_count.begin() + m_occupied.front(), span, 0u);
            std::fill_n(m_free.begin() + m_occupied.front(), span, 0u);
        } else {
            for (std::uint32_t c : m_occupied) m_count[c] = m_free[c] = 0;
        }
    }
    // Noting the cells as they become occupied costs about a third of the counting and then a
    // sort of the noted cells, some 60 instructions a proxy; walking the span of the occupied
    // cells costs about 5 a cell. So walk where the last filing's span held few cells per
    // proxy (or most cells), note otherwise (a sparse world, or no filing yet). Either way the
    // filing is the same.
    if (!m_occupied.empty() && (span <= 8 * m_proxies.size() || 4 * m_occupied.size() >= cells))
        return sampleSizes ? countCellsWith<false, true>() : countCellsWith<false, false>();
    return sampleSizes ? countCellsWith<true, true>() : countCellsWith<true, false>();
}

template <bool kTrackOccupied, bool kSampleSizes>
std::size_t UniformGrid::countCellsWith() {
    const AABB* boxes = m_proxies.boxes().data();
    // Local copies: the stores into the arrays below could otherwise alias them (int/unsigned),
    // forcing reloads in the inner loops.
    const CellMapping mapping = m_mapping;
    const AABB bounds = m_bounds;
    const auto columns = static_cast<std::uint32_t>(m_columns);
    std::uint32_t* count = m_count.data();
    m_outliers.clear();
    if constexpr (kSampleSizes) m_sizes.clear();
    // The proxies in the order of the last filing, then those inserted since, without those
    // removed since (file() appends the first and drops the second; moved ones are in the order
    // already): every id here is live, so the loop tests no flag.
    const std::uint32_t* order = m_order.data();
    const std::size_t candidates = m_order.size();
    // Sized, never shrunk (value-initialising the same room every frame would cost a pass).
    if (m_visits.size() < candidates) resizeWithRoom(m_visits, candidates);
    Visit* visits = m_visits.data();
    std::size_t visited = 0;
    [[maybe_unused]] std::uint32_t sized = 0;
    // Up to four cells become occupied per proxy on the fast path: room for that many per
    // candidate, so the appends below need no capacity check (the slow path checks).
    const std::size_t fastRoom = kTrackOccupied ? 4 * candidates + 4 : 0;
    if (m_touched.size() < fastRoom) resizeWithRoom(m_touched, fastRoom);
    std::uint32_t* touched = m_touched.data();
    std::size_t occupied = 0;
    // Without noting: the lowest first cell, and the highest first cell (last, for a range wider
    // than 2 x 2): every cell counted lies in [lowest, highest + columns + 2).
    auto lowest = static_cast<std::uint32_t>(cellCount());
    std::uint32_t highest = 0;
#if defined(__SSE2__)
    const InsideRange inside(mapping, bounds);
#endif
    // One plain loop (as a lambda with its accumulators captured by reference, the same body
    // took 3% more instructions). The box array is by id: its reads are prefetched a few
    // proxies ahead, so that their cache misses overlap.
    constexpr std::size_t kAhead = 16;
    for (std::size_t i = 0; i < candidates; ++i) {
        __builtin_prefetch(&boxes[order[std::min(i + kAhead, candidates - 1)]]);
        const std::uint32_t id = order[i];
        const AABB& box = boxes[id];
        if constexpr (kSampleSizes) {
            m_sizes.addUncounted(box);
            ++sized;
        }
#if defined(__SSE2__)
        CellRange r;
        if (!inside(box, r)) {
            m_outliers.push_back(id);
            continue;
        }
#else
        if (!contains(bounds, box)) {
            m_outliers.push_back(id);
            continue;
        }
        const CellRange r = mapping.rangeOfInside(box);
#endif
        const auto w = static_cast<std::uint32_t>(r.x1 - r.x0);
        const auto h = static_cast<std::uint32_t>(r.y1 - r.y0);
        const std::uint32_t first =
            static_cast<std::uint32_t>(r.y0) * columns + static_cast<std::uint32_t>(r.x0);
        // Field by field: the aggregate was built on the stack and copied (18 instructions).
        Visit& visit = visits[visited++];
        visit.entry.box = box;
        visit.entry.id = id;
        visit.cell = first;
        visit.width = w;
        visit.height = h;
        std::uint32_t* cell = count + first;
        if constexpr (!kTrackOccupied) {
            lowest = std::min(lowest, first);
            highest = std::max(highest, first);
            if ((w | h) <= 1) { // as below, branch-free, without noting cells
                cell[0] += 1;
                cell[1] += w;
                cell[columns] += h;
                cell[columns + 1] += w & h;
                continue;
            }
            highest = std::max(highest, first + h * columns + w);
            for (std::uint32_t y = 0; y <= h; ++y, cell += columns)
                for (std::uint32_t x = 0; x <= w; ++x) ++cell[x];
            continue;
        }
        if ((w | h) <= 1) {
            // Up to 2 x 2 cells, the common case when cells exceed the median extent:
            // branch-free (the arrays are padded so the zero additions stay in bounds). A cell
            // is noted when its count leaves 0; the slot is overwritten when it does not.
            const std::uint32_t wh = w & h;
            touched[occupied] = first;
            occupied += static_cast<std::size_t>(cell[0] == 0);
            cell[0] += 1;
            touched[occupied] = first + 1;
            occupied += static_cast<std::size_t>((cell[1] == 0) & (w != 0));
            cell[1] += w;
            touched[occupied] = first + columns;
            occupied += static_cast<std::size_t>((cell[columns] == 0) & (h != 0));
            cell[columns] += h;
            touched[occupied] = first + columns + 1;
            occupied += static_cast<std::size_t>((cell[columns + 1] == 0) & (wh != 0));
            cell[columns + 1] += wh;
            continue;
        }
        // The room left must still hold the fast path's four per candidate after this proxy's
        // cells: checking for this proxy alone let a large proxy use up the room of the small
        // ones filed after it, whose unchecked appends then ran past the end.
        const std::size_t more = static_cast<std::size_t>(w + 1) * (h + 1);
        if (occupied + more + fastRoom > m_touched.size()) {
            m_touched.resize(2 * (occupied + more + fastRoom));
            touched = m_touched.data();
        }
        for (std::uint32_t y = 0; y <= h; ++y, cell += columns) {
            for (std::uint32_t x = 0; x <= w; ++x) {
                if (cell[x]++ == 0)
                    touched[occupied++] = static_cast<std::uint32_t>(cell + x - count);
            }
        }
    }
    m_visitCount = visited;
    if constexpr (kSampleSizes) m_sizes.addToTotal(sized);
    if constexpr (kTrackOccupied) return occupied;
    // A 2 x 2 range reaches one column and one row past its first cell.
    m_walkBegin = lowest;
    m_walkEnd =
        std::max(lowest, std::min(highest + columns + 2, static_cast<std::uint32_t>(cellCount())));
    return kNotNoted;
}

std::size_t UniformGrid::assignOffsets(std::size_t touched) {
    std::uint32_t* begin = m_begin.data();
    const std::uint32_t* count = m_count.data();
    std::uint32_t* free = m_free.data();
    const std::size_t cells = cellCount();
    std::uint32_t running = 0;
    if (touched == kNotNoted || touched * 4 >= cells) {
        // Cells not noted, or most cells occupied: one pass over the span of cells that may be
        // occupied, branch-free.
        const std::size_t walkBegin = touched == kNotNoted ? m_walkBegin : 0;
        const std::size_t walkEnd = touched == kNotNoted ? m_walkEnd : cells;
        // Into m_touched (not needed on this path), never shrunk: resizing m_occupied to the
        // span and back every filing zeroed the whole span each time.
        if (m_touched.size() < walkEnd - walkBegin) resizeWithRoom(m_touched, walkEnd - walkBegin);
        std::uint32_t* occupied = m_touched.data();
        std::size_t k = 0;
        for (auto c = static_cast<std::uint32_t>(walkBegin); c < walkEnd; ++c) {
            const std::uint32_t n = count[c];
            const std::uint32_t slack = slackFor(n);
            begin[c] = running;
            free[c] = slack;
            occupied[k] = c;
            k += static_cast<std::size_t>(n != 0);
            running += n + slack;
        }
        m_occupied.assign(occupied, occupied + k);
        return running;
    }
    // Sparse: sort the cells that became occupied, then walk only those.
    m_occupied.assign(m_touched.begin(), m_touched.begin() + static_cast<std::ptrdiff_t>(touched));
    sortIndices(m_occupied, m_cellSortScratch, static_cast<std::uint32_t>(cells));
    for (std::uint32_t c : m_occupied) {
        begin[c] = running;
        free[c] = slackFor(count[c]);
        running += count[c] + free[c];
    }
    return running;
}

void UniformGrid::file() {
    if (m_orderPending) writeFilingOrder(m_order);
    m_orderPending = false;
    // The list the count visits: the order of the last filing, then the proxies inserted since,
    // without those removed since (the pair search, or else the next filing, writes the order
    // anew before it is read again). Every id of the order was live at the last filing, so the
    // live flags, a random read a proxy, are read only after a removal.
    m_order.insert(m_order.end(), m_inserted.begin(), m_inserted.end());
    if (!m_removed.empty()) {
        const std::uint8_t* live = m_proxies.liveFlags().data();
        std::erase_if(m_order, [live](std::uint32_t id) { return live[id] == 0; });
    }
    // Pass 1, count (and now and then the size histogram); re-count once if the sizes drifted.
    const std::size_t proxies = m_proxies.size();
    const bool sampleSizes = !m_fixedCellSize && (m_filings % kSizeSampleInterval == 0 ||
                                                  8 * proxies > 9 * m_sampledProxies ||
                                                  9 * proxies < 8 * m_sampledProxies);
    m_filings = sampleSizes ? 1 : m_filings + 1;
    if (sampleSizes) m_sampledProxies = proxies;
    m_refreshes = 0;
    m_displaced = 0;
    std::size_t touched = countCells(sampleSizes);
    const bool drifted = sampleSizes && m_sizes.drifted(m_sizeReference);
    if (drifted) m_sizeReference = m_sizes.medianHalfExtent();
    const bool grew = growToOutliers();
    if (drifted || grew || m_refactor) {
        configure(drifted || m_refactor ? autoCellSize(m_sizeReference, m_cellFactor)
                                        : m_mapping.size());
        touched = countCells(false);
    }
    m_refactor = false;
    const std::size_t allocated = assignOffsets(touched);
    std::size_t total = 0;
    for (std::uint32_t c : m_occupied) total += m_count[c];
    // A dense pile crowds the cells the sizes alone choose: the next filing refines them, or
    // coarsens them again once the pile has spread out (the wide band between the two keeps a
    // world from switching back and forth).
    if (!m_fixedCellSize) {
        const std::size_t occupied = m_occupied.size();
        const float factor =
            m_cellFactor == kAutoCellFactor
                ? (total > kDenseEntries * occupied ? kDenseCellFactor : kAutoCellFactor)
                : (total < kSparseEntries * occupied ? kAutoCellFactor : kDenseCellFactor);
        m_refactor = factor != m_cellFactor;
        m_cellFactor = factor;
    }

    // Pass 2, scatter, in the same order, with m_begin as the cursors (restored below). Each
    // entry is flagged with where its cell lies in its proxy's range: kLaterColumn, kLaterRow.
    // Flag 0 marks the proxy's lower-left ("primary") entry: those, in cell order, are the next
    // filing order.
    const auto columns = static_cast<std::size_t>(m_columns);
    resizeWithRoom(m_entries, allocated + kEntrySlack);
    resizeWithRoom(m_flags, allocated + kEntrySlack);
    CellEntry* entries = m_entries.data();
    std::uint8_t* flags = m_flags.data();
    std::uint32_t* begin = m_begin.data();
    // Writes of the zero-width parts of the 2 x 2 fast path go to a sink entry past the end
    // (the cursor they read may be a stale one of an unoccupied cell; it is not used).
    const auto sink = static_cast<std::uint32_t>(allocated);
    // The cursor when `oneOrZero` is 1, else the sink, by a mask: as conditionals these were
    // compiled to branches, mispredicted whenever boxes that straddle a cell line alternate with
    // boxes that do not.
    const auto pick = [sink](std::uint32_t cursor, std::uint32_t oneOrZero) {
        return sink ^ ((cursor ^ sink) & (0u - oneOrZero));
    };
    // Locals, and the visit's fields read once: the flag stores (bytes) may alias anything, so
    // members and the visit were read again after each of them.
    const Visit* visits = m_visits.data();
    const std::size_t visitCount = m_visitCount;
    for (std::size_t k = 0; k < visitCount; ++k) {
        const CellEntry entry = visits[k].entry;
        std::uint32_t* cell = begin + visits[k].cell;
        const std::uint32_t w = visits[k].width;
        const std::uint32_t h = visits[k].height;
        if ((w | h) <= 1) {
            const std::uint32_t wh = w & h;
            const std::uint32_t at = cell[0];
            const std::uint32_t right = pick(cell[1], w);
            const std::uint32_t up = pick(cell[columns], h);
            const std::uint32_t diagonal = pick(cell[columns + 1], wh);
            cell[0] = at + 1;
            cell[1] += w;
            cell[columns] += h;
            cell[columns + 1] += wh;
            flags[at] = 0;
            entries[at] = entry;
            flags[right] = kLaterColumn;
            entries[right] = entry;
            flags[up] = kLaterRow;
            entries[up] = entry;
            flags[diagonal] = kLaterColumn | kLaterRow;
            entries[diagonal] = entry;
            continue;
        }
        for (std::uint32_t y = 0; y <= h; ++y, cell += columns) {
            for (std::uint32_t x = 0; x <= w; ++x) {
                flags[cell[x]] = static_cast<std::uint8_t>((x != 0 ? kLaterColumn : 0) |
                                                           (y != 0 ? kLaterRow : 0));
                entries[cell[x]++] = entry;
            }
        }
    }
    for (std::uint32_t c : m_occupied) begin[c] -= m_count[c];

    // Only insertions and removals change who is in the filing order; every mark goes at once.
    const auto& live = m_proxies.liveFlags();
    for (std::uint32_t id : m_inserted) m_inOrder[id] = live[id];
    for (std::uint32_t id : m_removed) m_inOrder[id] = live[id];
    m_inserted.clear();
    m_removed.clear();
    cleanDirty();
}

void UniformGrid::cleanDirty() {
    m_dirtyList.clear();
    if (++m_dirtyMark == 0) { // after 2^32 filings: marks of old filings could match again
        std::fill(m_dirty.begin(), m_dirty.end(), 0u);
        m_dirtyMark = 1;
    }
}

void UniformGrid::fileChanges() {
    // A refresh keeps the filing's proxies and layout: none inserted or removed since, no new
    // cell factor due.
    if (m_inserted.empty() && m_removed.empty() && !m_refactor &&
        m_refreshes < kRefreshesPerFiling && refresh())
        return;
    file();
}

bool UniformGrid::refresh() {
    ++m_refreshes;
    const AABB* boxes = m_proxies.boxes().data();
    CellEntry* entries = m_entries.data();
    const std::uint8_t* flags = m_flags.data();
#if defined(__SSE2__)
    const InsideRange inside(m_mapping, m_bounds);
    const auto sameCells = [&](const AABB& was, const AABB& now) {
        return inside.sameCells(was, now);
    };
#else
    const auto sameCells = [&](const AABB& was, const AABB& now) {
        return contains(m_bounds, now) &&
               m_mapping.rangeOfInside(now) == m_mapping.rangeOfInside(was);
    };
#endif
    // Every entry of a proxy holds the box it was filed or last refreshed with, so all of them
    // reach the same verdict; the one in its lower-left cell lists it when its cells changed.
    // The boxes are read by id, prefetched a few entries ahead (as the count does) only when
    // there are too many to stay in the second-level cache between frames: the prefetch took 7
    // of the 57 instructions an entry here, for nothing at 10,000 proxies.
    m_moved.clear();
    constexpr std::size_t kAhead = 16;
    const std::size_t lastEntry = m_entries.size() - 1;
    std::size_t filed = 0;
    const auto visit = [&]<bool kFetchAhead>() {
        for (const std::uint32_t c : m_occupied) {
            const std::uint32_t first = m_begin[c];
            const std::uint32_t end = first + m_count[c];
            filed += m_count[c];
            for (std::uint32_t i = first; i < end; ++i) {
                if constexpr (kFetchAhead)
                    __builtin_prefetch(&boxes[entries[std::min(i + kAhead, lastEntry)].id]);
                CellEntry& entry = entries[i];
                const AABB& box = boxes[entry.id];
                if (sameCells(entry.box, box)) {
                    entry.box = box;
                    continue;
                }
                if (flags[i] == 0) m_moved.push_back({entry.box, box, entry.id});
            }
        }
    };
    if (m_proxies.capacity() * sizeof(AABB) > kUnfetchedBoxBytes)
        visit.template operator()<true>();
    else
        visit.template operator()<false>();
    // Each relocation leaves a valid filing, so file() may take over at any point: when too many
    // proxies have become outliers (whose sweep is not bounded by cells), or when the searches
    // for the moved entries in their old cells have read as many entries as there are (crowded
    // cells crossed by many proxies, which a filing sorts once).
    std::size_t searched = 0;
    for (const Move& move : m_moved) {
        searched += relocate(move);
        if (kDisplacedShare * m_displaced > m_proxies.size() || searched > filed) return false;
    }
    cleanDirty();
    return true;
}

std::size_t UniformGrid::relocate(const Move& move) {
    const std::uint32_t id = move.id;
    const AABB& box = move.box;
    const CellRange from = m_mapping.rangeOfInside(move.was);
    CellRange to = contains(m_bounds, box) ? m_mapping.rangeOfInside(box) : CellRange{};
    // Room in every cell it enters, else it waits among the outliers for the next filing (a
    // cell empty at the filing has no room).
    bool room = true;
    forEachCell(to, [&](std::int32_t x, std::int32_t y) {
        room = room && (from.contains(x, y) || m_free[cellIndex(x, y)] != 0);
    });
    if (!room) to = CellRange{};
    CellEntry* entries = m_entries.data();
    std::uint8_t* flags = m_flags.data();
    // Its entry in cell c (every cell of `from` holds one).
    std::size_t searched = 0;
    const auto entryIn = [&](std::size_t c) {
        const std::uint32_t first = m_begin[c];
        std::uint32_t i = first;
        while (entries[i].id != id) ++i;
        searched += i + 1 - first;
        return i;
    };
    forEachCell(from, [&](std::int32_t x, std::int32_t y) {
        if (to.contains(x, y)) return;
        const std::size_t c = cellIndex(x, y);
        const std::uint32_t i = entryIn(c);
        const std::uint32_t last = m_begin[c] + --m_count[c];
        entries[i] = entries[last];
        flags[i] = flags[last];
        ++m_free[c];
    });
    forEachCell(to, [&](std::int32_t x, std::int32_t y) {
        const std::size_t c = cellIndex(x, y);
        std::uint32_t i = 0;
        if (from.contains(x, y)) {
            i = entryIn(c);
        } else {
            i = m_begin[c] + m_count[c]++;
            --m_free[c];
        }
        entries[i] = {box, id};
        flags[i] = static_cast<std::uint8_t>((x != to.x0 ? kLaterColumn : 0) |
                                             (y != to.y0 ? kLaterRow : 0));
    });
    if (to.x1 < to.x0) {
        m_outliers.push_back(id);
        ++m_displaced;
    }
    return searched;
}

void UniformGrid::writeFilingOrder(std::vector<std::uint32_t>& out) const {
    // One slot of room: each entry is written, and kept only when primary.
    out.resize(m_visitCount + m_outliers.size() + 1);
    std::uint32_t* order = out.data();
    for (std::uint32_t c : m_occupied) {
        const std::uint32_t begin = m_begin[c];
        const std::uint32_t end = begin + m_count[c];
        for (std::uint32_t i = begin; i < end; ++i) {
            *order = m_entries[i].id;
            order += m_flags[i] == 0 ? 1 : 0;
        }
    }
    order = std::copy(m_outliers.begin(), m_outliers.end(), order);
    out.resize(static_cast<std::size_t>(order - out.data()));
}

void UniformGrid::update() {
    if (m_dirtyList.empty()) return;
    fileChanges();
    // The next filing visits the proxies in this one's order: findPairs rebuilds it on its way,
    // else the next file() does first.
    m_orderPending = true;
}

} // namespace rigid2d::detail
