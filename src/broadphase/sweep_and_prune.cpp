#include "broadphase/sweep_and_prune.hpp"

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <limits>

#include "broadphase/geometry.hpp"
#include "broadphase/pair_sort.hpp"
#include "core/assert.hpp"
#include "core/check.hpp"
#include "core/float_range.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rigid2d::detail {

namespace {
// Re-choose the sweep axis every this many updates (a pass over all boxes), and switch
// only when the other axis spreads this much more, so two similar spreads do not flip-flop
// (every switch re-sorts from scratch).
constexpr std::uint32_t kAxisCheckPeriod = 16;
constexpr double kAxisSwitchRatio = 1.5;
// Endpoints ahead whose box is prefetched in the passes that read boxes in sweep order.
constexpr std::size_t kPrefetchDistance = 16;

// Writes to `hits` the indices j < count with lower[j] <= hi && lo <= upper[j]; returns how many.
// This is the sweep's inner loop (about a hundred open intervals per new one in dense scenes),
// four lanes at a time where SSE2 is available, branch-free otherwise.
std::size_t overlappingSlots(const float* lower, const float* upper, std::size_t count, float lo,
                             float hi, std::uint32_t* hits) {
    std::size_t hitCount = 0;
    std::size_t j = 0;
#if defined(__SSE2__)
    const __m128 his = _mm_set1_ps(hi);
    const __m128 los = _mm_set1_ps(lo);
    for (; j + 4 <= count; j += 4) {
        const __m128 inLower = _mm_cmple_ps(_mm_loadu_ps(lower + j), his);
        const __m128 inUpper = _mm_cmple_ps(los, _mm_loadu_ps(upper + j));
        auto mask = static_cast<unsigned>(_mm_movemask_ps(_mm_and_ps(inLower, inUpper)));
        while (mask != 0) {
            hits[hitCount++] =
                static_cast<std::uint32_t>(j) + static_cast<std::uint32_t>(std::countr_zero(mask));
            mask &= mask - 1;
        }
    }
#endif
    for (; j < count; ++j) {
        hits[hitCount] = static_cast<std::uint32_t>(j);
        hitCount += static_cast<std::size_t>((lower[j] <= hi) & (lo <= upper[j]));
    }
    return hitCount;
}

constexpr std::uint32_t minTag(std::uint32_t proxy) noexcept { return proxy << 1; }
constexpr std::uint32_t maxTag(std::uint32_t proxy) noexcept { return proxy << 1 | 1u; }
} // namespace

void SweepAndPrune::reserve(std::size_t proxies) {
    BuiltInBroadPhase::reserve(proxies);
    m_openSlot.reserve(proxies);
    m_flags.reserve(proxies);
    m_pending.reserve(proxies);
}

ProxyId SweepAndPrune::insert(const AABB& box, std::uint64_t userData) {
    const ProxyId id = m_proxies.insert("SweepAndPrune::insert", box, userData);
    const auto index = toIndex(id);
    require(index < (1u << 31), "SweepAndPrune::insert", "proxy count", "exceeds 2^31");
    if (index >= m_flags.size()) {
        m_flags.resize(index + 1, 0);
        m_openSlot.resize(index + 1, 0);
    }
    m_flags[index] |= kPendingInsert;
    m_pending.push_back(index);
    m_dirty = true;
    return id;
}

void SweepAndPrune::move(ProxyId proxy, const AABB& box) {
    m_proxies.move("SweepAndPrune::move", proxy, box);
    m_dirty = true;
}

void SweepAndPrune::moveChecked(std::span<const ProxyId> proxies, std::span<const AABB> boxes) {
    m_proxies.setCheckedBoxes(proxies, boxes);
    m_dirty = m_dirty || !proxies.empty();
}

void SweepAndPrune::remove(ProxyId proxy) {
    m_proxies.checkLive("SweepAndPrune::remove", proxy);
    const auto index = toIndex(proxy);
    if ((m_flags[index] & kPendingInsert) != 0) {
        m_flags[index] &= static_cast<std::uint8_t>(~kPendingInsert); // never reached the array
    } else {
        m_flags[index] |= kStale;
        m_stale.push_back(index);
    }
    m_proxies.remove(proxy);
    m_dirty = true;
}

void SweepAndPrune::update() {
    if (!m_dirty) return;
    if (!m_stale.empty()) {
        std::erase_if(m_endpoints,
                      [&](const Endpoint& e) { return (m_flags[e.proxy()] & kStale) != 0; });
        for (auto index : m_stale) m_flags[index] &= static_cast<std::uint8_t>(~kStale);
        m_stale.clear();
    }
    const std::size_t sortedPrefix = m_endpoints.size();
    for (auto index : m_pending) {
        if ((m_flags[index] & kPendingInsert) == 0) continue; // removed again, or a duplicate
        m_flags[index] &= static_cast<std::uint8_t>(~kPendingInsert);
        m_endpoints.push_back({0.0f, minTag(index)});
        m_endpoints.push_back({0.0f, maxTag(index)});
    }
    m_pending.clear();
    const int previousAxis = m_axis;
    chooseAxis();
    refreshValues();
    sortEndpoints(sortedPrefix, m_axis != previousAxis);
    m_dirty = false;
    ++m_updateCount;
}

void SweepAndPrune::chooseAxis() {
    const std::size_t count = m_proxies.size();
    const bool sizeDrifted = count > 2 * m_sizeAtAxisChoice || 2 * count < m_sizeAtAxisChoice;
    if (m_updateCount % kAxisCheckPeriod != 0 && !sizeDrifted) return;
    m_sizeAtAxisChoice = count;
    if (count < 2) return;
    // Variance of the centres per axis, in double so that +-1e6 coordinates do not cancel.
    double sum[2] = {0, 0};
    double sumSq[2] = {0, 0};
    const auto& boxes = m_proxies.boxes();
    const auto& live = m_proxies.liveFlags();
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        if (live[i] == 0) continue;
        for (int axis = 0; axis < 2; ++axis) {
            const double c = 0.5 * (double(boxes[i].lower[axis]) + double(boxes[i].upper[axis]));
            sum[axis] += c;
            sumSq[axis] += c * c;
        }
    }
    const double n = double(count);
    const double spread0 = sumSq[0] / n - (sum[0] / n) * (sum[0] / n);
    const double spread1 = sumSq[1] / n - (sum[1] / n) * (sum[1] / n);
    const double current = m_axis == 0 ? spread0 : spread1;
    const double other = m_axis == 0 ? spread1 : spread0;
    if (other > kAxisSwitchRatio * current) m_axis = 1 - m_axis;
}

void SweepAndPrune::refreshValues() {
    const AABB* boxes = m_proxies.boxes().data();
    const int axis = m_axis;
    double maxWidth = 0.0;
    Endpoint* endpoints = m_endpoints.data();
    const std::size_t endpointCount = m_endpoints.size();
    for (std::size_t i = 0; i < endpointCount; ++i) {
        if (i + kPrefetchDistance < endpointCount)
            __builtin_prefetch(&boxes[endpoints[i + kPrefetchDistance].proxy()]);
        Endpoint& e = endpoints[i];
        const AABB& b = boxes[e.proxy()];
        e.value = e.isMax() ? b.upper[axis] : b.lower[axis];
        maxWidth = std::max(maxWidth, double(b.upper[axis]) - double(b.lower[axis]));
    }
    m_maxWidth = maxWidth;
}

void SweepAndPrune::sortEndpoints(std::size_t sortedPrefix, bool fromScratch) {
    if (fromScratch) {
        std::sort(m_endpoints.begin(), m_endpoints.end());
        return;
    }
    // The old endpoints were sorted by last frame's values: insertion sort moves each only past
    // the few endpoints it overtook since.
    Endpoint* e = m_endpoints.data();
    for (std::size_t i = 1; i < sortedPrefix; ++i) {
        const Endpoint key = e[i];
        std::size_t j = i;
        while (j > 0 && key < e[j - 1]) {
            e[j] = e[j - 1];
            --j;
        }
        e[j] = key;
    }
    if (sortedPrefix == m_endpoints.size()) return;
    // New endpoints: sort them alone, then merge the two sorted runs.
    const auto middle = m_endpoints.begin() + static_cast<std::ptrdiff_t>(sortedPrefix);
    std::sort(middle, m_endpoints.end());
    m_scratch.resize(m_endpoints.size());
    std::merge(m_endpoints.begin(), middle, middle, m_endpoints.end(), m_scratch.begin());
    m_endpoints.swap(m_scratch);
}

// The sweep:
//   for each endpoint in order:
//     max: close its interval (swap-remove from the open set)
//     min: test the proxy's other-axis extent against every open interval, then open it
// Every open interval overlaps the new one on the sweep axis (it began earlier and has not ended,
// and a min sorts before a max at equal values), so the other axis decides exactly.
void SweepAndPrune::sweep(std::vector<ProxyPair>& out) {
    const AABB* boxes = m_proxies.boxes().data();
    const int other = 1 - m_axis;
    std::uint32_t* slots = m_openSlot.data();
    // The open set as three parallel arrays, sized for the worst case once, so the inner loop
    // is a branch-free scan (a short-circuit test would mispredict half the time).
    const std::size_t capacity = m_proxies.size() + 1;
    if (m_openLower.size() < capacity) {
        m_openLower.resize(capacity);
        m_openUpper.resize(capacity);
        m_openProxy.resize(capacity);
        m_hits.resize(capacity);
    }
    float* openLower = m_openLower.data();
    float* openUpper = m_openUpper.data();
    std::uint32_t* openProxy = m_openProxy.data();
    std::uint32_t* hits = m_hits.data();
    std::size_t openCount = 0;
    std::size_t tests = 0;
    const Endpoint* endpoints = m_endpoints.data();
    const std::size_t endpointCount = m_endpoints.size();
    for (std::size_t i = 0; i < endpointCount; ++i) {
        // Proxy ids are in no spatial order: fetch the box needed a few endpoints ahead.
        if (i + kPrefetchDistance < endpointCount)
            __builtin_prefetch(&boxes[endpoints[i + kPrefetchDistance].proxy()]);
        const Endpoint& e = endpoints[i];
        const std::uint32_t proxy = e.proxy();
        if (e.isMax()) {
            const std::uint32_t slot = slots[proxy];
            --openCount;
            openLower[slot] = openLower[openCount];
            openUpper[slot] = openUpper[openCount];
            openProxy[slot] = openProxy[openCount];
            slots[openProxy[slot]] = slot;
            continue;
        }
        const float lo = boxes[proxy].lower[other];
        const float hi = boxes[proxy].upper[other];
        const std::size_t hitCount =
            overlappingSlots(openLower, openUpper, openCount, lo, hi, hits);
        tests += openCount;
        for (std::size_t h = 0; h < hitCount; ++h) {
            const std::uint32_t partner = openProxy[hits[h]];
            out.push_back(proxy < partner ? ProxyPair{ProxyId{proxy}, ProxyId{partner}}
                                          : ProxyPair{ProxyId{partner}, ProxyId{proxy}});
        }
        slots[proxy] = static_cast<std::uint32_t>(openCount);
        openLower[openCount] = lo;
        openUpper[openCount] = hi;
        openProxy[openCount] = proxy;
        ++openCount;
    }
    m_overlapTests = tests;
}

void SweepAndPrune::collectPairs(std::vector<ProxyPair>& out) {
    out.clear();
    update();
    sweep(out);
}

template <class Visit>
void SweepAndPrune::forCandidates(float lo, float hi, Visit&& visit) const {
    if (m_dirty) {
        // The array lags behind the boxes: every live proxy is a candidate.
        const auto& live = m_proxies.liveFlags();
        for (std::uint32_t i = 0; i < m_proxies.capacity(); ++i)
            if (live[i] != 0 && !visit(i)) return;
        return;
    }
    // An interval overlapping [lo, hi] starts at or after lo - (widest interval); the small
    // relative margin absorbs the rounding of that bound.
    const double start = double(lo) - m_maxWidth - (std::fabs(double(lo)) + m_maxWidth) * 1e-12;
    auto it = std::lower_bound(m_endpoints.begin(), m_endpoints.end(), start,
                               [](const Endpoint& e, double v) { return double(e.value) < v; });
    for (; it != m_endpoints.end() && it->value <= hi; ++it) {
        if (!it->isMax() && !visit(it->proxy())) return;
    }
}

void SweepAndPrune::query(const AABB& region, FunctionRef<bool(ProxyId)> visit) const {
    requireValidBox("SweepAndPrune::query", "region", region);
    const auto& boxes = m_proxies.boxes();
    forCandidates(region.lower[m_axis], region.upper[m_axis], [&](std::uint32_t index) {
        return !overlaps(boxes[index], region) || visit(ProxyId{index});
    });
}

void SweepAndPrune::rayCast(Vec2 origin, Vec2 translation, float maxFraction,
                            FunctionRef<float(ProxyId)> visit) const {
    ProxyTable::checkRay("SweepAndPrune::rayCast", origin, translation, maxFraction);
    // The segment's extent on the sweep axis, widened by far more than the rounding of the exact
    // test, so that pruning never drops a box the exact test would touch.
    // In double, clamped to the float range: a segment from near the float's reach would
    // overflow a float sum (every box lies within the range, so the clamp drops none).
    const double p = origin[m_axis];
    const double d = double{translation[m_axis]} * double{maxFraction};
    const double margin = (std::fabs(p) + std::fabs(d)) * 1e-5 + double{FLT_MIN};
    const float lo = clampToFloat(std::min(p, p + d) - margin);
    const float hi = clampToFloat(std::max(p, p + d) + margin);
    const auto& boxes = m_proxies.boxes();
    forCandidates(lo, hi, [&](std::uint32_t index) {
        if (!segmentTouchesBox(origin, translation, maxFraction, boxes[index])) return true;
        maxFraction = visit(ProxyId{index});
        return maxFraction > 0.0f;
    });
}

BroadPhaseStats SweepAndPrune::stats() const {
    BroadPhaseStats s;
    s.active = name();
    s.proxies = m_proxies.size();
    s.cells = m_endpoints.size();
    s.overlapTests = m_overlapTests;
    s.memoryBytes = m_proxies.memoryBytes() +
                    (m_endpoints.capacity() + m_scratch.capacity()) * sizeof(Endpoint) +
                    (m_openLower.capacity() + m_openUpper.capacity()) * sizeof(float) +
                    (m_openSlot.capacity() + m_openProxy.capacity() + m_hits.capacity() +
                     m_pending.capacity() + m_stale.capacity()) *
                        sizeof(std::uint32_t) +
                    m_flags.capacity() + pairScratchBytes();
    return s;
}

AABB SweepAndPrune::box(ProxyId proxy) const {
    m_proxies.checkLive("SweepAndPrune::box", proxy);
    return m_proxies.box(proxy);
}

std::uint64_t SweepAndPrune::userData(ProxyId proxy) const {
    m_proxies.checkLive("SweepAndPrune::userData", proxy);
    return m_proxies.userData(proxy);
}

void SweepAndPrune::validate() const {
    m_proxies.validate();
    const std::uint32_t capacity = m_proxies.capacity();
    R2D_CHECK(m_flags.size() == capacity && m_openSlot.size() == capacity,
              "per-proxy arrays out of step");
    // Each proxy has both endpoints in the array exactly when it is live and was brought in by an
    // update, or when it was removed (or removed and re-inserted) since: then its old ones await
    // removal.
    std::vector<std::uint32_t> minAt(capacity, std::numeric_limits<std::uint32_t>::max());
    std::vector<std::uint32_t> maxAt(capacity, std::numeric_limits<std::uint32_t>::max());
    for (std::uint32_t i = 0; i < m_endpoints.size(); ++i) {
        const Endpoint& e = m_endpoints[i];
        R2D_CHECK(e.proxy() < capacity, "endpoint names an id never handed out");
        auto& at = e.isMax() ? maxAt : minAt;
        R2D_CHECK(at[e.proxy()] == std::numeric_limits<std::uint32_t>::max(), "duplicate endpoint");
        at[e.proxy()] = i;
    }
    std::size_t staleCount = 0;
    for (std::uint32_t p = 0; p < capacity; ++p) {
        const bool live = m_proxies.isLive(ProxyId{p});
        const bool pending = (m_flags[p] & kPendingInsert) != 0;
        const bool stale = (m_flags[p] & kStale) != 0;
        R2D_CHECK(!pending || live, "a removed proxy is still pending insertion");
        staleCount += stale ? 1 : 0;
        const bool expected = stale || (live && !pending);
        const bool hasMin = minAt[p] != std::numeric_limits<std::uint32_t>::max();
        const bool hasMax = maxAt[p] != std::numeric_limits<std::uint32_t>::max();
        R2D_CHECK(hasMin == expected && hasMax == expected,
                  "endpoints present for the wrong proxies");
        if (!m_dirty && expected) R2D_CHECK(minAt[p] < maxAt[p], "max endpoint sorted before min");
    }
    R2D_CHECK(staleCount == m_stale.size(), "stale list out of step with the flags");
    if (m_dirty) return;
    R2D_CHECK(m_pending.empty() && m_stale.empty(), "clean array with pending changes");
    const auto& boxes = m_proxies.boxes();
    for (std::size_t i = 0; i < m_endpoints.size(); ++i) {
        const Endpoint& e = m_endpoints[i];
        const AABB& b = boxes[e.proxy()];
        R2D_CHECK(e.value == (e.isMax() ? b.upper[m_axis] : b.lower[m_axis]),
                  "endpoint value is stale");
        R2D_CHECK(double(b.upper[m_axis]) - double(b.lower[m_axis]) <= m_maxWidth,
                  "widest interval is wrong");
        if (i > 0) R2D_CHECK(!(e < m_endpoints[i - 1]), "endpoints out of order");
    }
}

void SweepAndPrune::debugDraw(DebugDraw& draw) const {
    // Each proxy's sweep-axis interval as a thin box along its lower edge.
    const Color color{0.9f, 0.6f, 0.1f, 1.0f};
    const auto& boxes = m_proxies.boxes();
    const auto& live = m_proxies.liveFlags();
    const int other = 1 - m_axis;
    for (std::uint32_t i = 0; i < m_proxies.capacity(); ++i) {
        if (live[i] == 0) continue;
        AABB interval = boxes[i];
        interval.upper[other] = interval.lower[other];
        if (draw.useCullRegion && !overlaps(interval, draw.cullRegion)) continue;
        draw.drawAABB(interval, color);
    }
}

} // namespace rigid2d::detail
