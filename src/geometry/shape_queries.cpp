#include "geometry/shape_queries.hpp"

#include <cmath>
#include <limits>

#include <glm/geometric.hpp>

#include "geometry/slab.hpp"

namespace rigid2d::detail {

// Circle cast, written to stay accurate when the segment is long compared with the circle
// (a bullet's whole step): instead of the textbook quadratic, whose c = |s|^2 - r^2 cancels badly,
// measure along the unit direction.
//   s  = origin - center;  u = translation / |translation|
//   tc = -dot(s, u)                 distance along u to the point of closest approach
//   h2 = |s + tc u|^2               squared distance of that point from the centre
//   miss when h2 > r^2; else the entry is at tc - sqrt(r^2 - h2), as a fraction of |translation|.
// Near the float's reach the squared lengths overflow: such a cast is solved scaled down by a power
// of two, which the fraction and the normal do not depend on (and an ordinary one, scaled by 1,
// keeps every bit).
bool castSegmentAtCircle(Vec2 center, float radius, Vec2 origin, Vec2 translation,
                         float maxFraction, SegmentHit& hit) noexcept {
    constexpr float kLarge = 0x1p62f;
    const auto small = [](Vec2 v) { return std::fabs(v.x) < kLarge && std::fabs(v.y) < kLarge; };
    const float scale = small(center) && small(origin) && small(translation) ? 1.0f : 0x1p-70f;
    const Vec2 d = translation * scale;
    const float length = glm::length(d);
    if (!(length > 0.0f)) return false;
    const Vec2 s = origin * scale - center * scale;
    const float radiusSquared = (radius * scale) * (radius * scale);
    if (glm::dot(s, s) <= radiusSquared) return false;

    const Vec2 u = d / length;
    const float tc = -glm::dot(s, u);
    const Vec2 closest = s + tc * u;
    const float h2 = glm::dot(closest, closest);
    if (h2 > radiusSquared) return false;
    const float distance = tc - std::sqrt(radiusSquared - h2);
    // distance < 0: the circle lies behind the origin (the origin is outside, so the whole circle
    // is behind it when the entry point is).
    if (distance < 0.0f) return false;
    const float fraction = distance / length;
    if (fraction > maxFraction) return false;

    hit.fraction = fraction;
    hit.point = origin + fraction * translation;
    const Vec2 outward = s + distance * u;
    const float outwardLength = glm::length(outward);
    hit.normal = outwardLength > 0.0f ? outward / outwardLength : -u;
    return true;
}

// Slab method: the segment is inside the box for t in [max of slab entries, min of slab exits].
// The face hit is the one of the slab entered last. Exact ties (a diagonal through a corner)
// keep the lower axis, x, so the result does not depend on rounding order.
bool castSegmentAtBox(const AABB& box, Vec2 origin, Vec2 translation, float maxFraction,
                      SegmentHit& hit) noexcept {
    if (translation.x == 0.0f && translation.y == 0.0f) return false;
    const bool originInside = box.lower.x <= origin.x && origin.x <= box.upper.x &&
                              box.lower.y <= origin.y && origin.y <= box.upper.y;
    if (originInside) return false;

    float tEnter = -std::numeric_limits<float>::infinity();
    float tExit = std::numeric_limits<float>::infinity();
    int enterAxis = -1;
    float enterSign = 0.0f;
    for (int axis = 0; axis < 2; ++axis) {
        const float p = origin[axis];
        const float d = translation[axis];
        const float lo = box.lower[axis];
        const float hi = box.upper[axis];
        if (d == 0.0f) {
            if (p < lo || p > hi) return false;
            continue;
        }
        const float tLo = slabFraction(lo, p, d);
        const float tHi = slabFraction(hi, p, d);
        // Moving up the axis enters through the lower face (outward normal -1).
        const float tNear = d > 0.0f ? tLo : tHi;
        const float tFar = d > 0.0f ? tHi : tLo;
        if (tNear > tEnter) {
            tEnter = tNear;
            enterAxis = axis;
            enterSign = d > 0.0f ? -1.0f : 1.0f;
        }
        tExit = std::fmin(tExit, tFar);
    }
    // The origin is outside, so some axis with d != 0 has it outside its slab: enterAxis is set.
    if (enterAxis < 0 || tEnter > tExit || tEnter < 0.0f || tEnter > maxFraction) return false;

    hit.fraction = tEnter;
    hit.point = origin + tEnter * translation;
    // Snap the hit coordinate onto the face it crossed so the point lies exactly on the surface.
    hit.point[enterAxis] = enterSign < 0.0f ? box.lower[enterAxis] : box.upper[enterAxis];
    hit.normal = Vec2{0.0f, 0.0f};
    hit.normal[enterAxis] = enterSign;
    return true;
}

bool circleOverlapsBox(Vec2 center, float radius, const AABB& box) noexcept {
    const Vec2 closest{std::fmin(std::fmax(center.x, box.lower.x), box.upper.x),
                       std::fmin(std::fmax(center.y, box.lower.y), box.upper.y)};
    const Vec2 offset = center - closest;
    return glm::dot(offset, offset) <= radius * radius;
}

} // namespace rigid2d::detail
