#pragma once
// A contact's manifold kept in shape A's frame, reused while shape B has barely moved relative to
// A. Resting stacks spend most of a step's narrow phase recomputing manifolds of pairs whose
// relative placement changed by microns; the separating-axis search and clipping (about a third of
// a step of turning boxes) then give the same features and points. A reused point moves with B:
// its separation is corrected along the normal by B's relative motion since the full collision,
// which is exact when A holds the reference face and off by the normal's turn (bounded below)
// when B holds it.
//
// Bounds: B's relative translation and the turn times the lever of every point stay within
// `tolerance`, so a point moves at most 2 tolerance from where a full collision would put it.
// The full collision is made with a margin wider by kSlack tolerances than the contact needs, and
// a reuse is refused once the contact needs more than that margin minus 2 tolerances: no point a
// full collision would keep can be missing from the cache.
//
// Shapes that a separating axis found apart are remembered too, without points: how far apart
// they were at least, and how far B's outline reaches from B's origin. While B's translation in
// A's frame plus its turn times that reach stays below the distance less the margin (and a
// tolerance), no point of B can have come within the margin of A: the manifold stays empty
// without a collision. Neighbours of neighbours in a moving pile, and small shapes inside the
// bounds of a large turning one (a tumbler's walls), were collided in full every step.

#include <cstdint>

#include "geometry/rot.hpp"
#include "narrowphase/manifold.hpp"

namespace rigid2d::detail {

struct ManifoldCache {
    bool valid = false;
    int pointCount = 0;
    Rot rotation{};                          ///< B's rotation in A's frame at the full collision
    Vec2 translation{};                      ///< B's origin in A's frame at the full collision
    Vec2 normal{};                           ///< in A's frame
    float margin = 0.0f;                     ///< speculative margin of the full collision, m
    Vec2 points[kMaxManifoldPoints]{};       ///< in A's frame
    float separations[kMaxManifoldPoints]{}; ///< m
    std::uint16_t ids[kMaxManifoldPoints]{};
    float apart = 0.0f; ///< no points: the shapes were at least this far apart, m
    float reach = 0.0f; ///< no points: the farthest of B's outline from B's origin, m
};

/// How many tolerances wider than needed the full collision's margin is.
inline constexpr float kCacheSlack = 4.0f;

/// The margin to make a full collision with when the contact needs `margin`.
[[nodiscard]] float cacheMargin(float margin, float tolerance) noexcept;

/// Remembers `full` (made at cacheMargin) for shapes placed at `a` and `b`.
[[nodiscard]] ManifoldCache rememberManifold(const Manifold& full, const Transform& a,
                                             const Transform& b, float collisionMargin) noexcept;

/// Remembers shapes placed at `a` and `b` that a full collision found at least `apart` apart
/// (> its margin); `reach` is the farthest B's outline lies from B's origin.
[[nodiscard]] ManifoldCache rememberApart(const Transform& a, const Transform& b, float apart,
                                          float reach) noexcept;

/// How far a polygon's outline (rounding included) reaches from its frame's origin, m.
[[nodiscard]] float reachOf(const Polygon& polygon) noexcept;
/// How far a circle reaches from its frame's origin, m.
[[nodiscard]] float reachOf(const Circle& circle) noexcept;

/// Moves `manifold` (the contact's current one) to the cached points carried to `a` and `b`,
/// points beyond `margin` dropped, impulses kept by feature id; false (and `manifold` untouched)
/// when B moved too far from where the cache was made.
[[nodiscard]] bool reuseManifold(const ManifoldCache& cache, const Transform& a, const Transform& b,
                                 float margin, float tolerance, Manifold& manifold) noexcept;

/// Drops the points beyond `margin` (keeping the order of the others).
void dropBeyond(Manifold& manifold, float margin) noexcept;

} // namespace rigid2d::detail
