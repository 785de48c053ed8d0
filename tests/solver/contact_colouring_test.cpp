// Greedy colouring of contact constraints: the property the wide solver relies on (no movable
// body twice in one colour), completeness, and where constraints against immovable bodies go.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>
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

// The band of the lowest slot of a movable body of `c` (band 0 if neither moves).
std::uint32_t bandOf(const ConstraintBodies& c, const std::vector<std::uint8_t>& movable) {
    const bool moveA = movable[c.a] != 0, moveB = movable[c.b] != 0;
    const std::uint32_t lowest = moveA && moveB ? std::min(c.a, c.b)
                                 : moveA        ? c.a
                                 : moveB        ? c.b
                                                : 0u;
    return lowest >> slotBandShift(movable.size());
}

// Every constraint once; no movable body twice within a colour; each colour ordered by the band
// of its lowest movable slot, then index; the overflow list by index.
void checkValid(const std::vector<ConstraintBodies>& constraints,
                const std::vector<std::uint8_t>& movable, const ContactColouring& colouring) {
    REQUIRE(colouring.order.size() == constraints.size());
    std::vector<int> seen(constraints.size(), 0);
    for (const std::uint32_t i : colouring.order) ++seen[i];
    for (const int n : seen) CHECK(n == 1);
    for (int k = 0; k < kContactColourCount; ++k) {
        std::vector<int> uses(movable.size(), 0);
        std::pair<std::uint32_t, std::uint32_t> previous{};
        bool first = true;
        for (const std::uint32_t i : colouring.colour(k)) {
            const ConstraintBodies& c = constraints[i];
            const std::pair key{bandOf(c, movable), i};
            CHECK((first || key > previous));
            first = false;
            previous = key;
            if (movable[c.a] != 0) CHECK(++uses[c.a] == 1);
            if (movable[c.b] != 0) CHECK(++uses[c.b] == 1);
        }
    }
    const std::span<const std::uint32_t> overflow = colouring.overflow();
    CHECK(std::is_sorted(overflow.begin(), overflow.end()));
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

TEST_CASE("each colour runs by lowest body slot, the overflow list in constraint order") {
    // Hub body 39 touches bodies 31 down to 2: constraint order is the reverse of slot order.
    std::vector<std::uint8_t> movable(40, 1);
    movable[0] = 0;
    std::vector<ConstraintBodies> constraints;
    for (std::uint32_t b = 31; b >= 2; --b) constraints.push_back({39, b});
    // Around the hub, a ring: bodies 2..31 each touch the next.
    for (std::uint32_t b = 31; b > 2; --b) constraints.push_back({b, b - 1});
    const Coloured c = colour(constraints, movable);
    checkValid(constraints, movable, c.colouring);
    REQUIRE(c.colouring.overflow().size() == 30 - (kContactColourCount - kStaticOnlyColours));
    // The hub's constraints are all in different colours; the ring's share colours, and each of
    // those colours lists them from the lowest slot up, the reverse of constraint order.
    bool reordered = false;
    for (int k = 0; k < kContactColourCount; ++k) {
        const std::span<const std::uint32_t> colour = c.colouring.colour(k);
        for (std::size_t i = 1; i < colour.size(); ++i) reordered |= colour[i] < colour[i - 1];
    }
    CHECK(reordered);
}

TEST_CASE("a colouring kept for the same constraints is redone for any change") {
    // One ContactColouring reused as the solver reuses it, step after step; after every call it
    // must hold what a fresh colouring of that call's input holds.
    constexpr std::uint32_t n = 12;
    std::vector<std::uint8_t> movable(n * n + 1, 1);
    movable[0] = 0;
    std::vector<ConstraintBodies> constraints;
    for (std::uint32_t i = 1; i + 1 <= n * n; ++i) {
        constraints.push_back({i, i + 1});
        if (i + n <= n * n) constraints.push_back({i + n, i});
        if (i <= n) constraints.push_back({0, i});
    }
    Coloured kept;
    const auto check = [&] {
        colourConstraints(constraints, movable, kept.scratch, kept.colouring);
        const Coloured fresh = colour(constraints, movable);
        CHECK(kept.colouring.order == fresh.colouring.order);
        CHECK(kept.colouring.colourOf == fresh.colouring.colourOf);
        CHECK(std::equal(std::begin(kept.colouring.start), std::end(kept.colouring.start),
                         std::begin(fresh.colouring.start)));
    };
    check();
    check(); // the same input again
    // The same count of constraints, one of them on another body.
    constraints[5].b = constraints[5].b == 7 ? 9 : 7;
    check();
    // The same constraints; one body stops being movable (a body made kinematic).
    movable[n + 3] = 0;
    check();
    // One constraint fewer, then none, then all again.
    constraints.pop_back();
    check();
    const std::vector<ConstraintBodies> all = constraints;
    constraints.clear();
    check();
    constraints = all;
    check();
}
