// rain: circles pouring into an open box; size = number of circles.
#include <algorithm>
#include <cmath>

#include "builders.hpp"
#include "scene_list.hpp"

namespace rigid2d::demos {
namespace {

class RainScene final : public Scene {
public:
    void build(World& world, int size) override {
        // A box about twice as wide as the settled pile is tall.
        const float width =
            std::max(20.0f, std::ceil(std::sqrt(2.0f * static_cast<float>(size))) * 1.2f);
        const float columns = std::floor(width / 1.25f);
        const float rows = std::ceil(static_cast<float>(size) / columns);
        const float top = 10.0f + rows * 1.5f;
        const AABB box{{-0.5f * width, 0.0f}, {0.5f * width, top}};
        addContainer(world, box);
        Random random(1);
        ShapeDef shape;
        shape.friction = 0.4f;
        for (int i = 0; i < size; ++i) {
            const float column = static_cast<float>(i % static_cast<int>(columns));
            const float row = static_cast<float>(i / static_cast<int>(columns));
            const Vec2 position{box.lower.x + 0.75f + column * 1.25f + random.uniform(-0.1f, 0.1f),
                                10.0f + row * 1.5f};
            addCircle(world, BodyType::Dynamic, position, random.uniform(0.35f, 0.55f), shape);
        }
        m_bounds = {{box.lower.x - 2.0f, -2.0f}, {box.upper.x + 2.0f, top + 5.0f}};
    }
};

} // namespace

SceneInfo rainScene() {
    return {
        "rain", "circles pouring into an open box", "circles", 2000, 200, &makeScene<RainScene>};
}

} // namespace rigid2d::demos
