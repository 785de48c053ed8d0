// makePolygon and makeBox: the only ways to build a Polygon, so every polygon the narrow phase
// sees is convex, counter-clockwise, free of slivers and carries unit normals.

#include <algorithm>
#include <array>
#include <cmath>

#include "core/check.hpp"
#include "geometry/rot.hpp"
#include "geometry/shape_geometry.hpp"
#include "rigid2d/geometry.hpp"

namespace rigid2d {
namespace {

constexpr const char* kMakePolygon = "makePolygon";

float cross3(Vec2 o, Vec2 a, Vec2 b) { return detail::cross(a - o, b - o); }

// Distance of `p` from the line through `a` and `b` (a != b).
float distanceFromLine(Vec2 p, Vec2 a, Vec2 b) {
    const Vec2 e = b - a;
    return std::fabs(detail::cross(e, p - a)) / std::sqrt(detail::dot(e, e));
}

// Fills normals and centroid of a counter-clockwise convex polygon whose vertices are set.
void finish(Polygon& polygon) {
    const int n = polygon.count;
    for (int i = 0; i < n; ++i) {
        const Vec2 e = polygon.vertices[(i + 1) % n] - polygon.vertices[i];
        polygon.normals[i] = Vec2{e.y, -e.x} / std::sqrt(detail::dot(e, e));
    }
    // Triangle fan about the first vertex, in double: the polygon may sit far from its body
    // origin, and the centroid feeds the body's centre of mass.
    const Vec2 origin = polygon.vertices[0];
    double area = 0.0, cx = 0.0, cy = 0.0;
    for (int i = 1; i + 1 < n; ++i) {
        const double ax = polygon.vertices[i].x - origin.x, ay = polygon.vertices[i].y - origin.y;
        const double bx = polygon.vertices[i + 1].x - origin.x;
        const double by = polygon.vertices[i + 1].y - origin.y;
        const double a = 0.5 * (ax * by - ay * bx);
        area += a;
        cx += a * (ax + bx) / 3.0;
        cy += a * (ay + by) / 3.0;
    }
    polygon.centroid = origin + Vec2{static_cast<float>(cx / area), static_cast<float>(cy / area)};
}

double hullArea(const Polygon& polygon) {
    double area = 0.0;
    for (int i = 1; i + 1 < polygon.count; ++i)
        area += 0.5 * static_cast<double>(cross3(polygon.vertices[0], polygon.vertices[i],
                                                 polygon.vertices[i + 1]));
    return area;
}

} // namespace

Polygon makePolygon(std::span<const Vec2> points, float radius) {
    const int count = static_cast<int>(points.size());
    detail::require(count >= 3 && count <= kMaxPolygonVertices, kMakePolygon, "points.size()",
                    "must be 3 to kMaxPolygonVertices (8)", static_cast<float>(count));
    // Bounded like every shape's reach, so that no difference or cross product below overflows
    // (a polygon beyond it could not be attached to a body anyway).
    for (const Vec2 p : points) {
        detail::requireFinite(kMakePolygon, "points", p);
        detail::require(std::fabs(p.x) <= kMaxShapeSize && std::fabs(p.y) <= kMaxShapeSize,
                        kMakePolygon, "points",
                        "must be within kMaxShapeSize = 1e8 m of the origin", p);
    }
    detail::require(isFinite(radius) && radius >= 0.0f && radius <= kMaxShapeSize, kMakePolygon,
                    "radius", "must be finite and in [0, kMaxShapeSize = 1e8 m]", radius);

    // Sorted by x, then y (insertion sort: at most eight points).
    std::array<Vec2, kMaxPolygonVertices> sorted{};
    for (int i = 0; i < count; ++i) {
        const Vec2 p = points[static_cast<std::size_t>(i)];
        int j = i;
        for (;
             j > 0 && (p.x < sorted[j - 1].x || (p.x == sorted[j - 1].x && p.y < sorted[j - 1].y));
             --j)
            sorted[j] = sorted[j - 1];
        sorted[j] = p;
    }
    for (int i = 0; i < count; ++i)
        for (int j = i + 1; j < count; ++j) {
            const Vec2 d = sorted[i] - sorted[j];
            detail::require(detail::dot(d, d) >= kPolygonWeldDistance * kPolygonWeldDistance,
                            kMakePolygon, "points",
                            "must not hold duplicate points (closer than kPolygonWeldDistance)",
                            sorted[i]);
        }

    // Monotone chain: a lower and an upper chain, each dropping points that do not turn left, so
    // interior points and points on an edge never become vertices.
    std::array<Vec2, 2 * kMaxPolygonVertices> hull{};
    int size = 0;
    for (int pass = 0; pass < 2; ++pass) {
        const int floor = size;
        for (int k = 0; k < count; ++k) {
            const Vec2 p = pass == 0 ? sorted[k] : sorted[count - 1 - k];
            while (size >= floor + 2 && cross3(hull[size - 2], hull[size - 1], p) <= 0.0f) --size;
            hull[size++] = p;
        }
        --size; // the last point of each chain starts the other
    }

    // In exact arithmetic a hull has at most `count` vertices; float rounding of the turn test on
    // nearly collinear points can make the chains revisit a point.
    detail::require(size <= count, kMakePolygon, "points",
                    "must be in general position: nearly collinear points make the hull ambiguous "
                    "in floats");

    // A vertex that barely bends its neighbours' line makes a sliver edge whose normal is noise.
    bool removed = true;
    while (removed && size >= 3) {
        removed = false;
        for (int i = 0; i < size; ++i) {
            const Vec2 prev = hull[(i + size - 1) % size], next = hull[(i + 1) % size];
            if (distanceFromLine(hull[i], prev, next) < kPolygonWeldDistance) {
                std::copy(hull.begin() + i + 1, hull.begin() + size, hull.begin() + i);
                --size;
                removed = true;
                break;
            }
        }
    }
    detail::require(size >= 3, kMakePolygon, "points", "must not all lie on one line");

    Polygon polygon;
    polygon.count = size;
    polygon.radius = radius;
    std::copy(hull.begin(), hull.begin() + size, polygon.vertices);
    const double area = hullArea(polygon);
    detail::require(area >= static_cast<double>(kMinPolygonArea), kMakePolygon, "points",
                    "must enclose an area of at least kMinPolygonArea (1e-6 m^2)",
                    static_cast<float>(area));
    finish(polygon);
    return polygon;
}

Polygon detail::makeBoxPolygon(Vec2 halfExtents, Vec2 center, detail::Rot q) noexcept {
    const Vec2 corners[4] = {{-halfExtents.x, -halfExtents.y},
                             {halfExtents.x, -halfExtents.y},
                             {halfExtents.x, halfExtents.y},
                             {-halfExtents.x, halfExtents.y}};
    const Vec2 normals[4] = {{0.0f, -1.0f}, {1.0f, 0.0f}, {0.0f, 1.0f}, {-1.0f, 0.0f}};
    Polygon box;
    box.count = 4;
    for (int i = 0; i < 4; ++i) {
        box.vertices[i] = center + rotate(q, corners[i]);
        box.normals[i] = rotate(q, normals[i]);
    }
    box.centroid = center;
    return box;
}

Polygon makeBox(Vec2 halfExtents, Vec2 center, float angle) {
    detail::require(isFinite(halfExtents) && halfExtents.x > 0.0f && halfExtents.y > 0.0f,
                    "makeBox", "halfExtents", "must be finite and > 0", halfExtents);
    detail::require(4.0f * halfExtents.x * halfExtents.y >= kMinPolygonArea, "makeBox",
                    "halfExtents", "must give an area of at least kMinPolygonArea (1e-6 m^2)",
                    halfExtents);
    detail::requireFinite("makeBox", "center", center);
    detail::requireFinite("makeBox", "angle", angle);

    return detail::makeBoxPolygon(halfExtents, center, detail::makeRot(angle));
}

} // namespace rigid2d
