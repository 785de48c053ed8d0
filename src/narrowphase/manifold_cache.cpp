#include "narrowphase/manifold_cache.hpp"

#include <algorithm>
#include <cmath>

namespace rigid2d::detail {

namespace {

// A reused normal may have turned this far (rad) from the one a full collision would give (when
// B holds the reference face): the part of its impulse off the true normal stays under 0.2 %.
constexpr float kMaxTurn = 0.002f;

struct RelativePose {
    Rot rotation;
    Vec2 translation;
};

// B's placement in A's frame.
[[nodiscard]] RelativePose relativePose(const Transform& a, const Transform& b) noexcept {
    return {{a.q.c * b.q.c + a.q.s * b.q.s, a.q.c * b.q.s - a.q.s * b.q.c},
            invRotate(a.q, b.p - a.p)};
}

} // namespace

float cacheMargin(float margin, float tolerance) noexcept {
    return margin + kCacheSlack * tolerance;
}

ManifoldCache rememberManifold(const Manifold& full, const Transform& a, const Transform& b,
                               float collisionMargin) noexcept {
    ManifoldCache cache;
    // A cache without points would need B's whole outline to bound its turn: such pairs are
    // collided in full.
    if (full.pointCount == 0) return cache;
    cache.valid = true;
    const RelativePose pose = relativePose(a, b);
    cache.rotation = pose.rotation;
    cache.translation = pose.translation;
    cache.normal = invRotate(a.q, full.normal);
    cache.margin = collisionMargin;
    cache.pointCount = full.pointCount;
    for (int i = 0; i < full.pointCount; ++i) {
        cache.points[i] = invTransformPoint(a, full.points[i].point);
        cache.separations[i] = full.points[i].separation;
        cache.ids[i] = full.points[i].id;
    }
    return cache;
}

ManifoldCache rememberApart(const Transform& a, const Transform& b, float apart,
                            float reach) noexcept {
    ManifoldCache cache;
    cache.valid = true;
    const RelativePose pose = relativePose(a, b);
    cache.rotation = pose.rotation;
    cache.translation = pose.translation;
    cache.apart = apart;
    cache.reach = reach;
    return cache;
}

float reachOf(const Polygon& polygon) noexcept {
    float farthest = 0.0f;
    for (int i = 0; i < polygon.count; ++i)
        farthest = std::max(farthest, dot(polygon.vertices[i], polygon.vertices[i]));
    return std::sqrt(farthest) + polygon.radius;
}

float reachOf(const Circle& circle) noexcept {
    return std::sqrt(dot(circle.center, circle.center)) + circle.radius;
}

namespace {

// Whether shapes a cache found apart are still more than `margin` apart: B's outline has moved
// by at most its translation plus its reach times the chord of its turn.
[[nodiscard]] bool stillApart(const ManifoldCache& cache, const RelativePose& pose,
                              float margin) noexcept {
    const float room = cache.apart - margin;
    if (!(room > 0.0f)) return false;
    // Per axis first: a restored cache may hold any finite translation, whose square overflows.
    const Vec2 shift = pose.translation - cache.translation;
    if (!(std::fabs(shift.x) < room && std::fabs(shift.y) < room)) return false;
    const float dc = pose.rotation.c - cache.rotation.c, ds = pose.rotation.s - cache.rotation.s;
    const float motion = std::sqrt(dot(shift, shift)) + std::sqrt(dc * dc + ds * ds) * cache.reach;
    return motion < room;
}

} // namespace

bool reuseManifold(const ManifoldCache& cache, const Transform& a, const Transform& b, float margin,
                   float tolerance, Manifold& manifold) noexcept {
    if (!cache.valid) return false;
    if (cache.pointCount == 0) {
        if (!stillApart(cache, relativePose(a, b), margin + tolerance)) return false;
        manifold = Manifold{};
        return true;
    }
    if (!(margin + 2.0f * tolerance <= cache.margin)) return false;
    const RelativePose pose = relativePose(a, b);
    const float turnSin = cache.rotation.c * pose.rotation.s - cache.rotation.s * pose.rotation.c;
    const float turnCos = cache.rotation.c * pose.rotation.c + cache.rotation.s * pose.rotation.s;
    if (!(turnCos > 0.0f && turnSin <= kMaxTurn && turnSin >= -kMaxTurn)) return false;
    // Per axis first: a restored cache may hold any finite translation, whose square overflows.
    const Vec2 shift = pose.translation - cache.translation;
    if (!(std::fabs(shift.x) <= tolerance && std::fabs(shift.y) <= tolerance)) return false;
    const float limit = tolerance * tolerance;
    if (!(dot(shift, shift) <= limit)) return false;
    // Each point where B's motion since the full collision carries it, in A's frame.
    Vec2 moved[kMaxManifoldPoints];
    for (int i = 0; i < cache.pointCount; ++i) {
        const Vec2 onB = invRotate(cache.rotation, cache.points[i] - cache.translation);
        moved[i] = rotate(pose.rotation, onB) + pose.translation - cache.points[i];
        if (!(dot(moved[i], moved[i]) <= limit)) return false;
    }
    const Manifold previous = manifold;
    manifold.normal = rotate(a.q, cache.normal);
    int count = 0;
    for (int i = 0; i < cache.pointCount; ++i) {
        const float separation = cache.separations[i] + dot(cache.normal, moved[i]);
        if (separation > margin) continue;
        ManifoldPoint& p = manifold.points[count++];
        p = ManifoldPoint{};
        p.point = transformPoint(a, cache.points[i] + 0.5f * moved[i]);
        p.separation = separation;
        p.id = cache.ids[i];
    }
    manifold.pointCount = count;
    carryImpulses(manifold, previous);
    return true;
}

void dropBeyond(Manifold& manifold, float margin) noexcept {
    int kept = 0;
    for (int i = 0; i < manifold.pointCount; ++i)
        if (manifold.points[i].separation <= margin) manifold.points[kept++] = manifold.points[i];
    manifold.pointCount = kept;
}

} // namespace rigid2d::detail
