#include "builders.hpp"

namespace rigid2d::demos {

BodyId addBox(World& world, BodyType type, Vec2 position, Vec2 halfExtents, const ShapeDef& shape,
              Vec2 velocity) {
    BodyDef def;
    def.type = type;
    def.position = position;
    def.linearVelocity = velocity;
    const BodyId body = world.createBody(def);
    world.createBox(body, shape, Box{{0.0f, 0.0f}, halfExtents});
    return body;
}

BodyId addCircle(World& world, BodyType type, Vec2 position, float radius, const ShapeDef& shape,
                 Vec2 velocity) {
    BodyDef def;
    def.type = type;
    def.position = position;
    def.linearVelocity = velocity;
    const BodyId body = world.createBody(def);
    world.createCircle(body, shape, Circle{{0.0f, 0.0f}, radius});
    return body;
}

JointId addHinge(World& world, BodyId a, BodyId b, Vec2 anchor) {
    RevoluteJointDef def;
    def.bodyA = a;
    def.bodyB = b;
    def.anchor = anchor;
    return world.createRevoluteJoint(def);
}

void addContainer(World& world, const AABB& region, float thickness) {
    const float halfWidth = 0.5f * (region.upper.x - region.lower.x);
    const float halfHeight = 0.5f * (region.upper.y - region.lower.y);
    const float midX = 0.5f * (region.lower.x + region.upper.x);
    const float midY = 0.5f * (region.lower.y + region.upper.y);
    const float t = 0.5f * thickness;
    addBox(world, BodyType::Static, {midX, region.lower.y - t}, {halfWidth + thickness, t});
    addBox(world, BodyType::Static, {region.lower.x - t, midY}, {t, halfHeight});
    addBox(world, BodyType::Static, {region.upper.x + t, midY}, {t, halfHeight});
}

} // namespace rigid2d::demos
