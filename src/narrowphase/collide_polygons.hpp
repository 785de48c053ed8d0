#pragma once
// Contact manifolds between convex polygons that turn with their bodies, optionally rounded, and
// between such polygons and circles. Pure functions of the shapes and their transforms; capsules
// and segments enter as two-vertex polygons (geometry/shape_geometry.hpp).

#include "geometry/rot.hpp"
#include "geometry/shape_geometry.hpp"
#include "narrowphase/manifold.hpp"
#include "rigid2d/types.hpp"

namespace rigid2d::detail {

/// Separating axis over both polygons' edge normals, reference face clipping, at most two points.
/// The normal points from A to B in the world frame; points whose separation (between the rounded
/// surfaces) exceeds `speculativeDistance` are dropped. When an axis separates the shapes by more
/// than that, the result is empty and `*apart` (if given) is set to that separation: the rounded
/// surfaces are at least that far apart.
[[nodiscard]] Manifold collidePolygons(const Polygon& a, const Transform& xfA, const Polygon& b,
                                       const Transform& xfB, float speculativeDistance,
                                       float* apart = nullptr) noexcept;

/// collidePolygons with A's edge `edge` as the reference face, whatever the separating axis: the
/// incident edge of B clipped to that face's side planes (points beyond them dropped), the normal
/// A's edge normal. What a chain link uses when the best axis would point into a neighbour.
[[nodiscard]] Manifold collideOnReferenceFace(const Polygon& a, int edge, const Transform& xfA,
                                              const Polygon& b, const Transform& xfB,
                                              float speculativeDistance) noexcept;

/// A polygon and a circle; `*apart` as for collidePolygons.
[[nodiscard]] Manifold collidePolygonCircle(const Polygon& a, const Transform& xfA, const Circle& b,
                                            const Transform& xfB, float speculativeDistance,
                                            float* apart = nullptr) noexcept;
[[nodiscard]] Manifold collideCirclePolygon(const Circle& a, const Transform& xfA, const Polygon& b,
                                            const Transform& xfB, float speculativeDistance,
                                            float* apart = nullptr) noexcept;

} // namespace rigid2d::detail
