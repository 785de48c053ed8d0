#include "broadphase/auto_broad_phase.hpp"

#include <algorithm>

#include "broadphase/pair_sort.hpp"
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

// The kinds tried, in turn, the usual winners first. brute_force is never a contender.
constexpr BroadPhaseType kCandidates[] = {
    BroadPhaseType::Grid,       BroadPhaseType::HierarchicalHash, BroadPhaseType::SortedGrid,
    BroadPhaseType::Tree,       BroadPhaseType::SweepAndPrune,    BroadPhaseType::Quadtree,
    BroadPhaseType::SpatialHash};
// Probes start early (a short run should still find its kind) and then space out, doubling up
// to one every 240 pair searches (4 s at 60 Hz) for workloads that change later.
constexpr std::size_t kFirstProbe = 16;
constexpr std::size_t kMaxProbeGap = 240;
constexpr int kShadowFrames = 6;          ///< pair searches a candidate is timed over
constexpr double kSwitchBelow = 0.8;      ///< hysteresis: the candidate must cost < 80%
constexpr double kGiveUpAbove = 2.0;      ///< a candidate costing twice as much is dropped at once
constexpr std::uint32_t kMoveSample = 16; ///< one move in this many is timed
constexpr std::uint32_t kNone = 0xFFFFFFFFu;

} // namespace

AutoBroadPhase::AutoBroadPhase(const BroadPhaseConfig& config)
    : m_config(config), m_nextProbeAt(kFirstProbe), m_probeGap(kFirstProbe) {
    m_active = build(BroadPhaseType::SpatialHash);
}

AutoBroadPhase::Inner AutoBroadPhase::build(BroadPhaseType type) const {
    Inner inner;
    inner.type = type;
    inner.impl = makeBroadPhase(type, m_config);
    const auto& live = m_proxies.liveFlags();
    const auto& boxes = m_proxies.boxes();
    for (std::uint32_t id = 0; id < m_proxies.capacity(); ++id)
        if (live[id] != 0) insertInto(inner, id, boxes[id]);
    return inner;
}

void AutoBroadPhase::insertInto(Inner& inner, std::uint32_t id, const AABB& box) const {
    const std::uint32_t in = toIndex(inner.impl->insert(box, id));
    if (id >= inner.innerOf.size()) inner.innerOf.resize(id + 1, kNone);
    if (in >= inner.ourOf.size()) inner.ourOf.resize(in + 1, kNone);
    inner.innerOf[id] = in;
    inner.ourOf[in] = id;
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

BuiltInBroadPhase& AutoBroadPhase::builtIn(const Inner& inner) {
    // Every inner kind is a built-in one (build() makes them with makeBroadPhase).
    return static_cast<BuiltInBroadPhase&>(*inner.impl);
}

void AutoBroadPhase::searchIn(Inner& inner, std::vector<ProxyPair>& out) {
    const auto start = Clock::now();
    builtIn(inner).collectPairs(m_inner);
    out.clear();
    out.reserve(m_inner.size());
    for (const ProxyPair& p : m_inner)
        out.push_back(orderedPair(inner.ourOf[toIndex(p.a)], inner.ourOf[toIndex(p.b)]));
    inner.searchMs += msSince(start);
    ++inner.frames;
}

void AutoBroadPhase::collectPairs(std::vector<ProxyPair>& out) {
    searchIn(m_active, out);
    m_moveCount = 0;
    if (m_probe.impl) {
        std::vector<ProxyPair> shadow;
        searchIn(m_probe, shadow);
#ifdef RIGID2D_VALIDATE
        std::vector<ProxyPair> found = out;
        std::sort(found.begin(), found.end());
        std::sort(shadow.begin(), shadow.end());
        R2D_CHECK(shadow == found, "the candidate broad phase found other pairs");
#endif
        const double probeCost = m_probe.searchMs + m_probe.moveMs;
        const double activeCost = m_active.searchMs + m_active.moveMs;
        if (m_probe.frames >= kShadowFrames ||
            (m_probe.frames >= 2 && probeCost > kGiveUpAbove * activeCost))
            endProbe();
    } else if (++m_frame >= m_nextProbeAt) {
        startProbe();
    }
}

void AutoBroadPhase::startProbe() {
    BroadPhaseType type = kCandidates[m_nextProbe];
    m_nextProbe = (m_nextProbe + 1) % std::size(kCandidates);
    if (type == m_active.type) {
        type = kCandidates[m_nextProbe];
        m_nextProbe = (m_nextProbe + 1) % std::size(kCandidates);
    }
    m_probe = build(type);
    // One untimed search first: a structure's first search allocates and lays out its memory,
    // which would count against it otherwise.
    builtIn(m_probe).collectPairs(m_inner);
    // Both are timed over the same frames.
    m_active.searchMs = m_active.moveMs = 0;
    m_active.frames = 0;
}

void AutoBroadPhase::endProbe() {
    const double active = (m_active.searchMs + m_active.moveMs) / std::max(m_active.frames, 1);
    const double probe = (m_probe.searchMs + m_probe.moveMs) / std::max(m_probe.frames, 1);
    if (probe < kSwitchBelow * active) {
        m_active = std::move(m_probe);
        ++m_switches;
    }
    m_probe = Inner{};
    m_probeGap = std::min(2 * m_probeGap, kMaxProbeGap);
    m_nextProbeAt = m_frame + m_probeGap;
}

void AutoBroadPhase::switchTo(BroadPhaseType type) {
    m_probe = Inner{};
    m_active = build(type);
    ++m_switches;
}

void AutoBroadPhase::query(const AABB& region, FunctionRef<bool(ProxyId)> visit) const {
    requireValidBox("AutoBroadPhase::query", "region", region);
    m_active.impl->query(region,
                         [&](ProxyId in) { return visit(ProxyId{m_active.ourOf[toIndex(in)]}); });
}

void AutoBroadPhase::rayCast(Vec2 origin, Vec2 translation, float maxFraction,
                             FunctionRef<float(ProxyId)> visit) const {
    requireFinite("AutoBroadPhase::rayCast", "origin", origin);
    requireFinite("AutoBroadPhase::rayCast", "translation", translation);
    require(isFinite(maxFraction) && maxFraction >= 0.0f, "AutoBroadPhase::rayCast", "maxFraction",
            "must be finite and >= 0", maxFraction);
    m_active.impl->rayCast(origin, translation, maxFraction,
                           [&](ProxyId in) { return visit(ProxyId{m_active.ourOf[toIndex(in)]}); });
}

void AutoBroadPhase::update() {
    m_active.impl->update();
    if (m_probe.impl) m_probe.impl->update();
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
