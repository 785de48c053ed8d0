#include "state/filter_census.hpp"

#include <algorithm>

#include "core/assert.hpp"

namespace rigid2d::detail {

namespace {
[[nodiscard]] std::uint64_t classKey(const Filter& filter) noexcept {
    return std::uint64_t{filter.categoryBits} << 32 | filter.maskBits;
}
} // namespace

void FilterCensus::add(const Filter& filter) {
    const std::uint64_t key = classKey(filter);
    // try_emplace either inserts or throws with the map as it was.
    if (++m_shapesOfClass.try_emplace(key, 0u).first->second == 1) countClass(key, +1);
}

void FilterCensus::remove(const Filter& filter) noexcept {
    const auto found = m_shapesOfClass.find(classKey(filter));
    R2D_ASSERT(found != m_shapesOfClass.end(), "FilterCensus::remove: a filter never added");
    if (found == m_shapesOfClass.end()) return;
    if (--found->second > 0) return;
    m_shapesOfClass.erase(found);
    countClass(classKey(filter), -1);
}

void FilterCensus::refresh() noexcept {
    if (!m_classesChanged) return;
    m_classesChanged = false;
    m_someAdmitNone = std::any_of(m_shapesOfClass.begin(), m_shapesOfClass.end(), [&](auto& c) {
        return admitsNone({.categoryBits = static_cast<std::uint32_t>(c.first >> 32),
                           .maskBits = static_cast<std::uint32_t>(c.first)});
    });
}

void FilterCensus::countClass(std::uint64_t key, int delta) noexcept {
    m_classesChanged = true;
    const auto category = static_cast<std::uint32_t>(key >> 32);
    const auto mask = static_cast<std::uint32_t>(key);
    for (std::uint32_t c = category; c != 0; c &= c - 1) {
        const auto cBit = static_cast<unsigned>(std::countr_zero(c));
        for (std::uint32_t m = mask; m != 0; m &= m - 1) {
            const auto mBit = static_cast<unsigned>(std::countr_zero(m));
            std::uint32_t& classes = m_classesWith[cBit][mBit];
            classes = delta > 0 ? classes + 1 : classes - 1;
            if (classes == 0)
                m_categoriesMasking[mBit] &= ~(1u << cBit);
            else
                m_categoriesMasking[mBit] |= 1u << cBit;
        }
    }
}

} // namespace rigid2d::detail
