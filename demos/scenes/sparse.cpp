// sparse: small groups (a short stack and two balls in a cup) scattered over a 4 km world, the
// case where a bounded grid wastes memory and an unbounded hash or tree shines. size = groups.
#include <cmath>

#include "builders.hpp"
#include "scene_list.hpp"

namespace rigid2d::demos {
namespace {

constexpr float kWorldHalf = 2000.0f;

class SparseScene final : public Scene {
public:
    void build(World& world, int size) override {
        Random random(11);
        for (int g = 0; g < size; ++g) {
            const Vec2 origin{std::round(random.uniform(-kWorldHalf, kWorldHalf)),
                              std::round(random.uniform(-kWorldHalf, kWorldHalf))};
            addContainer(world, {origin + Vec2{-3.0f, 0.0f}, origin + Vec2{3.0f, 4.0f}}, 0.5f);
            for (int i = 0; i < 3; ++i)
                addBox(world, BodyType::Dynamic, origin + Vec2{-1.5f, 0.5f + static_cast<float>(i)},
                       {0.5f, 0.5f});
            addCircle(world, BodyType::Dynamic, origin + Vec2{1.0f, 2.0f}, 0.5f);
            addCircle(world, BodyType::Dynamic, origin + Vec2{1.6f, 3.5f}, 0.4f);
        }
        const float margin = 20.0f;
        m_bounds = {{-kWorldHalf - margin, -kWorldHalf - margin},
                    {kWorldHalf + margin, kWorldHalf + margin}};
    }
};

} // namespace

SceneInfo sparseScene() {
    return {"sparse", "small groups scattered over a 4 km world",
            "groups", 200,
            20,       &makeScene<SparseScene>};
}

} // namespace rigid2d::demos
