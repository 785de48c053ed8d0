#include "narrowphase/collide_polygons.hpp"
#include "narrowphase/face_separation.hpp"

#include <algorithm>
#include <cmath>

namespace rigid2d::detail {
namespace {

// B's reference face wins only when it separates by this much more than A's (a tenth of the
// linear slop), so nearly equal faces swap rarely (the ids survive a swap; the points shift a
// little, from one face's side planes to the other's).
constexpr float kReferenceFaceTolerance = 0.1f * 0.005f;

// `p`, placed by `from`, in the frame of `to`: what the clipping reads (count, radius, vertices
// and normals), and only the `count` entries in use. Unlike a Polygon it is not zero-filled: that
// cleared 144 bytes a call for the eight slots, where a box uses four.
struct FramedPolygon {
    Vec2 vertices[kMaxPolygonVertices];
    Vec2 normals[kMaxPolygonVertices];
    int count;
    float radius;
};

// Through the relative transform, one rotation per vertex and normal. A parallelogram's last two
// normals are its first two negated, and so are their rotations: to the bit, but for the sign of
// a zero component, which no comparison sees.
FramedPolygon intoFrame(const Polygon& p, const Transform& from, const Transform& to) {
    const Rot q{to.q.c * from.q.c + to.q.s * from.q.s, to.q.c * from.q.s - to.q.s * from.q.c};
    const Vec2 shift = invRotate(to.q, from.p - to.p);
    FramedPolygon out;
    out.count = p.count;
    out.radius = p.radius;
    for (int i = 0; i < p.count; ++i) out.vertices[i] = rotate(q, p.vertices[i]) + shift;
    if (isParallelogram(p)) {
        out.normals[0] = rotate(q, p.normals[0]);
        out.normals[1] = rotate(q, p.normals[1]);
        out.normals[2] = -out.normals[0];
        out.normals[3] = -out.normals[1];
    } else {
        for (int i = 0; i < p.count; ++i) out.normals[i] = rotate(q, p.normals[i]);
    }
    return out;
}

struct SegmentClosest {
    float s, t; // parameters on the first and second segment, in [0, 1]
};

// Closest points of segments p1 + s (q1 - p1) and p2 + t (q2 - p2).
SegmentClosest closestOnSegments(Vec2 p1, Vec2 q1, Vec2 p2, Vec2 q2) {
    const Vec2 d1 = q1 - p1;
    const Vec2 d2 = q2 - p2;
    const Vec2 r = p1 - p2;
    const float a = dot(d1, d1);
    const float e = dot(d2, d2);
    const float f = dot(d2, r);
    const float c = dot(d1, r);
    const float b = dot(d1, d2);
    const float denom = a * e - b * b;
    float s = denom > 1e-12f * a * e ? std::clamp((b * f - c * e) / denom, 0.0f, 1.0f) : 0.0f;
    float t = (b * s + f) / e;
    if (t < 0.0f) {
        t = 0.0f;
        s = std::clamp(-c / a, 0.0f, 1.0f);
    } else if (t > 1.0f) {
        t = 1.0f;
        s = std::clamp((b - c) / a, 0.0f, 1.0f);
    }
    return {s, t};
}

void addPoint(Manifold& m, Vec2 point, float separation, std::uint16_t id) {
    ManifoldPoint& mp = m.points[m.pointCount++];
    mp.point = point;
    mp.separation = separation;
    mp.id = id;
}

// Everything in A's frame; `flip` says the reference polygon is B. Fills the normal in the
// reference polygon's direction (towards the incident one) and the points in A's frame.
template <class Ref, class Inc>
Manifold clipAgainstReference(const Ref& ref, int refEdge, const Inc& inc, bool flip,
                              bool coresSeparated, float speculative) {
    Manifold m;
    const float radius = ref.radius + inc.radius;
    const Vec2 n = ref.normals[refEdge];
    int incEdge = 0;
    float most = INFINITY;
    for (int j = 0; j < inc.count; ++j) {
        const float d = dot(n, inc.normals[j]);
        if (d < most) {
            most = d;
            incEdge = j;
        }
    }
    const int refNext = refEdge + 1 < ref.count ? refEdge + 1 : 0;
    const int incNext = incEdge + 1 < inc.count ? incEdge + 1 : 0;
    const Vec2 v11 = ref.vertices[refEdge];
    const Vec2 v12 = ref.vertices[refNext];
    const Vec2 v21 = inc.vertices[incEdge];
    const Vec2 v22 = inc.vertices[incNext];
    // A point's id names the vertex of A and the vertex of B it lies between, whichever polygon
    // gives the reference face: when nearly equal faces (boxes in a stack) swap that role from one
    // step to the next, the points keep their ids and so their warm start.
    const auto featureId = [flip](int refVertex, int incVertex) {
        return static_cast<std::uint16_t>(flip ? incVertex << 8 | refVertex
                                               : refVertex << 8 | incVertex);
    };

    const Vec2 tangent = (v12 - v11) / std::sqrt(dot(v12 - v11, v12 - v11));
    const float length = dot(tangent, v12 - v11);
    const float s1 = dot(tangent, v21 - v11);
    const float s2 = dot(tangent, v22 - v11);
    // The incident edge's stretch between the reference face's side planes.
    float uLow = 0.0f;
    float uHigh = 1.0f;
    if (std::fabs(s2 - s1) > 1e-9f) {
        const float ua = (0.0f - s1) / (s2 - s1);
        const float ub = (length - s1) / (s2 - s1);
        uLow = std::max(0.0f, std::min(ua, ub));
        uHigh = std::min(1.0f, std::max(ua, ub));
    }
    const bool clipEmpty = uLow > uHigh;

    if (coresSeparated || clipEmpty) {
        // Corner against corner: the face normal is not the direction between the closest
        // features, which rounded corners need to meet correctly. Collinear capsules end to end
        // have no separating face normal at all (both separations are 0) and land here too.
        const SegmentClosest sc = closestOnSegments(v11, v12, v21, v22);
        const bool cornerA = sc.s == 0.0f || sc.s == 1.0f;
        const bool cornerB = sc.t == 0.0f || sc.t == 1.0f;
        const Vec2 p1 = v11 + sc.s * (v12 - v11);
        const Vec2 p2 = v21 + sc.t * (v22 - v21);
        const Vec2 d = p2 - p1;
        // Corners right above each other (aligned boxes) are a face contact: two points.
        const bool offset = std::fabs(cross(d, n)) > kReferenceFaceTolerance;
        if (cornerA && cornerB && offset) {
            const float dist = std::sqrt(dot(d, d));
            if (dist > 1e-9f) {
                const float separation = dist - radius;
                if (separation > speculative) {
                    return m;
                }
                m.normal = d / dist;
                const Vec2 mid = 0.5f * (p1 + ref.radius * m.normal + p2 - inc.radius * m.normal);
                const int refVertex = sc.s == 0.0f ? refEdge : refNext;
                const int incVertex = sc.t == 0.0f ? incEdge : incNext;
                addPoint(m, mid, separation, featureId(refVertex, incVertex));
                return m;
            }
        }
    }

    if (clipEmpty) {
        return m;
    }
    m.normal = n;
    const Vec2 clipped[2] = {v21 + uLow * (v22 - v21), v21 + uHigh * (v22 - v21)};
    // The incident edge runs against the reference face: its first vertex lies towards the
    // face's second one.
    const int incVertex[2] = {incEdge, incNext};
    const int refVertex[2] = {refNext, refEdge};
    for (int k = 0; k < 2; ++k) {
        const float depth = dot(n, clipped[k] - v11);
        const float separation = depth - radius;
        if (separation > speculative) {
            continue;
        }
        const Vec2 onRef = clipped[k] + (ref.radius - depth) * n;
        const Vec2 onInc = clipped[k] - inc.radius * n;
        addPoint(m, 0.5f * (onRef + onInc), separation, featureId(refVertex[k], incVertex[k]));
    }
    return m;
}

} // namespace

Manifold collidePolygons(const Polygon& a, const Transform& xfA, const Polygon& b,
                         const Transform& xfB, float speculativeDistance, float* apart) noexcept {
    const FramedPolygon localB = intoFrame(b, xfB, xfA);
    // Boxes against boxes, the most common pair, take the shortcut.
    const bool boxes = isParallelogram(a) && isParallelogram(localB);
    const FaceSeparation faceA =
        boxes ? maxSeparationOfParallelograms(a, localB) : maxSeparation(a, localB);
    const FaceSeparation faceB =
        boxes ? maxSeparationOfParallelograms(localB, a) : maxSeparation(localB, a);
    const float radius = a.radius + b.radius;
    const float farthest = std::max(faceA.separation, faceB.separation);
    if (farthest > speculativeDistance + radius) {
        if (apart != nullptr) *apart = farthest - radius;
        return {};
    }
    const bool flip = faceB.separation > faceA.separation + kReferenceFaceTolerance;
    const float coreSeparation = flip ? faceB.separation : faceA.separation;
    Manifold m = flip ? clipAgainstReference(localB, faceB.edge, a, true, coreSeparation >= 0.0f,
                                             speculativeDistance)
                      : clipAgainstReference(a, faceA.edge, localB, false, coreSeparation >= 0.0f,
                                             speculativeDistance);
    m.normal = rotate(xfA.q, flip ? -m.normal : m.normal);
    for (int k = 0; k < m.pointCount; ++k) {
        m.points[k].point = transformPoint(xfA, m.points[k].point);
    }
    if (m.pointCount == 0) {
        // Two-vertex cores (capsules, segments) have an exact distance, where the axes of their
        // faces only bound it: end to end, or crossed, they are often farther apart than that.
        if (apart != nullptr && a.count == 2 && localB.count == 2) {
            const SegmentClosest sc = closestOnSegments(a.vertices[0], a.vertices[1],
                                                        localB.vertices[0], localB.vertices[1]);
            const Vec2 d = localB.vertices[0] + sc.t * (localB.vertices[1] - localB.vertices[0]) -
                           (a.vertices[0] + sc.s * (a.vertices[1] - a.vertices[0]));
            *apart = std::sqrt(dot(d, d)) - radius;
        }
        return {};
    }
    return m;
}

Manifold collideOnReferenceFace(const Polygon& a, int edge, const Transform& xfA, const Polygon& b,
                                const Transform& xfB, float speculativeDistance) noexcept {
    const FramedPolygon localB = intoFrame(b, xfB, xfA);
    Manifold m = clipAgainstReference(a, edge, localB, false, false, speculativeDistance);
    // An incident edge wholly beyond the side planes can come back as a corner contact, whose
    // normal is not the face's: that is no contact on this face.
    const Vec2 n = a.normals[edge];
    if (m.pointCount == 0 || m.normal.x != n.x || m.normal.y != n.y) return {};
    m.normal = rotate(xfA.q, m.normal);
    for (int k = 0; k < m.pointCount; ++k)
        m.points[k].point = transformPoint(xfA, m.points[k].point);
    return m;
}

Manifold collidePolygonCircle(const Polygon& a, const Transform& xfA, const Circle& b,
                              const Transform& xfB, float speculativeDistance,
                              float* apart) noexcept {
    const Vec2 c = invTransformPoint(xfA, transformPoint(xfB, b.center));
    const float radius = a.radius + b.radius;
    FaceSeparation face{-INFINITY, 0};
    for (int i = 0; i < a.count; ++i) {
        const float s = dot(a.normals[i], c - a.vertices[i]);
        if (s > face.separation) {
            face = {s, i};
        }
    }
    if (face.separation > speculativeDistance + radius) {
        if (apart != nullptr) *apart = face.separation - radius;
        return {};
    }
    Vec2 normal = a.normals[face.edge];
    Vec2 closest = c - face.separation * normal;
    float separation = face.separation - radius;
    if (face.separation >= 0.0f) {
        // Outside the core (or on its edge): the closest point of the core lies on the face of
        // largest separation, ends included, since the normals around a corner bracket the
        // direction from it to the centre. Past an end it is that corner, whose normal points at
        // the centre; else the face's foot of the centre. A two-vertex core (capsule, segment)
        // always lands here: its opposite normals give a separation >= 0 even for a centre on its
        // line beyond an end.
        const Vec2 v1 = a.vertices[face.edge];
        const Vec2 v2 = a.vertices[face.edge + 1 < a.count ? face.edge + 1 : 0];
        const bool pastV1 = dot(c - v1, v2 - v1) < 0.0f;
        if (pastV1 || dot(c - v2, v1 - v2) < 0.0f) {
            closest = pastV1 ? v1 : v2;
            const Vec2 toCentre = c - closest;
            const float dist = std::sqrt(dot(toCentre, toCentre));
            if (dist > 1e-9f) normal = toCentre / dist;
            separation = dist - radius;
        }
    }
    if (separation > speculativeDistance) {
        // The distance itself: no closer than that, as a separating axis would say.
        if (apart != nullptr) *apart = separation;
        return {};
    }
    Manifold m;
    m.normal = rotate(xfA.q, normal);
    const Vec2 onA = closest + a.radius * normal;
    const Vec2 onB = c - b.radius * normal;
    addPoint(m, transformPoint(xfA, 0.5f * (onA + onB)), separation, 0);
    return m;
}

Manifold collideCirclePolygon(const Circle& a, const Transform& xfA, const Polygon& b,
                              const Transform& xfB, float speculativeDistance,
                              float* apart) noexcept {
    Manifold m = collidePolygonCircle(b, xfB, a, xfA, speculativeDistance, apart);
    m.normal = -m.normal;
    return m;
}

} // namespace rigid2d::detail
