// Resting contact: stated figures of issue 4 (a dropped box rests at 0.5 ± 0.01 after 90 steps;
// a 10-box column and a 20-row pyramid stand 10 s; a settled pile falls asleep).
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "rigid2d/testing.hpp"
#include "world/world_defs.hpp"

using namespace rigid2d;
using namespace rigid2d::testing;

TEST_CASE("a box dropped from y=4 rests at y=0.5 on the ground after 90 steps") {
    World world = makeWorldWithFloor(bruteForceDef());
    const BodyId box = createBox(world, {0.0f, 4.0f}, {0.5f, 0.5f});
    for (int i = 0; i < 90; ++i) world.step(kDefaultTimeStep);
    CHECK(std::fabs(world.position(box).y - 0.5f) <= 0.01f);
    CHECK(std::fabs(world.position(box).x) <= 1e-6f);
}

TEST_CASE("a column of 10 boxes stands for 10 s") {
    World world = makeWorldWithFloor(bruteForceDef());
    std::vector<BodyId> boxes;
    for (int i = 0; i < 10; ++i)
        boxes.push_back(
            createBox(world, {0.0f, 0.5f + 1.0f * static_cast<float>(i)}, {0.5f, 0.5f}));
    stepFor(world, 10.0f);
    for (int i = 0; i < 10; ++i) {
        CHECK(std::fabs(world.position(boxes[static_cast<std::size_t>(i)]).x) <= 0.05f);
        CHECK(std::fabs(world.position(boxes[static_cast<std::size_t>(i)]).y -
                        (0.5f + static_cast<float>(i))) <= 0.05f);
    }
}

TEST_CASE("a 20-row pyramid of boxes stands for 10 s") {
    World world = makeWorldWithFloor(bruteForceDef());
    struct Placed {
        BodyId body;
        Vec2 start;
    };
    std::vector<Placed> boxes;
    const int rows = 20;
    for (int row = 0; row < rows; ++row) {
        const int count = rows - row;
        for (int i = 0; i < count; ++i) {
            const Vec2 p{(static_cast<float>(i) - 0.5f * static_cast<float>(count - 1)) * 1.05f,
                         0.5f + static_cast<float>(row)};
            boxes.push_back({createBox(world, p, {0.5f, 0.5f}), p});
        }
    }
    stepFor(world, 10.0f);
    float worstSideways = 0.0f;
    for (const Placed& b : boxes)
        worstSideways = std::fmax(worstSideways, std::fabs(world.position(b.body).x - b.start.x));
    CHECK(worstSideways <= 0.05f);
    // The top box is still on top.
    CHECK(world.position(boxes.back().body).y > static_cast<float>(rows - 1));
}

TEST_CASE("a settled pile of circles and boxes falls asleep") {
    World world = makeWorldWithFloor(bruteForceDef());
    for (int i = 0; i < 12; ++i) {
        const float x = static_cast<float>(i % 4) * 1.1f - 1.6f;
        const float y = 0.6f + static_cast<float>(i / 4) * 1.2f;
        if (i % 2 == 0)
            createBox(world, {x, y}, {0.5f, 0.5f});
        else
            createCircle(world, {x, y}, 0.5f);
    }
    const float seconds = stepUntilAsleep(world, 10.0f);
    CHECK(seconds >= 0.5f);
    CHECK(awakeBodyCount(world) == 0);
    CHECK(world.stats().awakeBodies == 0);
}
