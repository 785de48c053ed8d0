// pyramid: the classic stacking test, a triangle of unit boxes; size = rows.
#include "builders.hpp"
#include "scene_list.hpp"

namespace rigid2d::demos {
namespace {

class PyramidScene final : public Scene {
public:
    void build(World& world, int size) override {
        const float rows = static_cast<float>(size);
        addBox(world, BodyType::Static, {0.0f, -1.0f}, {rows + 10.0f, 1.0f});
        constexpr float kHalf = 0.5f;
        for (int row = 0; row < size; ++row) {
            const int count = size - row;
            const float left = -0.5f * static_cast<float>(count - 1) * 2.0f * kHalf;
            for (int i = 0; i < count; ++i) {
                const Vec2 position{left + static_cast<float>(i) * 2.0f * kHalf,
                                    kHalf + static_cast<float>(row) * 2.0f * kHalf};
                addBox(world, BodyType::Dynamic, position, {kHalf, kHalf});
            }
        }
        m_bounds = {{-rows - 10.0f, -2.0f}, {rows + 10.0f, rows + 4.0f}};
    }
    [[nodiscard]] AABB view() const override {
        const float rows = m_bounds.upper.y - 4.0f;
        return {{-0.75f * rows - 2.0f, -2.0f}, {0.75f * rows + 2.0f, rows + 2.0f}};
    }
};

} // namespace

SceneInfo pyramidScene() {
    return {"pyramid", "a triangle of unit boxes on the ground",
            "rows",    20,
            8,         &makeScene<PyramidScene>};
}

} // namespace rigid2d::demos
