#include "narrowphase/manifold.hpp"

#include <algorithm>
#include <cmath>

namespace rigid2d::detail {

namespace {

// Feature ids of box–box points: axis (0 = x, 1 = y), end of the overlap interval (0 = low,
// 1 = high) and which box's edge bounds that end (0 = A, 1 = B). They stay equal while the same
// edges touch, which is what warm starting needs.
constexpr std::uint16_t boxPointId(int axis, int end, int owner) {
    return static_cast<std::uint16_t>(1 + axis * 4 + end * 2 + owner);
}

} // namespace

Manifold collideCircles(const PlacedShape& a, const PlacedShape& b, float speculative) {
    Manifold m;
    const Vec2 d = b.center - a.center;
    const float distSq = d.x * d.x + d.y * d.y;
    const float radii = a.radius + b.radius;
    const float reach = radii + speculative;
    if (distSq > reach * reach) return m;
    const float dist = std::sqrt(distSq);
    // Coincident centres: any normal is right; pick +y so the result is deterministic.
    m.normal = dist > 1e-9f ? d / dist : Vec2{0.0f, 1.0f};
    const float separation = dist - radii;
    ManifoldPoint& p = m.points[0];
    p.point = a.center + m.normal * (a.radius + 0.5f * separation);
    p.separation = separation;
    p.id = 0;
    m.pointCount = 1;
    return m;
}

// A is the box, B the circle; the normal points from the box to the circle.
Manifold collideBoxCircle(const PlacedShape& a, const PlacedShape& b, float speculative) {
    Manifold m;
    const Vec2 local = b.center - a.center;
    const Vec2 he = a.halfExtents;
    const Vec2 clamped{std::clamp(local.x, -he.x, he.x), std::clamp(local.y, -he.y, he.y)};
    Vec2 normal;
    float separation;
    Vec2 surface; // closest point of the box surface, box-centred
    if (clamped != local) {
        // Centre outside the box: the closest surface point is the clamped one.
        const Vec2 d = local - clamped;
        const float dist = std::sqrt(d.x * d.x + d.y * d.y);
        separation = dist - b.radius;
        if (separation > speculative) return m;
        normal = d / dist;
        surface = clamped;
    } else {
        // Centre inside: push out through the nearest face.
        const float gapX = he.x - std::fabs(local.x);
        const float gapY = he.y - std::fabs(local.y);
        if (gapX < gapY) {
            normal = {local.x >= 0.0f ? 1.0f : -1.0f, 0.0f};
            separation = -gapX - b.radius;
            surface = {normal.x * he.x, local.y};
        } else {
            normal = {0.0f, local.y >= 0.0f ? 1.0f : -1.0f};
            separation = -gapY - b.radius;
            surface = {local.x, normal.y * he.y};
        }
    }
    m.normal = normal;
    ManifoldPoint& p = m.points[0];
    // Midway between the box surface and the circle's deepest point.
    const Vec2 circlePoint = b.center - normal * b.radius;
    p.point = 0.5f * (a.center + surface + circlePoint);
    p.separation = separation;
    p.id = 0;
    m.pointCount = 1;
    return m;
}

Manifold collideCircleBox(const PlacedShape& a, const PlacedShape& b, float speculative) {
    Manifold m = collideBoxCircle(b, a, speculative);
    m.normal = -m.normal;
    return m;
}

// Axis-aligned boxes: the axis of least penetration (largest separation) is the normal; the
// points are the two ends of the overlap of the boxes' extents along the other axis, placed
// midway between the two faces. Ties prefer y so resting stacks keep a vertical normal.
Manifold collideBoxes(const PlacedShape& a, const PlacedShape& b, float speculative) {
    Manifold m;
    const Vec2 d = b.center - a.center;
    const Vec2 reach = a.halfExtents + b.halfExtents;
    const float sepX = std::fabs(d.x) - reach.x;
    const float sepY = std::fabs(d.y) - reach.y;
    if (sepX > speculative || sepY > speculative) return m;

    // A small bias towards y avoids flip-flopping between axes on near-square overlaps.
    const int axis = sepX > sepY + 0.1f * std::fabs(sepY) + 1e-5f ? 0 : 1;
    const int other = 1 - axis;
    const float sign = d[axis] >= 0.0f ? 1.0f : -1.0f;
    const float separation = axis == 0 ? sepX : sepY;
    m.normal = axis == 0 ? Vec2{sign, 0.0f} : Vec2{0.0f, sign};

    // Plane midway between the facing sides along the normal axis.
    const float faceA = a.center[axis] + sign * a.halfExtents[axis];
    const float faceB = b.center[axis] - sign * b.halfExtents[axis];
    const float mid = 0.5f * (faceA + faceB);

    const float loA = a.center[other] - a.halfExtents[other];
    const float hiA = a.center[other] + a.halfExtents[other];
    const float loB = b.center[other] - b.halfExtents[other];
    const float hiB = b.center[other] + b.halfExtents[other];
    float lo = std::max(loA, loB);
    float hi = std::min(hiA, hiB);
    const int loOwner = loA >= loB ? 0 : 1;
    const int hiOwner = hiA <= hiB ? 0 : 1;

    auto setPoint = [&](ManifoldPoint& p, float along, std::uint16_t id) {
        p.point[axis] = mid;
        p.point[other] = along;
        p.separation = separation;
        p.id = id;
    };
    if (lo > hi) {
        // Corner to corner: the extents do not overlap on the other axis; one point in the gap.
        const float along = 0.5f * (lo + hi);
        setPoint(m.points[0], along, boxPointId(axis, 0, 0));
        // The true distance is larger than the axis gap; it must still be within reach.
        const float gap = lo - hi;
        const float dist =
            std::sqrt(std::max(separation, 0.0f) * std::max(separation, 0.0f) + gap * gap);
        if (dist > speculative) return Manifold{};
        m.points[0].separation = std::max(separation, dist);
        m.pointCount = 1;
        return m;
    }
    setPoint(m.points[0], lo, boxPointId(axis, 0, loOwner));
    setPoint(m.points[1], hi, boxPointId(axis, 1, hiOwner));
    m.pointCount = 2;
    return m;
}

} // namespace rigid2d::detail
