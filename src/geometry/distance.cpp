#include "geometry/distance.hpp"

#include <cmath>

namespace rigid2d::detail {
namespace {

// GJK in 2D. The Minkowski difference B - A holds w = b - a for every pair of points; the cores
// overlap exactly when it contains the origin, and otherwise its point nearest the origin is the
// difference of the closest points. A simplex of up to three difference points walks towards
// the origin:
//
//   simplex = { b0 - a0 }
//   loop:
//     reduce the simplex to the smallest face holding its point nearest the origin, p
//     if the simplex is a triangle holding the origin, or p is the origin: overlap
//     w = support of B along -p minus support of A along p   (the farthest point towards 0)
//     if w is already in the simplex, or gets no nearer than p: p is the answer
//     add w
//
// Each simplex vertex keeps its weight so the closest points come back as a0..a2, b0..b2 blends.

struct SimplexVertex {
    Vec2 a, b, w; // points of A and B (world frame) and w = b - a
    int indexA, indexB;
    float weight;
};

struct Simplex {
    SimplexVertex v[3];
    int count = 0;
};

int support(const Vec2* points, int count, Vec2 direction) {
    int best = 0;
    float most = dot(points[0], direction);
    for (int i = 1; i < count; ++i) {
        const float d = dot(points[i], direction);
        if (d > most) {
            most = d;
            best = i;
        }
    }
    return best;
}

// Nearest point of segment v0-v1 to the origin, as weights on v0 and v1.
void nearestOnEdge(const SimplexVertex& v0, const SimplexVertex& v1, Simplex& out) {
    const Vec2 e = v1.w - v0.w;
    const float t = -dot(v0.w, e);
    const float length2 = dot(e, e);
    out.count = 0;
    if (t <= 0.0f || length2 == 0.0f) {
        out.v[out.count] = v0;
        out.v[out.count++].weight = 1.0f;
    } else if (t >= length2) {
        out.v[out.count] = v1;
        out.v[out.count++].weight = 1.0f;
    } else {
        out.v[0] = v0;
        out.v[0].weight = 1.0f - t / length2;
        out.v[1] = v1;
        out.v[1].weight = t / length2;
        out.count = 2;
    }
}

Vec2 nearestPoint(const Simplex& s) {
    Vec2 p{0.0f, 0.0f};
    for (int i = 0; i < s.count; ++i) p += s.v[i].weight * s.v[i].w;
    return p;
}

// Reduces the simplex to the face nearest the origin. Returns true when a triangle holds the
// origin (the cores overlap).
bool reduce(Simplex& s) {
    if (s.count == 1) {
        s.v[0].weight = 1.0f;
        return false;
    }
    if (s.count == 2) {
        const Simplex edge = s;
        nearestOnEdge(edge.v[0], edge.v[1], s);
        return false;
    }
    const Vec2 w0 = s.v[0].w, w1 = s.v[1].w, w2 = s.v[2].w;
    const float area = cross(w1 - w0, w2 - w0);
    // The origin is inside when it is on the inner side of all three edges.
    const float c0 = cross(w1, w2), c1 = cross(w2, w0), c2 = cross(w0, w1);
    if (area != 0.0f && c0 * area >= 0.0f && c1 * area >= 0.0f && c2 * area >= 0.0f) {
        return true;
    }
    // Outside: the nearest point is on the boundary, on the nearest of the three edges.
    Simplex best;
    float bestDistance = INFINITY;
    const int edges[3][2] = {{0, 1}, {1, 2}, {2, 0}};
    for (const auto& edge : edges) {
        Simplex candidate;
        nearestOnEdge(s.v[edge[0]], s.v[edge[1]], candidate);
        const Vec2 p = nearestPoint(candidate);
        const float d = dot(p, p);
        if (d < bestDistance) {
            bestDistance = d;
            best = candidate;
        }
    }
    s = best;
    return false;
}

} // namespace

DistanceProxy makeProxy(const ShapeGeometry& shape) noexcept {
    DistanceProxy proxy;
    if (shape.type == ShapeType::Circle) {
        proxy.points[0] = shape.circle.center;
        proxy.count = 1;
        proxy.radius = shape.circle.radius;
        return proxy;
    }
    for (int i = 0; i < shape.polygon.count; ++i) proxy.points[i] = shape.polygon.vertices[i];
    proxy.count = shape.polygon.count;
    proxy.radius = shape.polygon.radius;
    return proxy;
}

CoreDistance coreDistance(const DistanceProxy& a, const Transform& xfA, const DistanceProxy& b,
                          const Transform& xfB) noexcept {
    Vec2 pointsA[kMaxPolygonVertices];
    Vec2 pointsB[kMaxPolygonVertices];
    for (int i = 0; i < a.count; ++i) pointsA[i] = transformPoint(xfA, a.points[i]);
    for (int i = 0; i < b.count; ++i) pointsB[i] = transformPoint(xfB, b.points[i]);

    Simplex s;
    s.v[0] = {pointsA[0], pointsB[0], pointsB[0] - pointsA[0], 0, 0, 1.0f};
    s.count = 1;
    CoreDistance out;
    bool overlap = false;
    for (out.iterations = 1; out.iterations <= kMaxDistanceIterations; ++out.iterations) {
        overlap = reduce(s);
        if (overlap) break;
        const Vec2 p = nearestPoint(s);
        const float p2 = dot(p, p);
        if (p2 == 0.0f) {
            overlap = true;
            break;
        }
        const int ia = support(pointsA, a.count, p);
        const int ib = support(pointsB, b.count, -p);
        bool known = false;
        for (int i = 0; i < s.count; ++i) {
            known = known || (s.v[i].indexA == ia && s.v[i].indexB == ib);
        }
        const Vec2 w = pointsB[ib] - pointsA[ia];
        // No progress towards the origin (up to rounding): p is as near as it gets.
        if (known || dot(w, p) >= p2 * (1.0f - 1e-6f)) break;
        s.v[s.count++] = {pointsA[ia], pointsB[ib], w, ia, ib, 0.0f};
    }
    out.iterations =
        out.iterations > kMaxDistanceIterations ? kMaxDistanceIterations : out.iterations;
    Vec2 pa{0.0f, 0.0f}, pb{0.0f, 0.0f};
    for (int i = 0; i < s.count; ++i) {
        pa += s.v[i].weight * s.v[i].a;
        pb += s.v[i].weight * s.v[i].b;
    }
    out.pointA = pa;
    out.pointB = pb;
    if (overlap) {
        out.distance = 0.0f;
        out.pointB = out.pointA;
    } else {
        const Vec2 d = pb - pa;
        out.distance = std::sqrt(dot(d, d));
    }
    return out;
}

} // namespace rigid2d::detail
