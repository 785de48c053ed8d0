#include "narrowphase/collide_chain.hpp"

#include <cmath>

#include "narrowphase/collide_polygons.hpp"

namespace rigid2d::detail {
namespace {

// Sine of the angle by which a normal may lean past a neighbour's normal and still be this
// link's: rounding in the transforms must not make a corner contact flicker between the links.
constexpr float kLeanTolerance = 0.01f;
// A normal within this sine of the link's own normal is the link's face normal.
constexpr float kFaceTolerance = 1e-3f;

// The link and its neighbours in the link's (body) frame.
struct LinkFrame {
    Vec2 p1, p2;
    Vec2 edge;             ///< p2 - p1
    Vec2 normal;           ///< unit, right of edge: the side the link collides on
    Vec2 normal0, normal2; ///< unit normals of the neighbours before p1 and after p2
    bool convex1, convex2; ///< the joins at p1 and p2 are crests (or flat), seen from the front
};

Vec2 unitRightOf(Vec2 e, Vec2 fallback) {
    const float length = std::sqrt(dot(e, e));
    return length > 0.0f ? Vec2{e.y, -e.x} / length : fallback;
}

LinkFrame frameOf(const ShapeGeometry& link) {
    LinkFrame f;
    f.p1 = link.polygon.vertices[0];
    f.p2 = link.polygon.vertices[1];
    f.edge = f.p2 - f.p1;
    f.normal = link.polygon.normals[0];
    const Vec2 edge0 = f.p1 - link.ghost1;
    const Vec2 edge2 = link.ghost2 - f.p2;
    f.normal0 = unitRightOf(edge0, f.normal);
    f.normal2 = unitRightOf(edge2, f.normal);
    f.convex1 = cross(edge0, f.edge) >= 0.0f;
    f.convex2 = cross(f.edge, edge2) >= 0.0f;
    return f;
}

// Whether the link may push along a contact normal (link frame, from the link to the body): its
// own normal, or at a crest a normal that leans no further than the neighbour's (the corner's).
bool admits(const LinkFrame& f, Vec2 normal) {
    if (dot(normal, f.normal) <= 0.0f) return false; // into the back: never
    if (std::fabs(cross(f.normal, normal)) <= kFaceTolerance) return true;
    if (dot(normal, f.edge) <= 0.0f) // leans towards p1
        return f.convex1 && cross(normal, f.normal0) <= kLeanTolerance;
    return f.convex2 && cross(f.normal2, normal) <= kLeanTolerance;
}

} // namespace

Manifold collideChainSegmentCircle(const ShapeGeometry& link, const Transform& xfA,
                                   const Circle& circle, const Transform& xfB,
                                   float speculativeDistance) noexcept {
    const LinkFrame f = frameOf(link);
    const Vec2 c = invTransformPoint(xfA, transformPoint(xfB, circle.center));
    if (dot(f.normal, c - f.p1) < 0.0f) return {};
    // Beyond an end, a centre that projects onto the neighbour is the neighbour's face contact.
    if (dot(f.edge, c - f.p1) <= 0.0f && dot(f.p1 - link.ghost1, c - f.p1) <= 0.0f) return {};
    if (dot(f.edge, c - f.p2) >= 0.0f && dot(link.ghost2 - f.p2, c - f.p2) > 0.0f) return {};
    return collidePolygonCircle(link.polygon, xfA, circle, xfB, speculativeDistance);
}

Manifold collideChainSegmentPolygon(const ShapeGeometry& link, const Transform& xfA,
                                    const Polygon& polygon, const Transform& xfB,
                                    float speculativeDistance) noexcept {
    const LinkFrame f = frameOf(link);
    const Vec2 centroid = invTransformPoint(xfA, transformPoint(xfB, polygon.centroid));
    if (dot(f.normal, centroid - f.p1) < 0.0f) return {};
    Manifold m = collidePolygons(link.polygon, xfA, polygon, xfB, speculativeDistance);
    if (m.pointCount == 0 || admits(f, invRotate(xfA.q, m.normal))) return m;
    // The best axis is one the link may not push along (the body's side against the link's end,
    // or a corner over the neighbour's face): the contact is the link's face's, limited to the
    // link's own stretch, and none where the body is wholly beyond it.
    return collideOnReferenceFace(link.polygon, 0, xfA, polygon, xfB, speculativeDistance);
}

} // namespace rigid2d::detail
