#pragma once
/// A running demo: the world, the scene that drives it, the clock. The headless runner and the
/// viewer both drive one of these, so they build, step and restart scenes the same way.

#include <algorithm>
#include <functional>
#include <memory>
#include <string>

#include "history.hpp"
#include "rigid2d/thread_pool.hpp"
#include "rigid2d/world.hpp"
#include "scene.hpp"

namespace rigid2d::demos {

/// Where a session's scene comes from: a registered scene or a scene file.
struct SceneSource {
    std::string name;
    int defaultSize = 1;
    std::function<std::unique_ptr<Scene>()> create;
};

/// The source of a registered scene.
[[nodiscard]] SceneSource sourceOf(const SceneInfo& info);

class Session {
public:
    /// Builds the scene at `size` (<= 0: the scene's default) with `broadPhase`, stepping on
    /// `threads` workers of a ThreadPool (1: no pool, the calling thread only).
    Session(SceneSource source, int size, BroadPhaseType broadPhase, int threads = 1);

    /// Rebuilds the scene from scratch with the current broad phase and size.
    void restart();
    /// Runs the scene's update hook, then one world step of `kSceneTimeStep`.
    void step();
    /// Swaps the broad phase of the running world (kept by `restart`).
    void setBroadPhase(BroadPhaseType type);
    /// Goes back (or forward again) to `step`, clamped to [earliestStep, latestStep]: the
    /// keyframe before it is restored and the steps after it are run again. A scene's own state
    /// (what its update hook remembers) is not rewound; most scenes keep none.
    void seek(int step);
    /// The range `seek` can reach: the oldest keyframe kept, and the furthest step run.
    [[nodiscard]] int earliestStep() const noexcept { return std::max(m_history.earliest(), 0); }
    [[nodiscard]] int latestStep() const noexcept { return m_latest; }

    [[nodiscard]] World& world() noexcept { return *m_world; }
    [[nodiscard]] const World& world() const noexcept { return *m_world; }
    [[nodiscard]] const Scene& scene() const noexcept { return *m_scene; }
    [[nodiscard]] const std::string& name() const noexcept { return m_source.name; }
    [[nodiscard]] int size() const noexcept { return m_size; }
    [[nodiscard]] BroadPhaseType broadPhase() const noexcept { return m_broadPhase; }
    [[nodiscard]] int steps() const noexcept { return m_steps; }
    [[nodiscard]] int threads() const noexcept { return m_pool ? m_pool->workerCount() : 1; }
    [[nodiscard]] float time() const noexcept {
        return static_cast<float>(m_steps) * kSceneTimeStep;
    }

private:
    SceneSource m_source;
    int m_size;
    BroadPhaseType m_broadPhase;
    std::unique_ptr<ThreadPool> m_pool; ///< before m_world: it must outlive the world
    std::unique_ptr<World> m_world;
    std::unique_ptr<Scene> m_scene;
    int m_steps = 0;
    int m_latest = 0;
    SnapshotHistory m_history;
};

/// The union of every shape's tight AABB, or `fallback` when the world has no shape.
[[nodiscard]] AABB shapeBounds(const World& world, const AABB& fallback);

} // namespace rigid2d::demos
