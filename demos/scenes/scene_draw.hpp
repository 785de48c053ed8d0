#pragma once
/// Drawing helpers for scenes that draw shapes themselves (the ones that show query results).

#include "rigid2d/world.hpp"

namespace rigid2d::demos {

/// Draws one shape, as `World::debugDraw` would but in the given colours.
void drawShape(const World& world, ShapeId shape, DebugDraw& draw, Color fill, Color outline);
/// Draws the four edges of `box` in `color` (a camera window, a zone).
void drawFrame(DebugDraw& draw, const AABB& box, Color color);

} // namespace rigid2d::demos
