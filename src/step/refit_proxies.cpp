// Stage 5: fat boxes refreshed where a shape left its box; the broad phase is told.
#include "step/stages.hpp"

namespace rigid2d::detail {

// A shape's fat box is its tight box grown by the margin and stretched along one step of its
// velocity: a body in steady motion stays inside it for several steps, and a fast body's pairs are
// found one step before it arrives, so the speculative contact can stop it at the surface.
void refitProxies(WorldState& state, float dt) {
    for (const std::uint32_t b : state.awakeBodies) {
        const Body& body = state.bodies[b];
        for (std::uint32_t s = body.firstShape; s != kNullIndex; s = state.shapes[s].nextInBody) {
            Shape& shape = state.shapes[s];
            const AABB tight = shapeBounds(shape, body);
            if (contains(shape.fatBox, tight)) continue;
            AABB fat = fatten(tight, state.def.aabbMargin);
            const Vec2 reach = dt * body.linearVelocity;
            (reach.x > 0.0f ? fat.upper.x : fat.lower.x) += reach.x;
            (reach.y > 0.0f ? fat.upper.y : fat.lower.y) += reach.y;
            shape.fatBox = fat;
            state.broadPhase->move(shape.proxy, shape.fatBox);
            state.markMoved(s);
        }
    }
}

} // namespace rigid2d::detail
