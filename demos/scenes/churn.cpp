// churn: thousands of kinematic boxes crossing each other in every direction, bouncing off the
// edges of a square; every proxy moves every step, which is the broad phase's worst case.
// size = boxes.
#include <cmath>
#include <vector>

#include "builders.hpp"
#include "scene_list.hpp"

namespace rigid2d::demos {
namespace {

class ChurnScene final : public Scene {
public:
    void build(World& world, int size) override {
        world.setGravity({0.0f, 0.0f});
        m_half = 2.0f * std::sqrt(static_cast<float>(size));
        Random random(5);
        m_boxes.clear();
        m_boxes.reserve(static_cast<std::size_t>(size));
        for (int i = 0; i < size; ++i) {
            const Vec2 position{random.uniform(-m_half, m_half), random.uniform(-m_half, m_half)};
            const float speed = random.uniform(2.0f, 8.0f);
            const float heading = random.uniform(0.0f, 6.2831853f);
            const Vec2 velocity{speed * std::cos(heading), speed * std::sin(heading)};
            const Vec2 half{random.uniform(0.2f, 1.0f), random.uniform(0.2f, 1.0f)};
            m_boxes.push_back(addBox(world, BodyType::Kinematic, position, half, {}, velocity));
        }
        const float margin = 4.0f;
        m_bounds = {{-m_half - margin, -m_half - margin}, {m_half + margin, m_half + margin}};
    }

    void update(World& world, float /*time*/) override {
        // Reflect a box's velocity when its centre has left the square and it still heads out.
        for (const BodyId box : m_boxes) {
            const Vec2 p = world.position(box);
            Vec2 v = world.linearVelocity(box);
            const bool flipX = (p.x < -m_half && v.x < 0.0f) || (p.x > m_half && v.x > 0.0f);
            const bool flipY = (p.y < -m_half && v.y < 0.0f) || (p.y > m_half && v.y > 0.0f);
            if (!flipX && !flipY) continue;
            if (flipX) v.x = -v.x;
            if (flipY) v.y = -v.y;
            world.setLinearVelocity(box, v);
        }
    }

    [[nodiscard]] std::string status() const override {
        return std::to_string(m_boxes.size()) + " kinematic boxes, all moving";
    }

private:
    std::vector<BodyId> m_boxes;
    float m_half = 1.0f;
};

} // namespace

SceneInfo churnScene() {
    return {"churn", "thousands of kinematic boxes crossing each other (broad-phase stress)",
            "boxes", 4000,
            300,     &makeScene<ChurnScene>};
}

} // namespace rigid2d::demos
