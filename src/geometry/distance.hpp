#pragma once
// Distance between two convex shapes, each a set of points (its core) grown by a radius: GJK on
// the Minkowski difference of the cores. A circle is one point, a capsule or segment two, a
// polygon its vertices, so one routine serves every pair of kinds. What it feeds: the overlap
// test and the shape cast (shape_cast.hpp), and later time of impact for turning shapes.

#include "geometry/rot.hpp"
#include "geometry/shape_geometry.hpp"

namespace rigid2d::detail {

/// A convex core (1 to kMaxPolygonVertices points, in the shape's frame) and its rounding radius.
struct DistanceProxy {
    Vec2 points[kMaxPolygonVertices]{};
    int count = 0;
    float radius = 0.0f;
};

[[nodiscard]] DistanceProxy makeProxy(const ShapeGeometry& shape) noexcept;

struct CoreDistance {
    Vec2 pointA{}; ///< closest point of A's core, world frame
    Vec2 pointB{}; ///< closest point of B's core, world frame
    /// Between the cores; 0 when they overlap (the depth is not measured, and both points are
    /// then one point of A's core).
    float distance = 0;
    int iterations = 0; ///< GJK iterations used (at most kMaxDistanceIterations)
};

inline constexpr int kMaxDistanceIterations = 20;

/// The closest points of the cores of A and B placed by their transforms (radii ignored).
[[nodiscard]] CoreDistance coreDistance(const DistanceProxy& a, const Transform& xfA,
                                        const DistanceProxy& b, const Transform& xfB) noexcept;

} // namespace rigid2d::detail
