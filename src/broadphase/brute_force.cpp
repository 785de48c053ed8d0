#include "broadphase/brute_force.hpp"

#include "broadphase/geometry.hpp"
#include "core/check.hpp"

namespace rigid2d::detail {

ProxyId BruteForce::insert(const AABB& box, std::uint64_t userData) {
    return m_proxies.insert("BruteForce::insert", box, userData);
}

void BruteForce::move(ProxyId proxy, const AABB& box) {
    m_proxies.move("BruteForce::move", proxy, box);
}

void BruteForce::moveChecked(std::span<const ProxyId> proxies, std::span<const AABB> boxes) {
    m_proxies.setCheckedBoxes(proxies, boxes);
}

void BruteForce::remove(ProxyId proxy) {
    m_proxies.checkLive("BruteForce::remove", proxy);
    m_proxies.remove(proxy);
}

void BruteForce::collectPairs(std::vector<ProxyPair>& out) {
    out.clear();
    m_overlapTests = 0;
    const auto& boxes = m_proxies.boxes();
    const auto& live = m_proxies.liveFlags();
    const std::uint32_t count = m_proxies.capacity();
    // Ascending i, then ascending j > i: the output is already in canonical order.
    for (std::uint32_t i = 0; i < count; ++i) {
        if (live[i] == 0) continue;
        for (std::uint32_t j = i + 1; j < count; ++j) {
            if (live[j] == 0) continue;
            ++m_overlapTests;
            if (overlaps(boxes[i], boxes[j])) out.push_back({ProxyId{i}, ProxyId{j}});
        }
    }
}

void BruteForce::query(const AABB& region, FunctionRef<bool(ProxyId)> visit) const {
    requireValidBox("BruteForce::query", "region", region);
    m_proxies.queryAll(region, visit);
}

void BruteForce::rayCast(Vec2 origin, Vec2 translation, float maxFraction,
                         FunctionRef<float(ProxyId)> visit) const {
    ProxyTable::checkRay("BruteForce::rayCast", origin, translation, maxFraction);
    m_proxies.rayCastAll(origin, translation, maxFraction, visit);
}

BroadPhaseStats BruteForce::stats() const {
    BroadPhaseStats s;
    s.active = name();
    s.proxies = m_proxies.size();
    s.overlapTests = m_overlapTests;
    s.memoryBytes = m_proxies.memoryBytes();
    return s;
}

AABB BruteForce::box(ProxyId proxy) const {
    m_proxies.checkLive("BruteForce::box", proxy);
    return m_proxies.box(proxy);
}

std::uint64_t BruteForce::userData(ProxyId proxy) const {
    m_proxies.checkLive("BruteForce::userData", proxy);
    return m_proxies.userData(proxy);
}

} // namespace rigid2d::detail
