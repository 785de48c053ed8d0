// WorldState::staticShapes, the index continuous collision sweeps against: it holds exactly the
// static non-sensor shapes, each at its fat box (the broad phase's), through creation, moves of a
// static body, destruction and restore.
#include <doctest/doctest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "rigid2d/testing.hpp"
#include "state/world_access.hpp"
#include "state/world_state.hpp"

using namespace rigid2d;

namespace {

using Entry = std::pair<std::uint64_t, AABB>; // shape slot, box

std::vector<Entry> indexed(World& world) {
    const detail::WorldState& s = detail::WorldAccess::state(world);
    std::vector<Entry> out;
    s.staticShapes.query({{-1e30f, -1e30f}, {1e30f, 1e30f}}, [&](ProxyId proxy) {
        out.emplace_back(s.staticShapes.userData(proxy), s.staticShapes.box(proxy));
        return true;
    });
    std::sort(out.begin(), out.end(),
              [](const Entry& a, const Entry& b) { return a.first < b.first; });
    return out;
}

std::vector<Entry> expected(World& world) {
    const detail::WorldState& s = detail::WorldAccess::state(world);
    std::vector<Entry> out;
    for (std::uint32_t i = 0; i < s.shapes.size(); ++i) {
        const detail::Shape& shape = s.shapes[i];
        if (!shape.live || shape.isSensor) continue;
        const detail::Body& body = s.bodies[shape.body];
        if (body.type == BodyType::Static) out.emplace_back(i, shape.fatBox);
    }
    return out;
}

void checkIndex(World& world) {
    const std::vector<Entry> got = indexed(world), want = expected(world);
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        CHECK(got[i].first == want[i].first);
        CHECK(got[i].second == want[i].second);
    }
}

} // namespace

TEST_CASE("static shapes index: exactly the static non-sensor shapes, at their fat boxes") {
    World world;
    const BodyId ground = world.createBody({});
    world.createBox(ground, {}, Box{{0.0f, -1.0f}, {10.0f, 1.0f}});
    const ShapeId wall = world.createSegment(ground, {}, Segment{{5.0f, 0.0f}, {5.0f, 4.0f}});
    ShapeDef sensor;
    sensor.isSensor = true;
    world.createCircle(ground, sensor, Circle{{0.0f, 3.0f}, 1.0f});
    testing::createCircle(world, {0.0f, 2.0f}, 0.5f);
    BodyDef kinematic;
    kinematic.type = BodyType::Kinematic;
    world.createBox(world.createBody(kinematic), {}, Box{{0.0f, 0.0f}, {1.0f, 1.0f}});
    checkIndex(world);
    REQUIRE(indexed(world).size() == 2);

    world.setTransform(ground, {3.0f, -2.0f}, 0.5f);
    checkIndex(world);
    world.step(1.0f / 60.0f);
    world.destroyShape(wall);
    checkIndex(world);
    REQUIRE(indexed(world).size() == 1);

    World restored;
    restored.restore(world.snapshot());
    checkIndex(restored);
    REQUIRE(indexed(restored).size() == 1);
}
