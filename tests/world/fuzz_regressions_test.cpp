// Inputs that made the libFuzzer targets of tests/fuzz fail, replayed through the public API so
// the ci and asan builds (no clang needed) keep them fixed. Each case names the crasher kept in
// tests/fuzz/corpus/<target>/ and what went wrong; the asan build is the one that sees a memory
// error, the others check the rules the fuzzer checks.
#include <doctest/doctest.h>

#include <cmath>

#include "rigid2d/testing.hpp"

using namespace rigid2d;
using namespace rigid2d::testing;

// api_ops/crash-grid-touched-overflow: the grid counted a proxy spanning more than 2 x 2 cells
// against room meant for the small proxies filed after it, which then wrote past the end of its
// list of touched cells (heap-buffer-overflow in UniformGrid::countCells).
TEST_CASE("fuzz: a grid proxy over many cells followed by small ones stays in bounds") {
    WorldDef def;
    def.broadPhase = BroadPhaseType::Grid;
    def.broadPhaseConfig.maxGridCells = 4096; // 31.25 m cells over the default +-1000 m
    World world(def);
    BodyDef dynamic;
    dynamic.type = BodyType::Dynamic;
    dynamic.position = {-31.5f, 0.0f};
    const BodyId a = world.createBody(dynamic);
    BodyDef fixed;
    fixed.position = {1.0f, 0.0f};
    const BodyId b = world.createBody(fixed);
    ShapeDef massless;
    massless.density = 0.0f;
    (void)world.createCircle(a, massless, Circle{{-60.0f, 1e-45f}, 60.0f});
    (void)world.createCircle(a, {}, Circle{{0.0f, 0.0f}, 2.0f});
    ShapeDef sensor;
    sensor.isSensor = true;
    (void)world.createCircle(b, sensor, Circle{{0.0f, 0.0f}, 0.5f});
    (void)world.createCircle(a, {}, Circle{{0.0f, 0.0f}, 6.0f});
    CHECK_NOTHROW(world.step(kDefaultTimeStep));
    CHECK(allFinite(world));
    world.broadPhase().validate();
}

// The same fault in general: one box over 5 x 5 cells filed first, then small circles that each
// straddle a corner of four empty cells, more of them than the box left room for.
TEST_CASE("fuzz: a grid with a large box and many corner-straddling circles") {
    WorldDef def;
    def.broadPhase = BroadPhaseType::Grid;
    def.broadPhaseConfig.cellSize = 1.0f;
    World world(def);
    const BodyId ground = world.createBody({});
    (void)world.createBox(ground, {}, Box{{0.5f, 0.5f}, {2.3f, 2.3f}});
    for (int i = 0; i < 12; ++i) {
        BodyDef d;
        d.type = BodyType::Dynamic;
        d.position = {10.0f + 3.0f * static_cast<float>(i), 10.0f};
        (void)world.createCircle(world.createBody(d), {}, Circle{{0.0f, 0.0f}, 0.2f});
    }
    for (int i = 0; i < 3; ++i) CHECK_NOTHROW(world.step(kDefaultTimeStep));
    CHECK(allFinite(world));
    world.broadPhase().validate();
}

// A spring of denormal hertz and no damping: its soft coefficients divided zero by zero and the
// joint's impulses, then its bodies, went NaN (found by the snapshot fuzzer). Such a spring now
// pushes nothing; a contact hertz whose coefficients would overflow is refused.
TEST_CASE("fuzz: a joint spring of denormal hertz and no damping, a huge contact hertz") {
    World world;
    const BodyId ground = world.createBody({});
    BodyDef def;
    def.type = BodyType::Dynamic;
    def.position = {9.0f, 3.0f};
    const BodyId body = world.createBody(def);
    (void)world.createCircle(body, {}, Circle{{0.0f, 0.0f}, 0.5f});
    PrismaticJointDef slider;
    slider.bodyA = ground;
    slider.bodyB = body;
    slider.anchor = def.position;
    slider.axis = {-0.447214f, 0.894427f};
    slider.enableSpring = true;
    slider.hertz = 1.4013e-45f;
    slider.dampingRatio = 0.0f;
    const JointId joint = world.createPrismaticJoint(slider);
    for (int i = 0; i < 3; ++i) world.step(kDefaultTimeStep);
    CHECK(allFinite(world));
    CHECK(std::isfinite(world.jointReactionForce(joint).x));
    CHECK(std::isfinite(world.jointReactionTorque(joint)));

    WorldDef stiff;
    stiff.contactHertz = 3e38f;
    CHECK_THROWS_AS(World{stiff}, Error);
    stiff.contactHertz = kMaxHertz;
    stiff.contactDampingRatio = kMaxHertz;
    stiff.substeps = 1;
    World hard(stiff);
    createFloor(hard);
    createCircle(hard, {0.0f, 0.45f}, 0.5f);
    for (int i = 0; i < 10; ++i) hard.step(kMaxTimeStep);
    CHECK(allFinite(hard));
}

// api_ops/crash-query-far-polygon: queryAABB cut the region to a turning shape's padded bounds and
// took the cut box's centre as half the sum of its corners, which overflowed for a shape near the
// float range's end (a floating-point overflow trap under RIGID2D_FUZZ_FP_TRAPS; without traps the
// centre was infinite and the shape was missed).
TEST_CASE("fuzz: queryAABB finds a turning box near the end of the float range") {
    World world;
    BodyDef def;
    def.position = {3e38f, 3e38f};
    const BodyId body = world.createBody(def);
    // Turned against its body: a polygon, not the axis-aligned fast path.
    const ShapeId shape = world.createBox(body, {}, Box{{0.0f, 0.0f}, {0.5f, 0.5f}, 0.5f});
    int found = 0;
    world.queryAABB({{2.9e38f, 2.9e38f}, {3.4e38f, 3.4e38f}}, [&](ShapeId id) {
        found += id == shape ? 1 : 0;
        return true;
    });
    CHECK(found == 1);
}
