#pragma once
/// Building shapes and computing their mass properties: what a game calls before it attaches a
/// polygon, and what the world calls to give a body its mass, centre of mass and inertia.

#include <span>

#include "rigid2d/math.hpp"
#include "rigid2d/types.hpp"

namespace rigid2d {

/// Mass properties of a shape (or a body) in body coordinates.
struct MassData {
    float mass = 0.0f;              ///< kg
    Vec2 center{0.0f, 0.0f};        ///< m, the centre of mass
    float rotationalInertia = 0.0f; ///< kg m^2, about `center`
};

/// Smallest area a polygon may have (m^2): below it the inverse inertia of a body made of it
/// overflows the solver's float range long before the body is useful.
inline constexpr float kMinPolygonArea = 1e-6f;

/// Points closer than this (m) count as one point: the hull of near-duplicates has edges too
/// short for their normals to mean anything.
inline constexpr float kPolygonWeldDistance = 1e-4f;

/// The convex hull of 3 to kMaxPolygonVertices points (any order; points inside the hull and points
/// on its edges are dropped), counter-clockwise, with normals and centroid, rounded by `radius`.
/// Throws Error for non-finite input, points or a radius beyond kMaxShapeSize (no shape reaches
/// farther), duplicate points (closer than kPolygonWeldDistance), all points collinear, or a hull
/// of area below kMinPolygonArea.
[[nodiscard]] Polygon makePolygon(std::span<const Vec2> points, float radius = 0.0f);

/// A box as a polygon: half extents (both > 0), centre in body coordinates, angle in radians.
[[nodiscard]] Polygon makeBox(Vec2 halfExtents, Vec2 center = {0.0f, 0.0f}, float angle = 0.0f);

/// Mass properties of a shape of uniform `density` (kg/m^2, >= 0). Rounded polygons and capsules
/// are exact: the core, a strip along each edge and a circular sector at each corner.
[[nodiscard]] MassData computeMass(const Circle& circle, float density);
[[nodiscard]] MassData computeMass(const Box& box, float density);
[[nodiscard]] MassData computeMass(const Polygon& polygon, float density);
[[nodiscard]] MassData computeMass(const Capsule& capsule, float density);

/// The query shape of a circle, a box (with its centre and angle), a polygon or a capsule.
[[nodiscard]] ShapeProxy makeShapeProxy(const Circle& circle) noexcept;
[[nodiscard]] ShapeProxy makeShapeProxy(const Box& box) noexcept;
[[nodiscard]] ShapeProxy makeShapeProxy(const Polygon& polygon) noexcept;
[[nodiscard]] ShapeProxy makeShapeProxy(const Capsule& capsule) noexcept;

} // namespace rigid2d
