#include "geometry/ray_casts.hpp"

#include <algorithm>
#include <cmath>

#include "core/float_range.hpp"

namespace rigid2d::detail {
namespace {

// numerator / denominator, the bits the float division gives (a quotient taken in double and
// rounded to float is the correctly rounded one), or false where that would overflow: a ray
// almost parallel to a face far from its origin divides by next to nothing.
bool divideInRange(float numerator, float denominator, float& quotient) {
    const double q = double{numerator} / double{denominator};
    if (!fitsFloat(q)) return false;
    quotient = static_cast<float>(q);
    return true;
}

// Distance from p to the core of a polygon: 0 inside it (three or more vertices), else the
// distance to the nearest edge.
float distanceToCore(const Polygon& polygon, Vec2 p) {
    if (polygon.count >= 3) {
        bool inside = true;
        for (int i = 0; i < polygon.count; ++i) {
            inside = inside && dot(polygon.normals[i], p - polygon.vertices[i]) <= 0.0f;
        }
        if (inside) return 0.0f;
    }
    // In double: a ray may start anywhere in the float range, where a squared distance is not
    // a float.
    double best = INFINITY;
    for (int i = 0; i < polygon.count; ++i) {
        const Vec2 v = polygon.vertices[i];
        const Vec2 w = polygon.vertices[i + 1 < polygon.count ? i + 1 : 0];
        const double ex = double{w.x} - double{v.x}, ey = double{w.y} - double{v.y};
        const double px = double{p.x} - double{v.x}, py = double{p.y} - double{v.y};
        const double u = std::clamp((px * ex + py * ey) / (ex * ex + ey * ey), 0.0, 1.0);
        const double qx = u * ex - px, qy = u * ey - py;
        best = std::min(best, qx * qx + qy * qy);
    }
    return clampToFloat(std::sqrt(best));
}

// A sharp polygon is the intersection of its edges' half-planes: the cast is inside all of them
// for t in [lower, upper]; the hit is at `lower`, through the face that raised it last.
bool castAtSharpPolygon(const Polygon& polygon, Vec2 origin, Vec2 translation, float maxFraction,
                        SegmentHit& hit) {
    float lower = 0.0f;
    float upper = maxFraction;
    int face = -1;
    for (int i = 0; i < polygon.count; ++i) {
        // Inside edge i's half-plane while dot(n, origin + t d - v) <= 0, i.e. t * den <= num.
        const float numerator = dot(polygon.normals[i], polygon.vertices[i] - origin);
        const float denominator = dot(polygon.normals[i], translation);
        if (denominator == 0.0f) {
            if (numerator < 0.0f) return false;
        } else if (denominator < 0.0f && numerator < lower * denominator) {
            // A quotient beyond the float range is far past upper.
            if (!divideInRange(numerator, denominator, lower)) return false;
            face = i;
        } else if (denominator > 0.0f && numerator < upper * denominator) {
            // ... and here far below lower.
            if (!divideInRange(numerator, denominator, upper)) return false;
        }
        if (upper < lower) return false;
    }
    // face < 0: the origin is inside every half-plane.
    if (face < 0) return false;
    hit.fraction = lower;
    hit.point = origin + lower * translation;
    hit.normal = polygon.normals[face];
    return true;
}

// A rounded polygon's surface is its edges pushed out by the radius, joined by arcs of circles
// around the vertices. From outside, the cast first meets the surface on one of these pieces,
// and each piece lies inside the shape, so the earliest hit over all the pieces is the entry.
bool castAtRoundedPolygon(const Polygon& polygon, Vec2 origin, Vec2 translation, float maxFraction,
                          SegmentHit& hit) {
    const float radius = polygon.radius;
    bool found = false;
    float best = maxFraction;
    for (int i = 0; i < polygon.count; ++i) {
        const Vec2 n = polygon.normals[i];
        const float denominator = dot(n, translation);
        if (denominator >= 0.0f) continue; // moving away from (or along) this face
        const Vec2 v = polygon.vertices[i];
        float t;
        if (!divideInRange(radius - dot(n, origin - v), denominator, t) || t < 0.0f || t > best)
            continue;
        const Vec2 e = polygon.vertices[i + 1 < polygon.count ? i + 1 : 0] - v;
        const Vec2 p = origin + t * translation;
        const float u = dot(p - v, e);
        if (u < 0.0f || u > dot(e, e)) continue;
        found = true;
        best = t;
        hit = {p, n, t};
    }
    for (int i = 0; i < polygon.count; ++i) {
        SegmentHit arc;
        if (castSegmentAtCircle(polygon.vertices[i], radius, origin, translation, best, arc) &&
            (!found || arc.fraction < best)) {
            found = true;
            best = arc.fraction;
            hit = arc;
        }
    }
    return found;
}

} // namespace

bool castSegmentAtPolygon(const Polygon& polygon, Vec2 origin, Vec2 translation, float maxFraction,
                          SegmentHit& hit) noexcept {
    if (translation.x == 0.0f && translation.y == 0.0f) return false;
    if (polygon.count == 2 && polygon.radius == 0.0f) {
        return castSegmentAtSegment(polygon.vertices[0], polygon.vertices[1], origin, translation,
                                    maxFraction, hit);
    }
    if (polygon.radius == 0.0f) {
        return castAtSharpPolygon(polygon, origin, translation, maxFraction, hit);
    }
    if (distanceToCore(polygon, origin) <= polygon.radius) return false;
    return castAtRoundedPolygon(polygon, origin, translation, maxFraction, hit);
}

// origin + t d = p1 + s e; crossing both sides with e, then with d, leaves one unknown each:
//   t = cross(p1 - origin, e) / cross(d, e),  s = cross(p1 - origin, d) / cross(d, e).
// The cross products are taken in double: with a translation near a float's reach they overflow
// a float, and inf / inf made the fraction NaN (found by the snapshot fuzzer).
bool castSegmentAtSegment(Vec2 p1, Vec2 p2, Vec2 origin, Vec2 translation, float maxFraction,
                          SegmentHit& hit) noexcept {
    const Vec2 e = p2 - p1;
    const auto crossD = [](Vec2 a, Vec2 b) {
        return double{a.x} * double{b.y} - double{a.y} * double{b.x};
    };
    const double denominator = crossD(translation, e);
    if (denominator == 0.0) return false;
    const Vec2 r = p1 - origin;
    const double t = crossD(r, e) / denominator;
    const double s = crossD(r, translation) / denominator;
    if (t < 0.0 || t > double{maxFraction} || s < 0.0 || s > 1.0) return false;
    Vec2 normal = Vec2{e.y, -e.x} / std::sqrt(dot(e, e));
    if (dot(normal, translation) > 0.0f) normal = -normal;
    hit = {p1 + static_cast<float>(s) * e, normal, static_cast<float>(t)};
    return true;
}

bool castSegmentAtShape(const ShapeGeometry& shape, const Transform& xf, Vec2 origin,
                        Vec2 translation, float maxFraction, SegmentHit& hit) noexcept {
    const Vec2 localOrigin = invTransformPoint(xf, origin);
    const Vec2 localTranslation = invRotate(xf.q, translation);
    SegmentHit local;
    bool found = false;
    switch (shape.type) {
    case ShapeType::Circle:
        found = castSegmentAtCircle(shape.circle.center, shape.circle.radius, localOrigin,
                                    localTranslation, maxFraction, local);
        break;
    case ShapeType::Segment:
        found = castSegmentAtSegment(shape.polygon.vertices[0], shape.polygon.vertices[1],
                                     localOrigin, localTranslation, maxFraction, local);
        break;
    case ShapeType::ChainSegment: {
        // One-sided, as its contacts: a ray that starts behind the line passes through.
        const Vec2 p1 = shape.polygon.vertices[0];
        const Vec2 p2 = shape.polygon.vertices[1];
        if (cross(localOrigin - p1, p2 - p1) < 0.0f) return false;
        found = castSegmentAtSegment(p1, p2, localOrigin, localTranslation, maxFraction, local);
        break;
    }
    case ShapeType::Box:
    case ShapeType::Polygon:
    case ShapeType::Capsule:
        found =
            castSegmentAtPolygon(shape.polygon, localOrigin, localTranslation, maxFraction, local);
        break;
    }
    if (!found) return false;
    hit.fraction = local.fraction;
    // From the world-frame cast, so a hit on an untransformed shape is bit for bit the cast's.
    hit.point = origin + local.fraction * translation;
    hit.normal = rotate(xf.q, local.normal);
    return true;
}

} // namespace rigid2d::detail
