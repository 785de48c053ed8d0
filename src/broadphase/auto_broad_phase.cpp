#include "broadphase/auto_broad_phase.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "broadphase/first_kind.hpp"
#include "broadphase/pair_sort.hpp"
#include "broadphase/proxy_table.hpp"
#include "core/assert.hpp"
#include "core/check.hpp"

namespace rigid2d::detail {

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// What reading the clock twice costs by itself (the least of a few tries): a timed move lasts
// little more than that, so it is taken off each sample.
double clockCostMs() {
    static const double cost = [] {
        double least = 1e9;
        for (int i = 0; i < 64; ++i) least = std::min(least, msSince(Clock::now()));
        return least;
    }();
    return cost;
}

// The kinds tried, in turn, the usual winners first. brute_force is never a contender. The grid
// is tried once the cell array its first search lays out (gridLayoutGuessMs) fits a frame.
constexpr BroadPhaseType kCandidates[] = {
    BroadPhaseType::HierarchicalHash, BroadPhaseType::Grid, BroadPhaseType::SortedGrid,
    BroadPhaseType::SweepAndPrune,    BroadPhaseType::Tree, BroadPhaseType::Quadtree,
    BroadPhaseType::SpatialHash};
// Probes start early (a short run should still find its kind, and the usual winners come first)
// and then space out, the wait doubling after each, up to one every 240 pair searches (4 s at
// 60 Hz) for workloads that change later.
constexpr std::size_t kFirstProbe = 16;
constexpr std::size_t kMaxProbeGap = 240;
/// After a guessed opening the first probe waits this long: the guess is usually right, and a
/// probe costs a few frames.
constexpr std::size_t kOpenedProbeGap = 64;
constexpr int kShadowFrames = 2; ///< pair searches a candidate is compared over, after its first
constexpr double kSwitchBelow = 0.8; ///< hysteresis: the candidate must cost < 80%
constexpr double kGiveUpAbove = 1.5; ///< a candidate costing 1.5 times as much is dropped early
constexpr double kFarAbove = 4.0;    ///< and one costing 4 times as much after its first search
/// A slice of a candidate's build may take this share of the active kind's frame, so no frame
/// costs more than one and a half while a probe builds.
constexpr double kSliceFrames = 0.5;
/// The whole build may cost this many of the active kind's frames; one that runs over is
/// abandoned (a kind dear to build pays only on a workload that runs long at that cost).
constexpr double kBuildFrames = 2.0;
/// A build whose pace so far would cost this many times its budget is abandoned at once.
constexpr double kHopelessPace = 3.0;
/// The grid lays out its cell array in its first search, at once: it is tried only while that
/// costs no more than about one frame.
constexpr double kLayoutFrames = 1.0;
/// The opening kind is chosen once this many proxies are in at a pair search: below, every kind
/// costs next to nothing and the probes decide.
constexpr std::size_t kOpeningFrom = 256;
/// Below this many proxies there are no probes: every kind costs next to nothing, and a probe's
/// allocations would cost more than it could win.
constexpr std::size_t kProbeFrom = 64;
/// Nor while the active kind costs less than this a frame: a switch could win less than that (a
/// 60 Hz frame is 16.7 ms), and a probe's fixed costs would make the run's slowest frames. A
/// kind's first build in a process touches fresh memory: 0.1 to 0.8 ms for 1,000 proxies here,
/// against frames of 0.02 to 0.05 ms.
constexpr double kProbeFloorMs = 0.1;
/// One move in this many is timed while a probe is compared, else one in kMoveSample: a sample
/// reads the clock twice, which costs several times a move itself.
constexpr std::uint32_t kShadowMoveSample = 16;
constexpr std::uint32_t kMoveSample = 256;
constexpr std::uint32_t kQuerySample = 16; ///< one query in this many is timed, during probes
constexpr std::uint32_t kBuildCheck = 32;  ///< inserts between looks at the clock while building

} // namespace

AutoBroadPhase::AutoBroadPhase(const BroadPhaseConfig& config)
    : m_config(config), m_nextProbeAt(kFirstProbe), m_probeGap(kFirstProbe),
      m_probeFloorMs(kProbeFloorMs), m_moveSample(kMoveSample) {
    m_active = build(BroadPhaseType::SpatialHash);
}

// Until it is first built, the grid's cost is guessed from the cell array its first search lays
// out: about 25 ns a cell (8 bytes of fresh pages; 4M cells, the default bound, took 100 to
// 150 ms in a scene's first step). Its automatic cells are twice as wide as a hash's (8 median
// half extents against 4), so with a hash active the number is known; else the bound.
double AutoBroadPhase::gridLayoutGuessMs() const {
    const AABB& bounds = m_config.worldBounds;
    const double width = static_cast<double>(bounds.upper.x) - static_cast<double>(bounds.lower.x);
    const double height = static_cast<double>(bounds.upper.y) - static_cast<double>(bounds.lower.y);
    auto cells = static_cast<double>(m_config.maxGridCells);
    auto edge = static_cast<double>(m_config.cellSize);
    const bool hashActive = m_active.type == BroadPhaseType::SpatialHash ||
                            m_active.type == BroadPhaseType::HierarchicalHash ||
                            m_active.type == BroadPhaseType::SortedGrid;
    if (!(edge > 0.0) && hashActive)
        edge = 2.0 * static_cast<double>(m_active.impl->stats().cellSize);
    if (edge > 0.0) cells = std::min(cells, std::ceil(width / edge) * std::ceil(height / edge));
    return 25e-6 * cells;
}

AutoBroadPhase::Inner AutoBroadPhase::build(BroadPhaseType type) const {
    Inner inner;
    inner.type = type;
    inner.impl = makeBroadPhase(type, m_config);
    static_cast<BuiltInBroadPhase&>(*inner.impl).setWorkers(m_workers);
    const auto& live = m_proxies.liveFlags();
    for (std::uint32_t id = 0; id < m_proxies.capacity(); ++id)
        if (live[id] != 0) insertInto(inner, id, currentBox(id));
    return inner;
}

void AutoBroadPhase::insertInto(Inner& inner, std::uint32_t id, const AABB& box) const {
    const std::uint32_t in = toIndex(inner.impl->insert(box, id));
    if (id >= inner.innerOf.size()) inner.innerOf.resize(id + 1, kNoId);
    if (in >= inner.ourOf.size()) inner.ourOf.resize(in + 1, kNoId);
    inner.innerOf[id] = in;
    inner.ourOf[in] = id;
    inner.sameIds = inner.sameIds && in == id;
}

ProxyId AutoBroadPhase::insert(const AABB& box, std::uint64_t userData) {
    const ProxyId id = m_proxies.insert("AutoBroadPhase::insert", box, userData);
    insertInto(m_active, toIndex(id), box);
    if (m_probe.impl) insertInto(m_probe, toIndex(id), box);
    return id;
}

void AutoBroadPhase::moveIn(Inner& inner, std::uint32_t id, const AABB& box, bool sample) {
    const ProxyId in{inner.innerOf[id]};
    if (!sample) {
        inner.impl->move(in, box);
        return;
    }
    const auto start = Clock::now();
    inner.impl->move(in, box);
    inner.moveMs += m_moveSample * std::max(0.0, msSince(start) - clockCostMs());
}

void AutoBroadPhase::move(ProxyId proxy, const AABB& box) {
    m_proxies.checkLive("AutoBroadPhase::move", proxy);
    const bool sample = --m_movesToSample == 0;
    if (!sample && !comparing()) [[likely]] {
        // The common case, without a call of ours: moves are most of a churning world's broad
        // phase. The active kind checks the box before it changes anything, so it is not
        // checked twice; a refusal is raised again under this function's name.
        try {
            m_active.impl->move(ProxyId{m_active.innerOf[toIndex(proxy)]}, box);
        } catch (const Error&) {
            m_proxies.checkMove("AutoBroadPhase::move", proxy, box);
            throw;
        }
        return;
    }
    m_proxies.checkMove("AutoBroadPhase::move", proxy, box);
    if (sample) m_movesToSample = m_moveSample;
    moveIn(m_active, toIndex(proxy), box, sample);
    if (comparing()) moveIn(m_probe, toIndex(proxy), box, sample);
}

void AutoBroadPhase::moveMany(std::span<const ProxyId> proxies, std::span<const AABB> boxes) {
    m_proxies.checkMoveMany("BroadPhase::moveMany", proxies, boxes);
    moveManyIn(m_active, proxies, boxes);
    if (comparing()) moveManyIn(m_probe, proxies, boxes);
}

void AutoBroadPhase::moveManyIn(Inner& inner, std::span<const ProxyId> proxies,
                                std::span<const AABB> boxes) {
    const auto start = Clock::now();
    // The active kind holds every proxy: with our ids it takes the spans as they are.
    if (&inner == &m_active && inner.sameIds) {
        builtIn(inner).moveChecked(proxies, boxes);
    } else {
        m_innerMoved.clear();
        m_innerBoxes.clear();
        // A candidate is told moves only once built (comparing()): it holds every proxy.
        for (std::size_t i = 0; i < proxies.size(); ++i) {
            const std::uint32_t id = toIndex(proxies[i]);
            R2D_ASSERT(holds(inner, id), "moveMany reached a kind without the proxy");
            m_innerMoved.push_back(ProxyId{inner.innerOf[id]});
            m_innerBoxes.push_back(boxes[i]);
        }
        builtIn(inner).moveChecked(m_innerMoved, m_innerBoxes);
    }
    inner.moveMs += std::max(0.0, msSince(start) - clockCostMs());
}

void AutoBroadPhase::remove(ProxyId proxy) {
    m_proxies.checkLive("AutoBroadPhase::remove", proxy);
    for (Inner* inner : {&m_active, &m_probe}) {
        if (!inner->impl || !holds(*inner, toIndex(proxy))) continue;
        const std::uint32_t in = inner->innerOf[toIndex(proxy)];
        inner->impl->remove(ProxyId{in});
        inner->ourOf[in] = kNoId;
        inner->innerOf[toIndex(proxy)] = kNoId;
    }
    m_proxies.remove(proxy);
}

void AutoBroadPhase::setWorkers(const WorldDef* def) noexcept {
    BuiltInBroadPhase::setWorkers(def);
    for (Inner* inner : {&m_active, &m_probe})
        if (inner->impl) builtIn(*inner).setWorkers(def);
}

BuiltInBroadPhase& AutoBroadPhase::builtIn(const Inner& inner) {
    // Every inner kind is a built-in one (build() makes them with makeBroadPhase).
    return static_cast<BuiltInBroadPhase&>(*inner.impl);
}

double AutoBroadPhase::searchIn(Inner& inner, std::vector<ProxyPair>& out) {
    const auto start = Clock::now();
    if (inner.sameIds) {
        builtIn(inner).collectPairs(out);
    } else {
        builtIn(inner).collectPairs(m_inner);
        out.clear();
        out.reserve(m_inner.size());
        for (const ProxyPair& p : m_inner)
            out.push_back(orderedPair(inner.ourOf[toIndex(p.a)], inner.ourOf[toIndex(p.b)]));
    }
    const double ms = msSince(start);
    inner.searchMs += ms;
    return ms;
}

void AutoBroadPhase::collectPairs(std::vector<ProxyPair>& out) {
    if (!m_chosen) chooseOpening();
    ++m_searches;
    if (comparing() && m_activeSearchMs > 0) {
        // Every kind finds the same pairs, so while a candidate is compared its search is the
        // answer, and the active kind is charged the search it measured before. Searching with
        // both made each compared frame cost the two (a losing candidate: up to 2.5 extra
        // frames at 10k proxies).
        searchIn(m_probe, out);
        m_active.searchMs += m_activeSearchMs;
        ++m_candidateAnswers;
#ifdef RIGID2D_VALIDATE
        const double charged = m_active.searchMs;
        searchIn(m_active, m_shadow); // a check, not the active kind's work
        m_active.searchMs = charged;
        std::vector<ProxyPair> found = out;
        std::sort(found.begin(), found.end());
        std::sort(m_shadow.begin(), m_shadow.end());
        R2D_CHECK(m_shadow == found, "the candidate broad phase found other pairs");
#endif
    } else {
        m_activeSearchSumMs += searchIn(m_active, out);
        ++m_activeSearches;
        if (comparing()) searchIn(m_probe, m_shadow);
    }
    if (!m_inPairsOf) afterSearch();
}

void AutoBroadPhase::collectPairsOf(std::span<const ProxyId> moved, std::vector<ProxyPair>& out) {
    if (!m_chosen) chooseOpening();
    const auto start = Clock::now();
    const std::size_t searches = m_searches;
    m_inPairsOf = true;
    try {
        BuiltInBroadPhase::collectPairsOf(moved, out);
    } catch (...) {
        m_inPairsOf = false;
        throw;
    }
    m_inPairsOf = false;
    // A search by queries: not in searchMs, but the active kind's work all the same.
    if (m_searches == searches) m_queriedMs += msSince(start);
    afterSearch();
}

double AutoBroadPhase::cost(const Inner& inner, int slot) const {
    const double queryMs =
        1e-6 * kQuerySample * static_cast<double>(m_queryNs[slot].load(std::memory_order_relaxed));
    return inner.searchMs + inner.moveMs + queryMs;
}

void AutoBroadPhase::afterSearch() {
    if (!m_probe.impl) {
        if (++m_frame >= m_nextProbeAt && m_proxies.size() >= kProbeFrom) startProbe();
        return;
    }
    if (m_building) return buildSlice();
    ++m_probeFrames;
    const double ratio = cost(m_probe, 1) / std::max(cost(m_active, 0), 1e-9);
    if (m_probeFrames == 1) {
        // Its first search laid out its memory: a few times dearer at most, and not compared.
        if (ratio > kFarAbove) return endProbe();
        return restartTiming();
    }
    if (m_probeFrames > kShadowFrames || ratio > kGiveUpAbove) endProbe();
}

void AutoBroadPhase::restartTiming() {
    m_moveSample = comparing() ? kShadowMoveSample : kMoveSample;
    m_movesToSample = m_moveSample;
    m_active.searchMs = m_active.moveMs = m_queriedMs = 0;
    m_probe.searchMs = m_probe.moveMs = 0;
    m_activeSearchSumMs = 0;
    m_activeSearches = 0;
    m_activeSince = m_frame;
    m_queryNs[0].store(0, std::memory_order_relaxed);
    m_queryNs[1].store(0, std::memory_order_relaxed);
}

void AutoBroadPhase::chooseOpening() {
    if (m_proxies.size() < kOpeningFrom) return;
    m_chosen = true;
    m_probeGap = std::max(m_probeGap, kOpenedProbeGap);
    m_nextProbeAt = m_frame + m_probeGap;
    // The active kind holds the same proxies as ours, with their current boxes.
    const BroadPhaseType type = firstKind(builtIn(m_active).proxies(), m_config);
    if (type == m_active.type) return;
    m_probe = Inner{};
    m_building = false;
    const auto start = Clock::now();
    m_active = build(type);
    m_buildMs[static_cast<std::size_t>(type)] = std::max(msSince(start), 1e-9);
    if (type == BroadPhaseType::Grid) m_gridBuilt = true;
    ++m_switches;
    restartTiming();
}

void AutoBroadPhase::startProbe() {
    // The active kind's cost per frame since the last probe (moves and searches), else as the
    // last probe measured it.
    const std::size_t frames = m_frame - m_activeSince;
    const double work = m_active.searchMs + m_active.moveMs + m_queriedMs;
    const double frameMs =
        frames > 0 && work > 0 ? work / static_cast<double>(frames) : m_activeFrameMs;
    m_probeGap = std::min(2 * m_probeGap, kMaxProbeGap);
    m_nextProbeAt = m_frame + m_probeGap;
    if (frameMs < m_probeFloorMs) {
        // Not worth a probe: the next decision is taken on the frames from here.
        restartTiming();
        return;
    }
    const double budget =
        m_buildByClock ? kBuildFrames * frameMs : std::numeric_limits<double>::infinity();
    // The next kind but the active one whose last build fitted the budget (a kind never built
    // is tried: its cost is unknown until then), the grid only while its layout fits a frame.
    BroadPhaseType type = m_active.type;
    for (std::size_t tries = 0; tries < std::size(kCandidates); ++tries) {
        const BroadPhaseType next = kCandidates[m_nextProbe];
        m_nextProbe = (m_nextProbe + 1) % std::size(kCandidates);
        const double built = m_buildMs[static_cast<std::size_t>(next)];
        const bool layoutFits = next != BroadPhaseType::Grid || m_gridBuilt ||
                                gridLayoutGuessMs() <= kLayoutFrames * frameMs;
        if (next != m_active.type && layoutFits && (built == 0 || built <= budget)) {
            type = next;
            break;
        }
    }
    if (type == m_active.type || budget <= 0) return;
    ++m_probesStarted;
    m_probe = Inner{};
    m_probe.type = type;
    m_probe.impl = makeBroadPhase(type, m_config);
    builtIn(m_probe).setWorkers(m_workers);
    // Room for every proxy: an array that doubled in the middle of a slice copied itself into
    // fresh memory, whose page faults outlasted the slice (a sorted grid's at 4,096 proxies:
    // +0.3 ms in one frame of 0.33).
    builtIn(m_probe).reserve(m_proxies.capacity());
    m_probe.innerOf.reserve(m_proxies.capacity());
    m_probe.ourOf.reserve(m_proxies.capacity());
    m_building = true;
    m_buildCursor = 0;
    m_buildSpentMs = 0;
    m_buildBudgetMs = budget;
    m_sliceMs = kSliceFrames * frameMs;
    buildSlice();
}

void AutoBroadPhase::buildSlice() {
    const auto start = Clock::now();
    const auto& live = m_proxies.liveFlags();
    const std::uint32_t end = m_proxies.capacity();
    const std::uint32_t sliceEnd = m_buildCursor + std::min(m_sliceSlots, end - m_buildCursor);
    while (m_buildCursor < sliceEnd) {
        const std::uint32_t stop = std::min(sliceEnd, m_buildCursor + kBuildCheck);
        for (; m_buildCursor < stop; ++m_buildCursor) {
            // A proxy inserted since the build began is in already.
            if (live[m_buildCursor] != 0 && !holds(m_probe, m_buildCursor))
                insertInto(m_probe, m_buildCursor, currentBox(m_buildCursor));
        }
        if (m_buildByClock && msSince(start) > m_sliceMs) break;
    }
    if (m_buildCursor == end) catchUp();
    m_buildSpentMs += msSince(start);
    const auto slot = static_cast<std::size_t>(m_probe.type);
    if (m_buildCursor < end) {
        // What the whole build costs at this pace. The first slices are the dearest (fresh
        // memory), so a pace a little over the budget may still end within it; one far over
        // will not, and waiting for the budget to run out would cost frames for nothing.
        const double projectedMs = m_buildSpentMs * static_cast<double>(end) / m_buildCursor;
        if (m_buildSpentMs <= m_buildBudgetMs && projectedMs <= kHopelessPace * m_buildBudgetMs)
            return; // more at the next search
        // Abandoned, remembering what the whole build would have cost.
        m_buildMs[slot] = projectedMs;
        m_probe = Inner{};
        m_building = false;
        return;
    }
    m_buildMs[slot] = std::max(m_buildSpentMs, 1e-9);
    if (m_probe.type == BroadPhaseType::Grid) m_gridBuilt = true;
    m_building = false;
    m_probeFrames = 0;
    // The active kind's search, as the searches since the last probe measured it (0 when it
    // answered by queries only: then both kinds search while compared).
    m_activeSearchMs =
        m_activeSearches > 0 ? m_activeSearchSumMs / static_cast<double>(m_activeSearches) : 0.0;
    restartTiming();
}

void AutoBroadPhase::catchUp() {
    // Each proxy went in with its box of that moment; those that have moved since get their
    // boxes now, in one batch.
    m_innerMoved.clear();
    m_innerBoxes.clear();
    const ProxyTable& held = builtIn(m_probe).proxies();
    const auto& live = m_proxies.liveFlags();
    for (std::uint32_t id = 0; id < m_proxies.capacity(); ++id) {
        if (live[id] == 0) continue;
        const ProxyId in{m_probe.innerOf[id]};
        const AABB& now = currentBox(id);
        if (held.box(in) == now) continue;
        m_innerMoved.push_back(in);
        m_innerBoxes.push_back(now);
    }
    builtIn(m_probe).moveChecked(m_innerMoved, m_innerBoxes);
}

void AutoBroadPhase::endProbe() {
    // Over the compared searches (the first is the candidate's layout).
    const int compared = std::max(m_probeFrames - 1, 1);
    const double active = cost(m_active, 0) / compared;
    const double probe = cost(m_probe, 1) / compared;
    m_activeFrameMs = active;
    if (m_probeFrames > 1 && probe < kSwitchBelow * active) {
        m_active = std::move(m_probe);
        m_activeFrameMs = probe;
        ++m_switches;
    }
    m_probe = Inner{};
    restartTiming();
    m_nextProbeAt = m_frame + m_probeGap;
}

void AutoBroadPhase::switchTo(BroadPhaseType type) {
    m_probe = Inner{};
    m_building = false;
    m_chosen = true;
    m_nextProbeAt = m_frame + m_probeGap;
    m_active = build(type);
    ++m_switches;
}

void AutoBroadPhase::query(const AABB& region, FunctionRef<bool(ProxyId)> visit) const {
    requireValidBox("AutoBroadPhase::query", "region", region);
    if (comparing() && m_queryCount.fetch_add(1, std::memory_order_relaxed) % kQuerySample == 0) {
        // Both kinds timed on the bare query: the caller's visits (a time of impact, a pair
        // pushed) cost the same on either and would blur the comparison.
        const auto nothing = [](ProxyId) { return true; };
        const BroadPhase* kinds[] = {m_active.impl.get(), m_probe.impl.get()};
        for (int slot = 0; slot < 2; ++slot) {
            const auto start = Clock::now();
            kinds[slot]->query(region, nothing);
            const double ms = std::max(0.0, msSince(start) - clockCostMs());
            m_queryNs[slot].fetch_add(static_cast<std::int64_t>(ms * 1e6),
                                      std::memory_order_relaxed);
        }
    }
    m_active.impl->query(region,
                         [&](ProxyId in) { return visit(ProxyId{m_active.ourOf[toIndex(in)]}); });
}

void AutoBroadPhase::rayCast(Vec2 origin, Vec2 translation, float maxFraction,
                             FunctionRef<float(ProxyId)> visit) const {
    ProxyTable::checkRay("AutoBroadPhase::rayCast", origin, translation, maxFraction);
    m_active.impl->rayCast(origin, translation, maxFraction,
                           [&](ProxyId in) { return visit(ProxyId{m_active.ourOf[toIndex(in)]}); });
}

void AutoBroadPhase::update() {
    // Timed: some kinds do their filing here rather than in the search.
    for (Inner* inner : {&m_active, &m_probe}) {
        if (!inner->impl || (inner == &m_probe && m_building)) continue;
        const auto start = Clock::now();
        inner->impl->update();
        inner->searchMs += msSince(start);
    }
}

std::size_t AutoBroadPhase::fullSearchFrom() const { return builtIn(m_active).fullSearchFrom(); }

BroadPhaseStats AutoBroadPhase::stats() const {
    BroadPhaseStats s = m_active.impl->stats();
    s.memoryBytes +=
        m_proxies.memoryBytes() +
        (m_active.innerOf.capacity() + m_active.ourOf.capacity()) * sizeof(std::uint32_t);
    s.active = m_active.impl->name();
    s.switches = m_switches;
    return s;
}

AABB AutoBroadPhase::box(ProxyId proxy) const {
    m_proxies.checkLive("AutoBroadPhase::box", proxy);
    return currentBox(toIndex(proxy));
}

std::uint64_t AutoBroadPhase::userData(ProxyId proxy) const {
    m_proxies.checkLive("AutoBroadPhase::userData", proxy);
    return m_proxies.userData(proxy);
}

void AutoBroadPhase::validate() const {
    m_proxies.validate();
    for (const Inner* inner : {&m_active, &m_probe}) {
        if (!inner->impl) continue;
        inner->impl->validate();
        // A candidate being built holds the proxies below the cursor and those inserted since.
        const bool partial = inner == &m_probe && m_building;
        std::size_t held = 0;
        for (std::uint32_t id = 0; id < m_proxies.capacity(); ++id) {
            const bool live = m_proxies.isLive(ProxyId{id});
            R2D_CHECK(live || !holds(*inner, id), "an inner broad phase holds a removed proxy");
            if (!live) continue;
            R2D_CHECK(holds(*inner, id) || (partial && id >= m_buildCursor),
                      "an inner broad phase misses a proxy");
            if (!holds(*inner, id)) continue;
            ++held;
            const std::uint32_t in = inner->innerOf[id];
            R2D_CHECK(inner->ourOf[in] == id, "id maps do not match");
            // (A candidate being built is told the moves at its build's end: catchUp.)
            R2D_CHECK(inner == &m_active || partial ||
                          inner->impl->box(ProxyId{in}) == currentBox(id),
                      "the candidate's box differs from the active kind's");
        }
        R2D_CHECK(inner->impl->size() == held, "an inner broad phase holds other proxies");
    }
}

void AutoBroadPhase::debugDraw(DebugDraw& draw) const { m_active.impl->debugDraw(draw); }

} // namespace rigid2d::detail
