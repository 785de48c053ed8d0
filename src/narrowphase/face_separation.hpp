#pragma once
// The separating-axis search over one polygon's faces: how far the other polygon lies outside each
// face, and the face where that is largest. Cores only (rounding radii are the caller's).

#include <algorithm>
#include <cmath>

#include "geometry/rot.hpp"
#include "rigid2d/types.hpp"

namespace rigid2d::detail {

struct FaceSeparation {
    float separation;
    int edge;
};

// The readers below take any polygon type with count, vertices and normals: a Polygon, or the
// unfilled copy of one that the collision places in another frame (collide_polygons.cpp). They
// are not declared inline: GCC then folds the box search's two instances into one, inlines that,
// and warns (falsely) of reads past the copy. Out of line they also took fewer instructions than
// inlined by force.

/// Largest separation of `other` along one of `poly`'s edge normals; the first face wins ties.
template <class P, class Q>
[[nodiscard]] FaceSeparation maxSeparation(const P& poly, const Q& other) noexcept {
    FaceSeparation best{-INFINITY, 0};
    for (int i = 0; i < poly.count; ++i) {
        float s = INFINITY;
        for (int j = 0; j < other.count; ++j) {
            s = std::min(s, dot(poly.normals[i], other.vertices[j] - poly.vertices[i]));
        }
        if (s > best.separation) {
            best = {s, i};
        }
    }
    return best;
}

/// Four vertices with pairwise opposite normals: a parallelogram, which every box is.
template <class P>
[[nodiscard]] bool isParallelogram(const P& p) noexcept {
    const Vec2* n = p.normals;
    return p.count == 4 && n[2].x == -n[0].x && n[2].y == -n[0].y && n[3].x == -n[1].x &&
           n[3].y == -n[1].y;
}

/// maxSeparation for two parallelograms. `other`'s vertices are c +- u +- v, so its least reach
/// along a normal n is n.c - |n.u| - |n.v|: three dot products per face instead of four vertices.
/// Equal to the vertex search up to rounding; the first face wins ties as there.
template <class P, class Q>
[[nodiscard]] FaceSeparation maxSeparationOfParallelograms(const P& poly, const Q& other) noexcept {
    const Vec2 c = 0.5f * (other.vertices[0] + other.vertices[2]);
    const Vec2 u = 0.5f * (other.vertices[1] - other.vertices[0]);
    const Vec2 v = 0.5f * (other.vertices[3] - other.vertices[0]);
    // Faces 2 and 3 have faces 0 and 1's normals negated, and dot(-n, x) is -dot(n, x) to the
    // bit: each pair of opposite faces shares its reach |n.u| + |n.v|, which is never zero (u
    // and v span a parallelogram), so no sign of a zero can tell the two ways apart.
    float separation[4];
    for (int i = 0; i < 2; ++i) {
        const Vec2 n = poly.normals[i];
        const float reach = std::fabs(dot(n, u)) + std::fabs(dot(n, v));
        separation[i] = dot(n, c - poly.vertices[i]) - reach;
        separation[i + 2] = -dot(n, c - poly.vertices[i + 2]) - reach;
    }
    FaceSeparation best{-INFINITY, 0};
    for (int i = 0; i < 4; ++i) {
        if (separation[i] > best.separation) {
            best = {separation[i], i};
        }
    }
    return best;
}

} // namespace rigid2d::detail
