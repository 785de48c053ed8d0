#include "session.hpp"

#include <utility>

namespace rigid2d::demos {

SceneSource sourceOf(const SceneInfo& info) {
    return {std::string(info.name), info.defaultSize, info.create};
}

Session::Session(SceneSource source, int size, BroadPhaseType broadPhase)
    : m_source(std::move(source)), m_size(size > 0 ? size : m_source.defaultSize),
      m_broadPhase(broadPhase) {
    restart();
}

void Session::restart() {
    WorldDef def;
    def.broadPhase = m_broadPhase;
    auto world = std::make_unique<World>(def);
    auto scene = m_source.create();
    scene->build(*world, m_size);
    m_world = std::move(world);
    m_scene = std::move(scene);
    m_steps = 0;
}

void Session::step() {
    m_scene->update(*m_world, time());
    m_world->step(kSceneTimeStep);
    ++m_steps;
}

void Session::setBroadPhase(BroadPhaseType type) {
    m_world->setBroadPhase(type);
    m_broadPhase = type;
}

AABB shapeBounds(const World& world, const AABB& fallback) {
    bool any = false;
    AABB bounds = fallback;
    world.forEachBody([&](BodyId body) {
        world.forEachShape(body, [&](ShapeId shape) {
            const AABB box = world.shapeAABB(shape);
            bounds = any ? combine(bounds, box) : box;
            any = true;
        });
    });
    return bounds;
}

} // namespace rigid2d::demos
