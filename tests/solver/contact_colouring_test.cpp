// Greedy colouring of contact constraints: the property the wide solver relies on (no movable
// body twice in one colour), completeness, and where constraints against immovable bodies go.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "solver/contact_colouring.hpp"

using namespace rigid2d::detail;

namespace {

struct Coloured {
    ContactColouring colouring;
    std::vector<std::uint32_t> scratch;
};

Coloured colour(const std::vector<ConstraintBodies>& constraints,
                const std::vector<std::uint8_t>& movable) {
    Coloured c;
    colourConstraints(constraints, movable, c.scratch, c.colouring);
    return c;
}

// Every constraint once; no movable body twice within a colour; indices ascend per group.
void checkValid(const std::vector<ConstraintBodies>& constraints,
                const std::vector<std::uint8_t>& movable, const ContactColouring& colouring) {
    REQUIRE(colouring.order.size() == constraints.size());
    std::vector<int> seen(constraints.size(), 0);
    for (const std::uint32_t i : colouring.order) ++seen[i];
    for (const int n : seen) CHECK(n == 1);
    for (int k = 0; k < kContactColourCount; ++k) {
        std::vector<int> uses(movable.size(), 0);
        std::uint32_t previous = 0;
        bool first = true;
        for (const std::uint32_t i : colouring.colour(k)) {
            CHECK((first || i > previous));
            first = false;
            previous = i;
            const ConstraintBodies& c = constraints[i];
            if (movable[c.a] != 0) CHECK(++uses[c.a] == 1);
            if (movable[c.b] != 0) CHECK(++uses[c.b] == 1);
        }
    }
}

} // namespace

TEST_CASE("colouring a grid of bodies: no colour holds a movable body twice") {
    // A 30 x 30 lattice of bodies (slot 0 immovable) linked to right, upper and diagonal
    // neighbours, plus the bottom row on slot 0, in a scrambled but fixed order.
    constexpr std::uint32_t n = 30;
    std::vector<std::uint8_t> movable(n * n + 1, 1);
    movable[0] = 0;
    auto slot = [](std::uint32_t x, std::uint32_t y) { return 1 + y * n + x; };
    std::vector<ConstraintBodies> constraints;
    for (std::uint32_t y = 0; y < n; ++y) {
        for (std::uint32_t x = 0; x < n; ++x) {
            if (x + 1 < n) constraints.push_back({slot(x, y), slot(x + 1, y)});
            if (y + 1 < n) constraints.push_back({slot(x, y + 1), slot(x, y)});
            if (x + 1 < n && y + 1 < n) constraints.push_back({slot(x, y), slot(x + 1, y + 1)});
            if (y == 0) constraints.push_back({0, slot(x, y)});
        }
    }
    for (std::size_t i = 0; i + 7 < constraints.size(); i += 7)
        std::swap(constraints[i], constraints[(i * 31) % constraints.size()]);
    const Coloured c = colour(constraints, movable);
    checkValid(constraints, movable, c.colouring);
    CHECK(c.colouring.overflow().empty()); // degree <= 7: 24 colours are plenty
    // The same input gives the same colouring.
    const Coloured again = colour(constraints, movable);
    CHECK(again.colouring.order == c.colouring.order);
}

TEST_CASE("immovable bodies take no colour and stay out of colour 0") {
    // 50 bodies each resting on slot 0 and on one kinematic body (slot 51, not movable).
    std::vector<std::uint8_t> movable(52, 1);
    movable[0] = 0;
    movable[51] = 0;
    std::vector<ConstraintBodies> constraints;
    for (std::uint32_t b = 1; b <= 50; ++b) {
        constraints.push_back({0, b});
        constraints.push_back({b, 51});
    }
    const Coloured c = colour(constraints, movable);
    checkValid(constraints, movable, c.colouring);
    CHECK(c.colouring.colour(0).empty());
    CHECK(c.colouring.colour(1).size() == 50); // every body's first contact
    CHECK(c.colouring.colour(2).size() == 50);
    CHECK(c.colouring.overflow().empty());
}

TEST_CASE("a body with more constraints than colours overflows, static ones get spare colours") {
    // Hub body 1 touches 30 movable bodies, then 6 contacts with slot 0 (through 6 other bodies:
    // the hub itself is in each).
    std::vector<std::uint8_t> movable(40, 1);
    movable[0] = 0;
    std::vector<ConstraintBodies> constraints;
    for (std::uint32_t b = 2; b < 32; ++b) constraints.push_back({1, b});
    for (int i = 0; i < 6; ++i) constraints.push_back({0, 1});
    const Coloured c = colour(constraints, movable);
    checkValid(constraints, movable, c.colouring);
    const int dynamicColours = kContactColourCount - kStaticOnlyColours;
    // The first `dynamicColours` hub contacts are coloured, the other movable ones overflow;
    // the static ones take the reserved colours, then overflow too.
    const std::span<const std::uint32_t> overflow = c.colouring.overflow();
    REQUIRE(overflow.size() == (30 - dynamicColours) + (6 - kStaticOnlyColours));
    CHECK(overflow[0] == static_cast<std::uint32_t>(dynamicColours));
    for (int k = dynamicColours; k < kContactColourCount; ++k)
        CHECK(c.colouring.colour(k).size() == 1);
}
