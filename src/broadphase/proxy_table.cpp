#include "broadphase/proxy_table.hpp"

#include <string>

#include "broadphase/geometry.hpp"
#include "core/assert.hpp"
#include "core/check.hpp"

namespace rigid2d::detail {

ProxyId ProxyTable::insert(std::string_view function, const AABB& box, std::uint64_t userData) {
    requireValidBox(function, "box", box);
    std::uint32_t index;
    if (!m_free.empty()) {
        index = m_free.back();
        m_free.pop_back();
        m_boxes[index] = box;
        m_userData[index] = userData;
        m_live[index] = 1;
    } else {
        index = static_cast<std::uint32_t>(m_boxes.size());
        require(index < toIndex(ProxyId::Null), function, "proxy count", "exceeds 2^32 - 1");
        m_boxes.push_back(box);
        m_userData.push_back(userData);
        m_live.push_back(1);
    }
    ++m_size;
    return static_cast<ProxyId>(index);
}

void ProxyTable::refuseNotLive(std::string_view function, ProxyId proxy) const {
    refuse(function, "proxy",
           "is not a live proxy id (" + std::to_string(toIndex(proxy)) +
               (toIndex(proxy) < m_live.size() ? ": removed)" : ": never inserted)"));
}

void ProxyTable::refuseBox(std::string_view function, const AABB& box) {
    requireValidBox(function, "box", box);
    refuse(function, "box", "is invalid"); // not reached: requireValidBox refuses first
}

void ProxyTable::remove(ProxyId proxy) {
    const auto index = toIndex(proxy);
    m_live[index] = 0;
    m_free.push_back(index);
    --m_size;
}

std::size_t ProxyTable::memoryBytes() const noexcept {
    return m_boxes.capacity() * sizeof(AABB) + m_userData.capacity() * sizeof(std::uint64_t) +
           m_live.capacity() + m_free.capacity() * sizeof(std::uint32_t);
}

void ProxyTable::validate() const {
    R2D_CHECK(m_boxes.size() == m_live.size() && m_boxes.size() == m_userData.size(),
              "proxy arrays out of step");
    R2D_CHECK(m_size + m_free.size() == m_live.size(), "live + free != slots");
    for (auto index : m_free)
        R2D_CHECK(index < m_live.size() && m_live[index] == 0, "free id is live");
    for (std::size_t i = 0; i < m_live.size(); ++i) {
        if (m_live[i] != 0) R2D_CHECK(isValid(m_boxes[i]), "stored box is invalid");
    }
}

void ProxyTable::checkRay(std::string_view function, Vec2 origin, Vec2 translation,
                          float maxFraction) {
    requireFinite(function, "origin", origin);
    requireFinite(function, "translation", translation);
    require(isFinite(maxFraction) && maxFraction >= 0.0f, function, "maxFraction",
            "must be finite and >= 0", maxFraction);
}

void ProxyTable::queryAll(const AABB& region, FunctionRef<bool(ProxyId)> visit) const {
    for (std::uint32_t i = 0; i < capacity(); ++i) {
        if (m_live[i] != 0 && overlaps(m_boxes[i], region) && !visit(ProxyId{i})) return;
    }
}

void ProxyTable::rayCastAll(Vec2 origin, Vec2 translation, float maxFraction,
                            FunctionRef<float(ProxyId)> visit) const {
    for (std::uint32_t i = 0; i < capacity(); ++i) {
        if (m_live[i] == 0 || !segmentTouchesBox(origin, translation, maxFraction, m_boxes[i]))
            continue;
        maxFraction = visit(ProxyId{i});
        if (maxFraction <= 0.0f) return;
    }
}

} // namespace rigid2d::detail
