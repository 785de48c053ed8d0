#pragma once
// Time of impact for continuous collision of fast ("bullet") bodies against static shapes.
// Boxes do not rotate and a circle's sweep is taken as the linear path of its centre, so every
// case reduces to a segment cast of the moving centre against the Minkowski sum of the two
// shapes grown by the target separation (the centre must stop that much sooner): a rounded box
// whose core is the sum of the boxes' half extents (empty for two circles) and whose corner
// radius is the sum of the circles' radii plus the separation.

#include "rigid2d/math.hpp"

namespace rigid2d::detail {

/// A world-frame shape: a circle (isCircle, center, radius) or an axis-aligned box
/// (center, halfExtents).
struct WorldShape {
    bool isCircle = true;
    Vec2 center{};
    float radius = 0;
    Vec2 halfExtents{};
};

/// The moving shape travels from `moving.center` to `moving.center + translation` during the step;
/// `fixed` does not move. Returns the fraction t in [0, 1] at which their distance first reaches
/// `targetSeparation` (>= 0: stop just short of touching), or 1 when they never get that close.
/// Returns 0 when they are already within targetSeparation at the start (nothing to sweep:
/// the contact solver handles overlap).
[[nodiscard]] float timeOfImpact(const WorldShape& moving, Vec2 translation,
                                 const WorldShape& fixed, float targetSeparation) noexcept;

} // namespace rigid2d::detail
