#include "broadphase/proxy_table.hpp"

#include <algorithm>
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

std::string ProxyTable::notLiveReason(ProxyId proxy) const {
    return "is not a live proxy id (" + std::to_string(toIndex(proxy)) +
           (toIndex(proxy) < m_live.size() ? ": removed)" : ": never inserted)");
}

void ProxyTable::refuseNotLive(std::string_view function, ProxyId proxy) const {
    refuse(function, "proxy", notLiveReason(proxy));
}

void ProxyTable::refuseBox(std::string_view function, const AABB& box) {
    requireValidBox(function, "box", box);
    refuse(function, "box", "is invalid"); // not reached: requireValidBox refuses first
}

void ProxyTable::refuseSizes(std::string_view function, std::size_t proxies, std::size_t boxes) {
    refuse(function, "boxes",
           "holds " + std::to_string(boxes) + " boxes for " + std::to_string(proxies) +
               " proxies (one each)");
}

bool ProxyTable::allLiveAndValid(std::span<const ProxyId> proxies,
                                 std::span<const AABB> boxes) const noexcept {
    if (proxies.empty()) return true;
    if (m_live.empty()) return false;
    // Flags and masks gathered over the whole batch and tested once: a branch per proxy costs
    // as much as the tests themselves (moveMany exists to take the per-proxy cost away).
    const std::uint8_t* live = m_live.data();
    const auto last = static_cast<std::uint32_t>(m_live.size() - 1);
    std::uint32_t dead = 0;
#if defined(__SSE2__)
    const __m128i exponent = _mm_set1_epi32(0x7f800000);
    __m128i nonFinite = _mm_setzero_si128();
    __m128 reversed = _mm_setzero_ps();
#else
    bool invalid = false;
#endif
    for (std::size_t i = 0; i < proxies.size(); ++i) {
        const std::uint32_t id = toIndex(proxies[i]);
        dead |= static_cast<std::uint32_t>(id > last) |
                static_cast<std::uint32_t>(live[std::min(id, last)] == 0);
#if defined(__SSE2__)
        // isValidBox's tests, kept in registers: an exponent of all ones (NaN, infinity) in any
        // lane, and upper < lower (lanes 0 and 1; lanes 2 and 3 compare a value with itself).
        // The comparison sees those lanes as 0, so a NaN never reaches it (it would raise the
        // invalid-operation flag, a trap where traps are on).
        const __m128 fields = _mm_loadu_ps(&boxes[i].lower.x);
        const __m128i special =
            _mm_cmpeq_epi32(_mm_and_si128(_mm_castps_si128(fields), exponent), exponent);
        nonFinite = _mm_or_si128(nonFinite, special);
        const __m128 finite = _mm_andnot_ps(_mm_castsi128_ps(special), fields);
        reversed = _mm_or_ps(reversed, _mm_cmplt_ps(_mm_movehl_ps(finite, finite), finite));
#else
        invalid = invalid || !isValid(boxes[i]);
#endif
    }
#if defined(__SSE2__)
    const bool invalid = _mm_movemask_epi8(nonFinite) != 0 || _mm_movemask_ps(reversed) != 0;
#endif
    return dead == 0 && !invalid;
}

void ProxyTable::refuseMoveMany(std::string_view function, std::span<const ProxyId> proxies,
                                std::span<const AABB> boxes) const {
    for (std::size_t i = 0; i < proxies.size(); ++i) {
        if (!isLive(proxies[i])) refuse(function, fieldAt("proxies", i), notLiveReason(proxies[i]));
        requireValidBox(function, fieldAt("boxes", i), boxes[i]);
    }
    refuse(function, "proxies", "were refused, but each passes its checks"); // not reached
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
