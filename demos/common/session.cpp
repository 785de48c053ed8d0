#include "session.hpp"

#include <utility>

namespace rigid2d::demos {

SceneSource sourceOf(const SceneInfo& info) {
    return {std::string(info.name), info.defaultSize, info.create};
}

Session::Session(SceneSource source, int size, BroadPhaseType broadPhase, int threads)
    : m_source(std::move(source)), m_size(size > 0 ? size : m_source.defaultSize),
      m_broadPhase(broadPhase),
      m_pool(threads > 1 ? std::make_unique<ThreadPool>(threads) : nullptr) {
    restart();
}

void Session::restart() {
    WorldDef def;
    def.broadPhase = m_broadPhase;
    if (m_pool) m_pool->attach(def);
    auto world = std::make_unique<World>(def);
    auto scene = m_source.create();
    scene->build(*world, m_size);
    m_world = std::move(world);
    m_scene = std::move(scene);
    m_steps = 0;
    m_latest = 0;
    m_history.clear();
    m_history.record(0, *m_world);
}

void Session::step() {
    m_scene->update(*m_world, time());
    m_world->step(kSceneTimeStep);
    ++m_steps;
    // Stepping on from a rewound step takes a new path (the user may have changed the world).
    if (m_steps <= m_latest) m_history.forgetAfter(m_steps - 1);
    m_latest = m_steps;
    m_history.record(m_steps, *m_world);
}

void Session::seek(int step) {
    const int target = std::clamp(step, earliestStep(), m_latest);
    const int from = m_history.restoreAtOrBefore(target, *m_world);
    if (from < 0) return;
    if (m_world->def().broadPhase != m_broadPhase) m_world->setBroadPhase(m_broadPhase);
    const int latest = m_latest;
    m_steps = from;
    for (; m_steps < target;) {
        m_scene->update(*m_world, time());
        m_world->step(kSceneTimeStep);
        ++m_steps;
    }
    m_latest = latest;
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
