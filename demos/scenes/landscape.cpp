// landscape: rolling hills made of one static chain (smooth, one-sided), with capsules, circles
// and boxes tumbling over them; size = bodies dropped.
#include <cmath>
#include <vector>

#include "builders.hpp"
#include "scene_list.hpp"

namespace rigid2d::demos {
namespace {

constexpr float kWidth = 80.0f;
constexpr int kSegments = 80;

float hill(float x) { return 2.5f * std::sin(0.18f * x) + 1.2f * std::sin(0.51f * x + 1.0f); }

class LandscapeScene final : public Scene {
public:
    void build(World& world, int size) override {
        const BodyId ground = world.createBody({});
        // One chain, listed right to left so that it faces up; one point beyond each end is a
        // ghost vertex only, so the hills go on smoothly into the walls' corners.
        const float step = kWidth / static_cast<float>(kSegments);
        std::vector<Vec2> points;
        for (int i = kSegments + 1; i >= -1; --i) {
            const float x = -0.5f * kWidth + step * static_cast<float>(i);
            points.push_back({x, hill(x)});
        }
        world.createChain(ground, {.points = points});
        // Walls at both ends, so bodies stay on the hills.
        for (const float side : {-1.0f, 1.0f})
            world.createSegment(ground, {},
                                Segment{{side * 0.5f * kWidth, hill(side * 0.5f * kWidth)},
                                        {side * 0.5f * kWidth, 30.0f}});
        Random random(5);
        for (int i = 0; i < size; ++i) {
            BodyDef def;
            def.type = BodyType::Dynamic;
            def.position = {random.uniform(-0.45f * kWidth, 0.45f * kWidth),
                            8.0f + random.uniform(0.0f, 12.0f)};
            def.angle = random.uniform(0.0f, 3.0f);
            const BodyId body = world.createBody(def);
            if (i % 3 == 0)
                world.createCircle(body, {}, Circle{{0.0f, 0.0f}, random.uniform(0.3f, 0.7f)});
            else if (i % 3 == 1)
                world.createCapsule(body, {}, Capsule{{-0.5f, 0.0f}, {0.5f, 0.0f}, 0.3f});
            else
                world.createBox(body, {}, Box{{0.0f, 0.0f}, {0.5f, 0.35f}});
        }
        m_bounds = {{-0.5f * kWidth - 2.0f, -10.0f}, {0.5f * kWidth + 2.0f, 40.0f}};
    }
    [[nodiscard]] AABB view() const override {
        return {{-0.5f * kWidth - 2.0f, -6.0f}, {0.5f * kWidth + 2.0f, 24.0f}};
    }
};

} // namespace

SceneInfo landscapeScene() {
    return {"landscape", "capsules, circles and boxes on hills of a chain",
            "bodies",    60,
            15,          &makeScene<LandscapeScene>};
}

} // namespace rigid2d::demos
