#include "box2d_filters.hpp"

#include <limits>
#include <set>

namespace rigid2d::peers {

Box2dFilters::Box2dFilters(const SceneDesc& scene) {
    std::uint32_t used = 0;
    std::set<std::int32_t> groups;
    for (const BodyDesc& body : scene.bodies)
        for (const ShapeDesc& shape : body.shapes) {
            used |= shape.def.filter.categoryBits;
            if (shape.def.filter.groupIndex != 0) groups.insert(shape.def.filter.groupIndex);
        }
    if (used > 0xFFFFu) {
        int next = 0;
        for (int bit = 0; bit < 32; ++bit) {
            if ((used & (1u << bit)) == 0) continue;
            if (next == 16)
                throw Unrepresentable(
                    "field 'filter.category': the scene uses more than 16 category "
                    "bits; Box2D 2.4 has 16");
            m_bitTo[bit] = next++;
        }
    }
    constexpr std::int32_t lowest = std::numeric_limits<std::int16_t>::min();
    constexpr std::int32_t highest = std::numeric_limits<std::int16_t>::max();
    if (!groups.empty() && (*groups.begin() < lowest || *groups.rbegin() > highest)) {
        // Renumbered keeping each group's sign: only "same group or not" and the sign matter.
        int positive = 0, negative = 0;
        for (const std::int32_t group : groups) {
            const int number = group > 0 ? ++positive : -++negative;
            if (number > highest || number < lowest)
                throw Unrepresentable(
                    "field 'filter.group': more groups than Box2D 2.4's int16 holds");
            m_groupTo[group] = static_cast<std::int16_t>(number);
        }
    }
}

std::uint16_t Box2dFilters::bits(std::uint32_t scene) const {
    if (m_bitTo.empty()) return static_cast<std::uint16_t>(scene & 0xFFFFu);
    std::uint32_t out = 0;
    for (const auto& [from, to] : m_bitTo)
        if ((scene & (1u << from)) != 0) out |= 1u << to;
    return static_cast<std::uint16_t>(out);
}

b2Filter Box2dFilters::map(const Filter& filter) const {
    b2Filter out;
    out.categoryBits = bits(filter.categoryBits);
    out.maskBits = bits(filter.maskBits);
    const auto group = m_groupTo.find(filter.groupIndex);
    out.groupIndex =
        group != m_groupTo.end() ? group->second : static_cast<std::int16_t>(filter.groupIndex);
    return out;
}

} // namespace rigid2d::peers
