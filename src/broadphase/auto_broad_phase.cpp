#include "broadphase/auto_broad_phase.hpp"

#include <algorithm>
#include <cmath>

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
// is tried once the cell array its first search lays out (gridLayoutGuessMs) fits the budget.
constexpr BroadPhaseType kCandidates[] = {
    BroadPhaseType::HierarchicalHash, BroadPhaseType::Grid, BroadPhaseType::SortedGrid,
    BroadPhaseType::SweepAndPrune,    BroadPhaseType::Tree, BroadPhaseType::Quadtree,
    BroadPhaseType::SpatialHash};
// Probes start early (a short run should still find its kind, and the usual winners come first)
// and then space out, the wait doubling after each, up to one every 240 pair searches (4 s at
// 60 Hz) for workloads that change later.
constexpr std::size_t kFirstProbe = 16;
constexpr std::size_t kMaxProbeGap = 240;
constexpr int kShadowFrames = 3;     ///< pair searches a candidate is timed over
constexpr double kSwitchBelow = 0.8; ///< hysteresis: the candidate must cost < 80%
constexpr double kGiveUpAbove = 1.5; ///< a candidate costing 1.5 times as much is dropped early
constexpr double kFarAbove = 4.0;    ///< and one costing 4 times as much after its first search
/// A candidate's building (its inserts and first search) may cost this many of the active kind's
/// frames: switching costs no more than about a step. A build that runs over is abandoned.
constexpr double kBuildFrames = 1.5;
constexpr std::uint32_t kMoveSample = 16;  ///< one move in this many is timed
constexpr std::uint32_t kQuerySample = 16; ///< one query in this many is timed, during probes
constexpr std::uint32_t kBuildCheck = 256; ///< inserts between looks at the clock while building
constexpr std::uint32_t kNone = 0xFFFFFFFFu;

} // namespace

AutoBroadPhase::AutoBroadPhase(const BroadPhaseConfig& config)
    : m_config(config), m_nextProbeAt(kFirstProbe), m_probeGap(kFirstProbe) {
    m_active = build(BroadPhaseType::SpatialHash, 0, nullptr);
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

AutoBroadPhase::Inner AutoBroadPhase::build(BroadPhaseType type, double budgetMs,
                                            double* spentMs) const {
    const auto start = Clock::now();
    Inner inner;
    inner.type = type;
    inner.impl = makeBroadPhase(type, m_config);
    static_cast<BuiltInBroadPhase&>(*inner.impl).setWorkers(m_workers);
    const auto& live = m_proxies.liveFlags();
    const auto& boxes = m_proxies.boxes();
    std::uint32_t inserted = 0;
    for (std::uint32_t id = 0; id < m_proxies.capacity(); ++id) {
        if (live[id] == 0) continue;
        insertInto(inner, id, boxes[id]);
        if (++inserted % kBuildCheck == 0 && budgetMs > 0 && msSince(start) > budgetMs) {
            // Over budget: what the whole build would have cost, by proportion.
            if (spentMs != nullptr)
                *spentMs = msSince(start) * static_cast<double>(m_proxies.size()) / inserted;
            return Inner{};
        }
    }
    if (spentMs != nullptr) *spentMs = msSince(start);
    return inner;
}

void AutoBroadPhase::insertInto(Inner& inner, std::uint32_t id, const AABB& box) const {
    const std::uint32_t in = toIndex(inner.impl->insert(box, id));
    if (id >= inner.innerOf.size()) inner.innerOf.resize(id + 1, kNone);
    if (in >= inner.ourOf.size()) inner.ourOf.resize(in + 1, kNone);
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
    inner.moveMs += kMoveSample * std::max(0.0, msSince(start) - clockCostMs());
}

void AutoBroadPhase::move(ProxyId proxy, const AABB& box) {
    m_proxies.checkMove("AutoBroadPhase::move", proxy, box);
    m_proxies.setBox(proxy, box);
    const bool sample = m_moveCount++ % kMoveSample == 0;
    if (!sample && !m_probe.impl) [[likely]] {
        // The common case, without a call: moves are most of a churning world's broad phase.
        m_active.impl->move(ProxyId{m_active.innerOf[toIndex(proxy)]}, box);
        return;
    }
    moveIn(m_active, toIndex(proxy), box, sample);
    if (m_probe.impl) moveIn(m_probe, toIndex(proxy), box, sample);
}

void AutoBroadPhase::remove(ProxyId proxy) {
    m_proxies.checkLive("AutoBroadPhase::remove", proxy);
    for (Inner* inner : {&m_active, &m_probe}) {
        if (!inner->impl) continue;
        const std::uint32_t in = inner->innerOf[toIndex(proxy)];
        inner->impl->remove(ProxyId{in});
        inner->ourOf[in] = kNone;
        inner->innerOf[toIndex(proxy)] = kNone;
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

void AutoBroadPhase::searchIn(Inner& inner, std::vector<ProxyPair>& out) {
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
    inner.searchMs += msSince(start);
}

void AutoBroadPhase::collectPairs(std::vector<ProxyPair>& out) {
    searchIn(m_active, out);
    if (m_probe.impl) {
        searchIn(m_probe, m_shadow);
#ifdef RIGID2D_VALIDATE
        std::vector<ProxyPair> found = out;
        std::sort(found.begin(), found.end());
        std::sort(m_shadow.begin(), m_shadow.end());
        R2D_CHECK(m_shadow == found, "the candidate broad phase found other pairs");
#endif
    }
    if (!m_inPairsOf) afterSearch();
}

void AutoBroadPhase::collectPairsOf(std::span<const ProxyId> moved, std::vector<ProxyPair>& out) {
    const auto start = Clock::now();
    const double searched = m_active.searchMs;
    m_inPairsOf = true;
    try {
        BuiltInBroadPhase::collectPairsOf(moved, out);
    } catch (...) {
        m_inPairsOf = false;
        throw;
    }
    m_inPairsOf = false;
    // A search by queries: not in searchMs, but the active kind's work all the same.
    if (m_active.searchMs == searched) m_queriedMs += msSince(start);
    afterSearch();
}

double AutoBroadPhase::cost(const Inner& inner, int slot) const {
    const double queryMs =
        1e-6 * kQuerySample * static_cast<double>(m_queryNs[slot].load(std::memory_order_relaxed));
    return inner.searchMs + inner.moveMs + queryMs;
}

void AutoBroadPhase::afterSearch() {
    m_moveCount = 0;
    if (m_probe.impl) {
        ++m_probeFrames;
        // The first search lays out the candidate's memory: a few times dearer at most.
        const double ratio = cost(m_probe, 1) / std::max(cost(m_active, 0), 1e-9);
        if (m_probeFrames >= kShadowFrames || ratio > kFarAbove ||
            (m_probeFrames >= 2 && ratio > kGiveUpAbove))
            endProbe();
    } else if (++m_frame >= m_nextProbeAt) {
        startProbe();
    }
}

void AutoBroadPhase::startProbe() {
    // The active kind's cost per frame since the last probe (moves and searches), else as the
    // last probe measured it.
    const std::size_t frames = m_frame - m_activeSince;
    const double work = m_active.searchMs + m_active.moveMs + m_queriedMs;
    const double frameMs =
        frames > 0 && work > 0 ? work / static_cast<double>(frames) : m_activeFrameMs;
    const double budget = kBuildFrames * frameMs;
    // The next kind but the active one whose last build fitted the budget (a kind never built
    // is tried: its cost is unknown until then).
    BroadPhaseType type = m_active.type;
    if (!m_gridBuilt)
        m_buildMs[static_cast<std::size_t>(BroadPhaseType::Grid)] = gridLayoutGuessMs();
    for (std::size_t tries = 0; tries < std::size(kCandidates); ++tries) {
        const BroadPhaseType next = kCandidates[m_nextProbe];
        m_nextProbe = (m_nextProbe + 1) % std::size(kCandidates);
        const double built = m_buildMs[static_cast<std::size_t>(next)];
        if (next != m_active.type && (built == 0 || built <= budget)) {
            type = next;
            break;
        }
    }
    m_probeGap = std::min(2 * m_probeGap, kMaxProbeGap);
    m_nextProbeAt = m_frame + m_probeGap;
    if (type == m_active.type || budget <= 0) return;
    double spent = 0;
    m_probe = build(type, budget, &spent);
    m_buildMs[static_cast<std::size_t>(type)] = std::max(spent, 1e-9);
    if (type == BroadPhaseType::Grid) m_gridBuilt = true;
    // Both are timed over the same frames.
    m_active.searchMs = m_active.moveMs = m_queriedMs = 0;
    m_activeSince = m_frame;
    m_queryNs[0].store(0, std::memory_order_relaxed);
    m_queryNs[1].store(0, std::memory_order_relaxed);
    m_probeFrames = 0;
}

void AutoBroadPhase::endProbe() {
    const double active = cost(m_active, 0) / std::max(m_probeFrames, 1);
    const double probe = cost(m_probe, 1) / std::max(m_probeFrames, 1);
    m_activeFrameMs = active;
    if (probe < kSwitchBelow * active) {
        m_active = std::move(m_probe);
        m_activeFrameMs = probe;
        ++m_switches;
    }
    m_probe = Inner{};
    m_active.searchMs = m_active.moveMs = m_queriedMs = 0;
    m_activeSince = m_frame;
    m_nextProbeAt = m_frame + m_probeGap;
}

void AutoBroadPhase::switchTo(BroadPhaseType type) {
    m_probe = Inner{};
    m_nextProbeAt = m_frame + m_probeGap;
    m_active = build(type, 0, nullptr);
    ++m_switches;
}

void AutoBroadPhase::query(const AABB& region, FunctionRef<bool(ProxyId)> visit) const {
    requireValidBox("AutoBroadPhase::query", "region", region);
    if (m_probe.impl && m_queryCount.fetch_add(1, std::memory_order_relaxed) % kQuerySample == 0) {
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
        if (!inner->impl) continue;
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
    return m_proxies.box(proxy);
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
        R2D_CHECK(inner->impl->size() == m_proxies.size(),
                  "an inner broad phase holds other proxies");
        for (std::uint32_t id = 0; id < m_proxies.capacity(); ++id) {
            if (!m_proxies.isLive(ProxyId{id})) continue;
            const std::uint32_t in = inner->innerOf[id];
            R2D_CHECK(in != kNone && inner->ourOf[in] == id, "id maps do not match");
            R2D_CHECK(inner->impl->box(ProxyId{in}) == m_proxies.box(ProxyId{id}),
                      "an inner box differs from ours");
        }
    }
}

void AutoBroadPhase::debugDraw(DebugDraw& draw) const { m_active.impl->debugDraw(draw); }

} // namespace rigid2d::detail
