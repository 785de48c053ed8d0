#pragma once
// Which collision filters the world's shapes carry, so that the pair search can leave out a moved
// shape whose filter admits no shape of the world: every candidate pair it would find fails
// shouldCollide, and in a world of such shapes (links of a jointed net that never touch one
// another, debris that meets only a ground since removed) finding them was the pair stage's whole
// cost. Leaving them out changes no result: only pairs that shouldCollide refuses are skipped.

#include <array>
#include <bit>
#include <cstdint>
#include <unordered_map>

#include "rigid2d/types.hpp"

namespace rigid2d::detail {

class FilterCensus {
public:
    /// A shape with this filter joins the world. May throw (a new filter class), leaving the
    /// census unchanged.
    void add(const Filter& filter);
    /// A shape with this filter, once added, leaves the world.
    void remove(const Filter& filter) noexcept;

    /// True when no shape of the world (the asking one included) has a category bit in the
    /// filter's mask and a mask bit in its category, so that the masks refuse every pair. A
    /// positive group collides within itself whatever the masks say, so never admits none; a
    /// negative group only refuses more pairs, and is left out.
    [[nodiscard]] bool admitsNone(const Filter& filter) const noexcept {
        if (filter.groupIndex > 0) return false;
        std::uint32_t partners = 0;
        for (std::uint32_t bits = filter.categoryBits; bits != 0; bits &= bits - 1)
            partners |= m_categoriesMasking[static_cast<unsigned>(std::countr_zero(bits))];
        return (partners & filter.maskBits) == 0;
    }

    /// Whether some class of the world admits none: when none does, the pair stage need not
    /// read any shape's filter (a line of the shape record it would not otherwise touch). Up to
    /// date after refresh().
    [[nodiscard]] bool someAdmitNone() const noexcept { return m_someAdmitNone; }
    /// Brings someAdmitNone up to date after classes came or went: once per step at most, so
    /// that shapes of new classes made and destroyed in numbers cost no walk of the classes each.
    void refresh() noexcept;

private:
    // The classes' bit pairs are counted, not the shapes', so that a shape costs one lookup and
    // only a class's arrival or departure walks its bits (up to 32 x 32).
    void countClass(std::uint64_t key, int delta) noexcept;

    std::unordered_map<std::uint64_t, std::uint32_t> m_shapesOfClass; ///< (category, mask) -> n
    /// [c][m]: classes with category bit c and mask bit m.
    std::array<std::array<std::uint32_t, 32>, 32> m_classesWith{};
    /// Bit c of [m]: some class has category bit c and mask bit m.
    std::array<std::uint32_t, 32> m_categoriesMasking{};
    bool m_someAdmitNone = false;
    bool m_classesChanged = false;
};

} // namespace rigid2d::detail
