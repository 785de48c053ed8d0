// The refit's new fat boxes: the tight box grown by the speculative distance and the margin, and
// stretched along one step of the body's velocity, the stretch at most eight margins long.
#include <doctest/doctest.h>

#include <cmath>

#include "rigid2d/testing.hpp"
#include "state/world_access.hpp"
#include "state/world_state.hpp"

using namespace rigid2d;
using rigid2d::testing::kDefaultTimeStep;

namespace {

struct Refit {
    AABB tight;
    AABB fat;
    float margin = 0.0f;     ///< what the fat box adds to each side (WorldState::fatMargin)
    float aabbMargin = 0.0f; ///< WorldDef::aabbMargin, the unit of the stretch's cap
};

// One ball without gravity, moving at `velocity`, after one step: fast enough to leave the fat box
// it was created with, so the refit renews it.
Refit refitAfterOneStep(Vec2 velocity) {
    World world(WorldDef{.gravity = {0.0f, 0.0f}});
    const BodyId ball = world.createBody(
        {.type = BodyType::Dynamic, .position = {0.0f, 0.0f}, .linearVelocity = velocity});
    world.createCircle(ball, {}, Circle{{0.0f, 0.0f}, 0.5f});
    world.step(kDefaultTimeStep);
    const detail::WorldState& state = detail::WorldAccess::state(world);
    const detail::Shape& shape = state.shapes[state.bodies[ball.index].firstShape];
    return {shape.tightBox, shape.fatBox, state.fatMargin(), state.def.aabbMargin};
}

} // namespace

TEST_CASE("refit: a fat box stretches by one step of the velocity, at most eight margins") {
    SUBCASE("a step shorter than eight margins: the whole step") {
        const Vec2 velocity{9.0f, -6.0f}; // 0.15 and 0.1 m a step: beyond the 0.05 m margin
        const Refit r = refitAfterOneStep(velocity);
        CHECK(r.fat.lower.x == doctest::Approx(r.tight.lower.x - r.margin).epsilon(1e-6));
        CHECK(r.fat.upper.x ==
              doctest::Approx(r.tight.upper.x + r.margin + velocity.x * kDefaultTimeStep)
                  .epsilon(1e-6));
        CHECK(r.fat.lower.y ==
              doctest::Approx(r.tight.lower.y - r.margin + velocity.y * kDefaultTimeStep)
                  .epsilon(1e-6));
        CHECK(r.fat.upper.y == doctest::Approx(r.tight.upper.y + r.margin).epsilon(1e-6));
    }
    SUBCASE("a longer step: eight margins along the velocity") {
        const Vec2 velocity{60.0f, 80.0f}; // 1.67 m a step
        const Refit r = refitAfterOneStep(velocity);
        const float stretchX = (r.fat.upper.x - r.tight.upper.x) - r.margin;
        const float stretchY = (r.fat.upper.y - r.tight.upper.y) - r.margin;
        CHECK(std::hypot(stretchX, stretchY) == doctest::Approx(8.0f * r.aabbMargin).epsilon(1e-5));
        CHECK(stretchX * velocity.y == doctest::Approx(stretchY * velocity.x).epsilon(1e-5));
        CHECK(r.fat.lower.x == doctest::Approx(r.tight.lower.x - r.margin).epsilon(1e-6));
        CHECK(r.fat.lower.y == doctest::Approx(r.tight.lower.y - r.margin).epsilon(1e-6));
    }
}

TEST_CASE("refit: a fat box is renewed before the next step could carry its shape out") {
    // 0.04 m a step: after one step the tight box is still inside the box it was created with
    // (0.07 m of room), but one more step, plus the speculative distance, would not be.
    const Vec2 velocity{2.4f, 0.0f};
    const Refit r = refitAfterOneStep(velocity);
    CHECK(
        r.fat.upper.x ==
        doctest::Approx(r.tight.upper.x + r.margin + velocity.x * kDefaultTimeStep).epsilon(1e-6));
    CHECK(r.fat.lower.x == doctest::Approx(r.tight.lower.x - r.margin).epsilon(1e-6));
}
