#pragma once
// Contact manifolds between placed shapes: circle–circle, circle–box, box–box (boxes are
// axis-aligned in the world frame). Each function returns a Manifold by value; the world picks
// it from a [ShapeType][ShapeType] table so no branch or virtual call decides per pair.

#include <cstdint>

#include "narrowphase/placed_shape.hpp"

namespace rigid2d::detail {

inline constexpr int kMaxManifoldPoints = 2;

/// One contact point. The narrow phase fills point/separation/id; the contact update adds the
/// anchors and carries the accumulated impulses across steps (warm starting, matched by id).
struct ManifoldPoint {
    Vec2 point{};              ///< world frame, midway between the two surfaces
    Vec2 anchorA{}, anchorB{}; ///< point relative to each body's centre of mass, world frame
    float separation = 0.0f;   ///< m, negative when overlapping
    float normalImpulse = 0.0f;
    float tangentImpulse = 0.0f;
    float maxNormalImpulse = 0.0f; ///< largest normal impulse of the last step (hit events)
    float approachSpeed = 0.0f;    ///< normal approach speed before the solve, m/s (> 0 = closing)
    std::uint16_t id = 0;          ///< feature id, stable while the same features touch
};

struct Manifold {
    Vec2 normal{}; ///< unit, from shape A to shape B
    ManifoldPoint points[kMaxManifoldPoints];
    int pointCount = 0;
};

/// The point of the hardest hit among the first `count` points of a solved manifold, -1 if none:
/// its fastest approach among the points that pushed. `speed` is that approach speed (0 if none).
[[nodiscard]] inline int hardestHit(const ManifoldPoint* points, int count, float& speed) noexcept {
    speed = 0.0f;
    int best = -1;
    for (int i = 0; i < count; ++i) {
        const ManifoldPoint& p = points[i];
        if (p.maxNormalImpulse > 0.0f && p.approachSpeed > speed) {
            speed = p.approachSpeed;
            best = i;
        }
    }
    return best;
}

[[nodiscard]] inline int hardestHit(const Manifold& manifold, float& speed) noexcept {
    return hardestHit(manifold.points, manifold.pointCount, speed);
}

/// Whether hardestHit finds a point among the first `count` whose speed reaches `threshold`
/// (m/s): whether some point pushed while approaching at least that fast. Without branches: the
/// solver asks it of every constraint it stores, and the answers follow no pattern.
[[nodiscard]] inline bool wasHit(const ManifoldPoint* points, int count, float threshold) noexcept {
    bool hit = false;
    for (int i = 0; i < count; ++i) {
        const float speed = points[i].approachSpeed;
        hit |= (points[i].maxNormalImpulse > 0.0f) & (speed > 0.0f) & (speed >= threshold);
    }
    return hit;
}

/// Warm starting: each point of `fresh` takes the impulses of the point of `old` with its id.
inline void carryImpulses(Manifold& fresh, const Manifold& old) noexcept {
    for (int i = 0; i < fresh.pointCount; ++i) {
        ManifoldPoint& p = fresh.points[i];
        for (int j = 0; j < old.pointCount; ++j) {
            if (old.points[j].id != p.id) continue;
            p.normalImpulse = old.points[j].normalImpulse;
            p.tangentImpulse = old.points[j].tangentImpulse;
            break;
        }
    }
}

/// Builds the manifold of A and B; points farther apart than `speculativeDistance` are dropped.
using CollideFunction = Manifold (*)(const PlacedShape& a, const PlacedShape& b,
                                     float speculativeDistance);

[[nodiscard]] Manifold collideCircles(const PlacedShape& a, const PlacedShape& b,
                                      float speculative);
[[nodiscard]] Manifold collideCircleBox(const PlacedShape& a, const PlacedShape& b,
                                        float speculative);
[[nodiscard]] Manifold collideBoxCircle(const PlacedShape& a, const PlacedShape& b,
                                        float speculative);
[[nodiscard]] Manifold collideBoxes(const PlacedShape& a, const PlacedShape& b, float speculative);

/// kCollideTable[typeA][typeB] (ShapeType::Circle = 0, Box = 1).
inline constexpr CollideFunction kCollideTable[2][2] = {
    {&collideCircles, &collideCircleBox},
    {&collideBoxCircle, &collideBoxes},
};

[[nodiscard]] inline Manifold collide(const PlacedShape& a, const PlacedShape& b,
                                      float speculative) {
    return kCollideTable[static_cast<int>(a.type)][static_cast<int>(b.type)](a, b, speculative);
}

} // namespace rigid2d::detail
