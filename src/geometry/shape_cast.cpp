#include "geometry/shape_cast.hpp"

namespace rigid2d::detail {

bool shapesOverlap(const DistanceProxy& a, const Transform& xfA, const DistanceProxy& b,
                   const Transform& xfB) noexcept {
    return coreDistance(a, xfA, b, xfB).distance <= a.radius + b.radius;
}

// Conservative advancement: the surfaces are d apart along the direction n between the closest
// points, and B closes on A along n at speed -dot(n, translation) per unit of t, so no contact
// can happen before t + d / speed. Stepping there again and again approaches the first touch
// from before it. With the speed <= 0 the distance, convex in t for a pure translation, only
// grows: no hit.
bool castShape(const DistanceProxy& a, const Transform& xfA, const DistanceProxy& b,
               const Transform& xfB, Vec2 translation, float maxFraction,
               SegmentHit& hit) noexcept {
    if (translation.x == 0.0f && translation.y == 0.0f) return false;
    const float radius = a.radius + b.radius;
    float t = 0.0f;
    for (int iteration = 0; iteration < kMaxShapeCastIterations; ++iteration) {
        const Transform moved{xfB.p + t * translation, xfB.q};
        const CoreDistance d = coreDistance(a, xfA, b, moved);
        const float gap = d.distance - radius;
        if (gap <= 0.0f && t == 0.0f) return false; // overlapping from the start
        if (d.distance == 0.0f) return false;       // overshot by rounding: give up safely
        const Vec2 n = (d.pointB - d.pointA) / d.distance;
        if (gap < kShapeCastTolerance) {
            hit.fraction = t;
            hit.point = d.pointA + a.radius * n;
            hit.normal = n;
            return true;
        }
        const float speed = -dot(n, translation);
        if (speed <= 0.0f) return false;
        // Stop a little short of the touch so rounding cannot carry B into A.
        t += (gap - 0.5f * kShapeCastTolerance) / speed;
        if (t > maxFraction) return false;
    }
    // Not settled within the budget: only a pass that grazes A, each step closing a sliver of the
    // gap, gets here; it counts as a miss.
    return false;
}

} // namespace rigid2d::detail
