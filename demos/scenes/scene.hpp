#pragma once
/// Demo scenes: code shared by the headless runner, the viewer, the benchmark and the tests.
///
/// A scene builds bodies into a world the caller owns, may drive it before every step (kinematic
/// motion, unit AI, reacting to events) and may draw itself (scenes that show what a query
/// returns). Scenes are listed explicitly in `scene_registry.cpp`, so a static link keeps them all.

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "rigid2d/world.hpp"

namespace rigid2d::demos {

/// The demos step at 60 Hz.
inline constexpr float kSceneTimeStep = 1.0f / 60.0f;

class Scene {
public:
    virtual ~Scene() = default;

    /// Creates the bodies. `size` > 0 scales the scene (rows, bodies, groups: see SceneInfo).
    virtual void build(World& world, int size) = 0;
    /// Called before every step with the scene time in seconds (0 before the first step). The
    /// events of the previous step are still readable here.
    virtual void update(World& /*world*/, float /*time*/) {}
    /// Draws the scene. The default draws the whole world; scenes about queries draw what their
    /// queries return.
    virtual void draw(const World& world, DebugDraw& draw) const { world.debugDraw(draw); }
    /// A line of counts for the text panel ("visible 312 of 20000"), empty when there is none.
    [[nodiscard]] virtual std::string status() const { return {}; }

    /// A box no dynamic body's centre should leave; a body outside it has escaped. Valid after
    /// `build`.
    [[nodiscard]] const AABB& bounds() const noexcept { return m_bounds; }
    /// The region a camera should frame at the start (defaults to `bounds`).
    [[nodiscard]] virtual AABB view() const { return m_bounds; }

protected:
    AABB m_bounds{{-50.0f, -10.0f}, {50.0f, 90.0f}};
};

struct SceneInfo {
    std::string_view name;
    std::string_view description;
    /// What `size` counts ("rows", "circles", ...).
    std::string_view sizeMeaning;
    int defaultSize = 1;
    /// A size small enough for a test that runs every scene under the sanitizers.
    int testSize = 1;
    std::unique_ptr<Scene> (*create)() = nullptr;
};

template <class SceneType>
std::unique_ptr<Scene> makeScene() {
    return std::make_unique<SceneType>();
}

/// Every built-in scene, in a fixed order.
[[nodiscard]] std::span<const SceneInfo> sceneList();
/// The scene called `name`, or nullptr.
[[nodiscard]] const SceneInfo* findScene(std::string_view name);

} // namespace rigid2d::demos
