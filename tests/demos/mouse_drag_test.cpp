// The viewer's mouse drag, without a window: a press over a dynamic body grabs it with a mouse
// joint, moving the target pulls it there, release lets it fall; empty space and ground are not
// grabbed, and a grab whose body is destroyed lets go by itself.
#include <doctest/doctest.h>

#include "mouse_drag.hpp"
#include "rigid2d/testing.hpp"

namespace rigid2d::demos {

TEST_CASE("mouse drag: press grabs a dynamic body, move pulls it, release lets it fall") {
    World world = testing::makeWorldWithFloor();
    const BodyId crate = testing::createBox(world, {0.0f, 0.5f}, {0.5f, 0.5f});
    MouseDrag drag;
    CHECK_FALSE(drag.press(world, {5.0f, 3.0f}));  // empty space
    CHECK_FALSE(drag.press(world, {5.0f, -0.5f})); // the static floor
    CHECK(world.jointCount() == 0);

    REQUIRE(drag.press(world, {0.2f, 0.7f})); // a corner of the crate, off its centre
    REQUIRE(drag.joint().has_value());
    CHECK(world.jointType(*drag.joint()) == JointType::Mouse);
    CHECK(world.jointBodyB(*drag.joint()) == crate);
    drag.move(world, {0.2f, 3.7f});
    testing::stepFor(world, 1.5f);
    // Held 3 m up, the grabbed point hangs just below the target (the spring carries the weight).
    CHECK(world.jointAnchorB(*drag.joint()).y == doctest::Approx(3.7f).epsilon(0.05));
    CHECK(world.position(crate).y > 2.5f);

    drag.release(world);
    CHECK_FALSE(drag.active());
    CHECK(world.jointCount() == 0);
    testing::stepFor(world, 2.0f);
    CHECK(world.position(crate).y < 0.6f); // fell back to the floor

    REQUIRE(drag.press(world, world.position(crate)));
    world.destroyBody(crate); // its joints go with it
    drag.move(world, {0.0f, 2.0f});
    CHECK_FALSE(drag.active());
    drag.release(world); // nothing left to release: no throw
}

} // namespace rigid2d::demos
