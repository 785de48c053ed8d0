#include "geometry/time_of_impact.hpp"

#include <cmath>
#include <initializer_list>

#include <glm/geometric.hpp>

#include "geometry/shape_queries.hpp"

namespace rigid2d::detail {

namespace {

// The Minkowski sum of the two shapes, grown by the target separation, is a rounded box: a core
// box of half extents `core` with every point within `radius` of it. circle+circle has an empty
// core (a circle of rA + rB + s), box+box a core of hA + hB, circle+box a core of the box's
// half extents with radius r + s.
struct RoundedBox {
    Vec2 center{};
    Vec2 core{};
    float radius = 0;
};

[[nodiscard]] RoundedBox minkowskiSum(const WorldShape& moving, const WorldShape& fixed,
                                      float targetSeparation) noexcept {
    RoundedBox sum{fixed.center, {0.0f, 0.0f}, targetSeparation};
    for (const WorldShape* shape : {&moving, &fixed}) {
        if (shape->isCircle) {
            sum.radius += shape->radius;
        } else {
            sum.core += shape->halfExtents;
        }
    }
    return sum;
}

[[nodiscard]] float squaredDistanceToCore(const RoundedBox& shape, Vec2 point) noexcept {
    const Vec2 local = point - shape.center;
    const Vec2 outside{std::fmax(std::fabs(local.x) - shape.core.x, 0.0f),
                       std::fmax(std::fabs(local.y) - shape.core.y, 0.0f)};
    return glm::dot(outside, outside);
}

// First fraction in [0, 1] at which origin + t * translation reaches the rounded box, for an
// origin outside it.
//   cast at the box grown by radius (the rounded box's bounding box);
//   entered through a face band (|q.x| <= core.x or |q.y| <= core.y): that is the hit;
//   entered through a corner square: the answer is the cast at that corner's circle.
// A segment in a corner square can only leave it through the outer edges (leaving the grown box)
// or the inner edges, whose points are all within radius of the corner: so missing the corner
// circle means missing the rounded box. An origin already inside the grown box (but outside the
// rounded box) is in a corner square, which the same argument covers.
[[nodiscard]] float castAtRoundedBox(const RoundedBox& shape, Vec2 origin,
                                     Vec2 translation) noexcept {
    SegmentHit hit;
    if (shape.core.x == 0.0f && shape.core.y == 0.0f) {
        return castSegmentAtCircle(shape.center, shape.radius, origin, translation, 1.0f, hit)
                   ? hit.fraction
                   : 1.0f;
    }
    const Vec2 grown = shape.core + Vec2{shape.radius, shape.radius};
    const AABB bounds{shape.center - grown, shape.center + grown};
    Vec2 entry = origin;
    if (!overlaps(bounds, AABB{origin, origin})) {
        if (!castSegmentAtBox(bounds, origin, translation, 1.0f, hit)) return 1.0f;
        entry = hit.point;
    }
    const Vec2 local = entry - shape.center;
    if (std::fabs(local.x) <= shape.core.x || std::fabs(local.y) <= shape.core.y) {
        return hit.fraction;
    }
    const Vec2 corner = shape.center + Vec2{local.x > 0.0f ? shape.core.x : -shape.core.x,
                                            local.y > 0.0f ? shape.core.y : -shape.core.y};
    return castSegmentAtCircle(corner, shape.radius, origin, translation, 1.0f, hit) ? hit.fraction
                                                                                     : 1.0f;
}

} // namespace

float timeOfImpact(const WorldShape& moving, Vec2 translation, const WorldShape& fixed,
                   float targetSeparation) noexcept {
    const RoundedBox sum = minkowskiSum(moving, fixed, targetSeparation);
    if (squaredDistanceToCore(sum, moving.center) <= sum.radius * sum.radius) return 0.0f;
    if (translation.x == 0.0f && translation.y == 0.0f) return 1.0f;
    return castAtRoundedBox(sum, moving.center, translation);
}

} // namespace rigid2d::detail
