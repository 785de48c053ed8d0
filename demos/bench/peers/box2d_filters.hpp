#pragma once
// Box2D 2.4's collision filters have 16 category and mask bits and a 16-bit group; a scene's are
// 32 bits. They map exactly when the scene uses at most 16 distinct category bits (mask bits that
// name no used category never matter) and its groups fit int16 or can be renumbered into it.

#include <box2d/box2d.h>

#include <map>

#include "peer.hpp"

namespace rigid2d::peers {

class Box2dFilters {
public:
    /// Throws Unrepresentable when the scene needs more than Box2D 2.4's 16 bits.
    explicit Box2dFilters(const SceneDesc& scene);
    [[nodiscard]] b2Filter map(const Filter& filter) const;
    [[nodiscard]] bool remappedBits() const { return !m_bitTo.empty(); }
    [[nodiscard]] bool remappedGroups() const { return !m_groupTo.empty(); }

private:
    [[nodiscard]] std::uint16_t bits(std::uint32_t scene) const;
    std::map<int, int> m_bitTo;                     ///< scene bit -> Box2D bit, when remapped
    std::map<std::int32_t, std::int16_t> m_groupTo; ///< when renumbered
};

} // namespace rigid2d::peers
