// Continuous collision: a 0.1 m circle at 400 m/s does not pass a 0.1 m wall when it is a bullet
// (and does pass it when it is not, which shows the test can fail).
#include <doctest/doctest.h>

#include "rigid2d/testing.hpp"

using namespace rigid2d;
using namespace rigid2d::testing;

namespace {
float finalX(bool bullet, BroadPhaseType broadPhase) {
    WorldDef def;
    def.broadPhase = broadPhase;
    def.gravity = {0.0f, 0.0f};
    World world(def);
    // Wall 0.1 m thick at x in [5, 5.1].
    createBox(world, {5.05f, 0.0f}, {0.05f, 2.0f}, ShapeDef{}, BodyType::Static);
    BodyDef bodyDef;
    bodyDef.type = BodyType::Dynamic;
    bodyDef.position = {0.0f, 0.0f};
    bodyDef.linearVelocity = {400.0f, 0.0f};
    bodyDef.bullet = bullet;
    const BodyId ball = world.createBody(bodyDef);
    world.createCircle(ball, ShapeDef{}, Circle{{0.0f, 0.0f}, 0.05f});
    float maxX = 0.0f;
    for (int i = 0; i < 30; ++i) {
        world.step(kDefaultTimeStep);
        maxX = std::max(maxX, world.position(ball).x);
    }
    return maxX;
}
} // namespace

TEST_CASE("a bullet circle at 400 m/s does not pass a 0.1 m wall") {
    CHECK(finalX(true, BroadPhaseType::BruteForce) <= 5.0f - 0.05f + 1e-3f);
    CHECK(finalX(false, BroadPhaseType::BruteForce) > 5.1f);
}
