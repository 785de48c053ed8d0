// mixed: circles and boxes from pebbles (0.1 m) to boulders (3 m) falling into one box; the size
// spread is what single-level grids handle badly. size = bodies.
#include <algorithm>
#include <cmath>

#include "builders.hpp"
#include "scene_list.hpp"

namespace rigid2d::demos {
namespace {

class MixedScene final : public Scene {
public:
    void build(World& world, int size) override {
        const float width = std::max(30.0f, 2.0f * std::sqrt(static_cast<float>(size)));
        const float dropHeight = std::max(30.0f, static_cast<float>(size) * 0.12f);
        const float top = 10.0f + dropHeight;
        const AABB box{{-0.5f * width, 0.0f}, {0.5f * width, top}};
        addContainer(world, box);
        Random random(3);
        for (int i = 0; i < size; ++i) {
            // Log-uniform size: as many pebbles as boulders per octave; one in 40 is a boulder.
            const bool boulder = random.below(40) == 0;
            const float extent =
                boulder ? random.uniform(1.5f, 3.0f) : 0.1f * std::exp2(random.uniform(0.0f, 3.0f));
            const Vec2 position{random.uniform(box.lower.x + 3.0f, box.upper.x - 3.0f),
                                random.uniform(5.0f, top - 3.0f)};
            if (random.below(2) == 0)
                addCircle(world, BodyType::Dynamic, position, extent);
            else
                addBox(world, BodyType::Dynamic, position,
                       {extent, extent * random.uniform(0.5f, 1.0f)});
        }
        m_bounds = {{box.lower.x - 2.0f, -2.0f}, {box.upper.x + 2.0f, top + 5.0f}};
    }
};

} // namespace

SceneInfo mixedScene() {
    return {"mixed",  "circles and boxes from pebbles to boulders in one box",
            "bodies", 800,
            120,      &makeScene<MixedScene>};
}

} // namespace rigid2d::demos
