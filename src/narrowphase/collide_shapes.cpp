#include "narrowphase/collide_shapes.hpp"

#include <cmath>

#include "narrowphase/collide_chain.hpp"
#include "narrowphase/collide_polygons.hpp"

namespace rigid2d::detail {
namespace {

Manifold circleCircle(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b,
                      const Transform& xfB, float speculativeDistance) {
    return collideCircles(a.circle, xfA, b.circle, xfB, speculativeDistance);
}

Manifold circlePolygon(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b,
                       const Transform& xfB, float speculativeDistance) {
    return collideCirclePolygon(a.circle, xfA, b.polygon, xfB, speculativeDistance);
}

Manifold polygonCircle(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b,
                       const Transform& xfB, float speculativeDistance) {
    return collidePolygonCircle(a.polygon, xfA, b.circle, xfB, speculativeDistance);
}

Manifold polygonPolygon(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b,
                        const Transform& xfB, float speculativeDistance) {
    return collidePolygons(a.polygon, xfA, b.polygon, xfB, speculativeDistance);
}

Manifold chainCircle(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b,
                     const Transform& xfB, float speculativeDistance) {
    return collideChainSegmentCircle(a, xfA, b.circle, xfB, speculativeDistance);
}

Manifold circleChain(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b,
                     const Transform& xfB, float speculativeDistance) {
    Manifold m = collideChainSegmentCircle(b, xfB, a.circle, xfA, speculativeDistance);
    m.normal = -m.normal;
    return m;
}

Manifold chainPolygon(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b,
                      const Transform& xfB, float speculativeDistance) {
    return collideChainSegmentPolygon(a, xfA, b.polygon, xfB, speculativeDistance);
}

Manifold polygonChain(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b,
                      const Transform& xfB, float speculativeDistance) {
    Manifold m = collideChainSegmentPolygon(b, xfB, a.polygon, xfA, speculativeDistance);
    m.normal = -m.normal;
    return m;
}

Manifold noContact(const ShapeGeometry&, const Transform&, const ShapeGeometry&, const Transform&,
                   float) {
    return {};
}

constexpr int kShapeTypeCount = 6;
static_assert(static_cast<int>(ShapeType::ChainSegment) == kShapeTypeCount - 1);

// Rows A, columns B, in ShapeType order: circle, box, polygon, capsule, segment, chain segment.
// Segments and chain links never meet: neither has area, and both hold ground only.
constexpr ShapeCollideFunction kShapeCollideTable[kShapeTypeCount][kShapeTypeCount] = {
    {circleCircle, circlePolygon, circlePolygon, circlePolygon, circlePolygon, circleChain},
    {polygonCircle, polygonPolygon, polygonPolygon, polygonPolygon, polygonPolygon, polygonChain},
    {polygonCircle, polygonPolygon, polygonPolygon, polygonPolygon, polygonPolygon, polygonChain},
    {polygonCircle, polygonPolygon, polygonPolygon, polygonPolygon, polygonPolygon, polygonChain},
    {polygonCircle, polygonPolygon, polygonPolygon, polygonPolygon, noContact, noContact},
    {chainCircle, chainPolygon, chainPolygon, chainPolygon, noContact, noContact},
};

} // namespace

Manifold collideCircles(const Circle& a, const Transform& xfA, const Circle& b,
                        const Transform& xfB, float speculativeDistance) noexcept {
    const Vec2 ca = transformPoint(xfA, a.center);
    const Vec2 cb = transformPoint(xfB, b.center);
    const Vec2 d = cb - ca;
    const float distance = std::sqrt(dot(d, d));
    const float separation = distance - a.radius - b.radius;
    if (separation > speculativeDistance) {
        return {};
    }
    Manifold m;
    m.normal = distance > 0.0f ? d / distance : Vec2{0.0f, 1.0f};
    const Vec2 onA = ca + a.radius * m.normal;
    const Vec2 onB = cb - b.radius * m.normal;
    m.points[0].point = 0.5f * (onA + onB);
    m.points[0].separation = separation;
    m.points[0].id = 0;
    m.pointCount = 1;
    return m;
}

Manifold collideShapes(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b,
                       const Transform& xfB, float speculativeDistance) noexcept {
    return kShapeCollideTable[static_cast<int>(a.type)][static_cast<int>(b.type)](
        a, xfA, b, xfB, speculativeDistance);
}

} // namespace rigid2d::detail
