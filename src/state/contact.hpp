#pragma once
// A persistent contact between two shapes whose fat AABBs overlap. Contacts live in a pool
// indexed by contact id; each is linked into both bodies' contact lists so waking, islands and
// body destruction find them without a search.

#include <cmath>
#include <cstdint>

#include "narrowphase/manifold_cache.hpp"
#include "solver/solver_types.hpp"
#include "state/body.hpp"
#include "state/shape.hpp"

namespace rigid2d::detail {

/// A contact's friction: the geometric mean of its shapes'. Any finite frictions are accepted, so
/// a product that could overflow a float is taken in double (the mean never exceeds the larger).
[[nodiscard]] inline float mixFriction(float a, float b) noexcept {
    constexpr float kSafe = 1e18f;
    if (a < kSafe && b < kSafe) return std::sqrt(a * b);
    return static_cast<float>(std::sqrt(double{a} * double{b}));
}

/// Link of a contact in one body's list (edges[0] for body A, edges[1] for body B).
struct ContactEdge {
    std::uint32_t body = kNullIndex;
    std::uint32_t prev = kNullIndex; ///< previous contact in that body's list
    std::uint32_t next = kNullIndex;
};

/// The solver's part (friction, restitution, manifold) comes first: the gather points the
/// contact's constraint at it, and the solver reads and writes it alone.
struct Contact : ContactSurface {
    bool live = false;
    bool touching = false; ///< manifold has points (sensor: the shapes overlap)
    bool sensor = false;   ///< one shape is a sensor: overlap events only, no response
    bool reportContactEvents = false;
    bool reportHitEvents = false;
    /// A shape is polygonal (isPolygonal): the narrow phase takes the polygon path and reads the
    /// polygons, past the shapes' first lines. Set at creation (a shape's kind never changes), so
    /// the contact stage knows what to fetch ahead without waiting for the shapes.
    bool polygonal = false;
    std::uint32_t shapeA = kNullIndex; ///< shapeA < shapeB
    std::uint32_t shapeB = kNullIndex;
    /// The shape without area (hasNoArea: a segment or chain link), shapeA or shapeB, else
    /// kNullIndex; set at creation like `polygonal`. The contact's head carries it to the
    /// continuous stage's thin walls.
    std::uint32_t thinShape = kNullIndex;
    ContactEdge edges[2];
    ManifoldCache cache; ///< polygonal pairs: the last full collision (manifold_cache.hpp)
};

/// The flags a contact takes from its shapes' kinds, which never change (`polygonal`,
/// `thinShape`; shapeA and shapeB set first): createContact sets them, and so does restore, which
/// does not save them.
inline void setKindFlags(Contact& contact, ShapeType typeA, ShapeType typeB) noexcept {
    contact.polygonal = isPolygonal(typeA) || isPolygonal(typeB);
    contact.thinShape = hasNoArea(typeA)   ? contact.shapeA
                        : hasNoArea(typeB) ? contact.shapeB
                                           : kNullIndex;
}

/// Whether the contact takes part in the solve once one of its bodies is awake.
[[nodiscard]] inline bool isSolvable(const Contact& contact) noexcept {
    return contact.live && contact.touching && !contact.sensor;
}

/// Which of the contact's edges belongs to `body` (0: body A, 1: body B).
[[nodiscard]] inline int sideOf(const Contact& contact, std::uint32_t body) noexcept {
    return contact.edges[0].body == body ? 0 : 1;
}

/// Key of the unordered shape pair in the pair map.
[[nodiscard]] inline std::uint64_t pairKey(std::uint32_t shapeA, std::uint32_t shapeB) noexcept {
    return (std::uint64_t{shapeA} << 32) | shapeB;
}

} // namespace rigid2d::detail
