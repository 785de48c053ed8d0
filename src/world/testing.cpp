#include "rigid2d/testing.hpp"

#include <bit>
#include <cmath>
#include <cstring>

namespace rigid2d::testing {

World makeWorldWithFloor(const WorldDef& def, float floorY, float halfWidth) {
    World world(def);
    createFloor(world, floorY, halfWidth);
    return world;
}

BodyId createFloor(World& world, float topY, float halfWidth) {
    BodyDef bodyDef;
    bodyDef.type = BodyType::Static;
    bodyDef.position = {0.0f, topY - 1.0f};
    const BodyId body = world.createBody(bodyDef);
    world.createBox(body, ShapeDef{}, Box{{0.0f, 0.0f}, {halfWidth, 1.0f}});
    return body;
}

BodyId createCircle(World& world, Vec2 position, float radius, const ShapeDef& shape,
                    BodyType type) {
    BodyDef bodyDef;
    bodyDef.type = type;
    bodyDef.position = position;
    const BodyId body = world.createBody(bodyDef);
    world.createCircle(body, shape, Circle{{0.0f, 0.0f}, radius});
    return body;
}

BodyId createBox(World& world, Vec2 position, Vec2 halfExtents, const ShapeDef& shape,
                 BodyType type) {
    BodyDef bodyDef;
    bodyDef.type = type;
    bodyDef.position = position;
    bodyDef.fixedRotation = true;
    const BodyId body = world.createBody(bodyDef);
    world.createBox(body, shape, Box{{0.0f, 0.0f}, halfExtents});
    return body;
}

int stepFor(World& world, float seconds, float dt) {
    // Counted in whole steps so the number does not depend on float accumulation.
    const int steps = static_cast<int>(seconds / dt + 0.5f);
    for (int i = 0; i < steps; ++i) world.step(dt);
    return steps;
}

float stepUntilAsleep(World& world, float maxSeconds, float dt) {
    const int maxSteps = static_cast<int>(maxSeconds / dt + 0.5f);
    for (int i = 0; i <= maxSteps; ++i) {
        if (awakeBodyCount(world) == 0) return static_cast<float>(i) * dt;
        if (i < maxSteps) world.step(dt);
    }
    return -1.0f;
}

namespace {
struct Fnv1a {
    std::uint64_t value = 14695981039346656037ULL;
    void add(std::uint32_t word) {
        for (int i = 0; i < 4; ++i) {
            value ^= (word >> (8 * i)) & 0xFFu;
            value *= 1099511628211ULL;
        }
    }
    void add(float x) { add(std::bit_cast<std::uint32_t>(x)); }
    void add(Vec2 v) {
        add(v.x);
        add(v.y);
    }
};
} // namespace

bool allFinite(const World& world) {
    bool finite = true;
    world.forEachBody([&](BodyId body) {
        finite = finite && isFinite(world.position(body)) && std::isfinite(world.angle(body)) &&
                 isFinite(world.linearVelocity(body)) && std::isfinite(world.angularVelocity(body));
    });
    return finite;
}

std::uint64_t stateHash(const World& world) {
    Fnv1a hash;
    world.forEachBody([&](BodyId body) {
        hash.add(body.index);
        hash.add(world.position(body));
        hash.add(world.angle(body));
        hash.add(world.linearVelocity(body));
        hash.add(world.angularVelocity(body));
        hash.add(world.isAwake(body) ? 1u : 0u);
    });
    return hash.value;
}

Vec2 totalMomentum(const World& world) {
    Vec2 sum{};
    world.forEachBody([&](BodyId body) {
        if (world.bodyType(body) == BodyType::Dynamic)
            sum += world.mass(body) * world.linearVelocity(body);
    });
    return sum;
}

float kineticEnergy(const World& world) {
    float energy = 0.0f;
    world.forEachBody([&](BodyId body) {
        if (world.bodyType(body) != BodyType::Dynamic) return;
        const Vec2 v = world.linearVelocity(body);
        const float w = world.angularVelocity(body);
        energy +=
            0.5f * world.mass(body) * (v.x * v.x + v.y * v.y) + 0.5f * world.inertia(body) * w * w;
    });
    return energy;
}

std::size_t awakeBodyCount(const World& world) {
    std::size_t count = 0;
    world.forEachBody([&](BodyId body) {
        if (world.bodyType(body) == BodyType::Dynamic && world.isAwake(body)) ++count;
    });
    return count;
}

} // namespace rigid2d::testing
