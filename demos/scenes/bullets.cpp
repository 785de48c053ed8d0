// bullets: fast small circles fired at thin walls inside a closed room; continuous collision must
// stop every one of them (an escaped bullet is a tunnelling bug). size = bullets fired.
#include <cmath>

#include "builders.hpp"
#include "scene_list.hpp"

namespace rigid2d::demos {
namespace {

constexpr float kRoomHalf = 20.0f;
constexpr float kWallHalfThickness = 0.05f; // 10 cm walls against 150-300 m/s: 2.5-5 m per step
constexpr int kStepsBetweenShots = 3;

class BulletsScene final : public Scene {
public:
    void build(World& world, int size) override {
        m_remaining = size;
        m_step = 0;
        m_random = Random(7);
        const float t = kWallHalfThickness;
        addBox(world, BodyType::Static, {0.0f, -kRoomHalf - t}, {kRoomHalf + 2.0f * t, t});
        addBox(world, BodyType::Static, {0.0f, kRoomHalf + t}, {kRoomHalf + 2.0f * t, t});
        addBox(world, BodyType::Static, {-kRoomHalf - t, 0.0f}, {t, kRoomHalf});
        addBox(world, BodyType::Static, {kRoomHalf + t, 0.0f}, {t, kRoomHalf});
        // Thin baffles in the line of fire.
        for (int i = 0; i < 3; ++i)
            addBox(world, BodyType::Static,
                   {-4.0f + 8.0f * static_cast<float>(i), 4.0f * static_cast<float>(i % 2) - 2.0f},
                   {t, 10.0f});
        // Something soft to hit: a small pile of dynamic boxes on the floor.
        for (int i = 0; i < 6; ++i)
            addBox(world, BodyType::Dynamic, {14.0f, -kRoomHalf + 0.5f + static_cast<float>(i)},
                   {0.5f, 0.5f});
        m_bounds = {{-kRoomHalf - 1.0f, -kRoomHalf - 1.0f}, {kRoomHalf + 1.0f, kRoomHalf + 1.0f}};
    }

    void update(World& world, float /*time*/) override {
        if (m_remaining > 0 && m_step++ % kStepsBetweenShots == 0) {
            --m_remaining;
            const float speed = m_random.uniform(150.0f, 300.0f);
            const float angle = m_random.uniform(-0.35f, 0.35f);
            BodyDef def;
            def.type = BodyType::Dynamic;
            def.position = {-kRoomHalf + 1.0f,
                            m_random.uniform(-kRoomHalf + 3.0f, kRoomHalf - 3.0f)};
            def.linearVelocity = {speed * std::cos(angle), speed * std::sin(angle)};
            def.bullet = true;
            const BodyId body = world.createBody(def);
            ShapeDef shape;
            shape.restitution = 0.6f;
            shape.density = 4.0f;
            world.createCircle(body, shape, Circle{{0.0f, 0.0f}, 0.25f});
        }
    }

private:
    int m_remaining = 0;
    int m_step = 0;
    Random m_random{7};
};

} // namespace

SceneInfo bulletsScene() {
    return {"bullets", "fast circles fired at thin walls (continuous collision)",
            "bullets", 60,
            12,        &makeScene<BulletsScene>};
}

} // namespace rigid2d::demos
