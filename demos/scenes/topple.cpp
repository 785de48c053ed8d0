// topple: a pyramid of boxes that turn, standing until a heavy ball hits its base at speed; size =
// rows.
#include "builders.hpp"
#include "scene_list.hpp"

namespace rigid2d::demos {
namespace {

constexpr float kLaunchTime = 1.5f; // s: the pyramid settles first

class ToppleScene final : public Scene {
public:
    void build(World& world, int size) override {
        m_launched = false;
        const float rows = static_cast<float>(size);
        addBox(world, BodyType::Static, {0.0f, -1.0f}, {rows + 40.0f, 1.0f});
        for (int row = 0; row < size; ++row) {
            const int count = size - row;
            const float left = -0.5f * static_cast<float>(count - 1);
            for (int i = 0; i < count; ++i)
                addBox(world, BodyType::Dynamic,
                       {left + static_cast<float>(i), 0.5f + static_cast<float>(row)},
                       {0.5f, 0.5f});
        }
        m_rows = rows;
        m_bounds = {{-rows - 40.0f, -2.0f}, {rows + 40.0f, 3.0f * rows + 20.0f}};
    }

    void update(World& world, float time) override {
        if (m_launched || time < kLaunchTime) return;
        m_launched = true;
        ShapeDef heavy;
        heavy.density = 40.0f;
        addCircle(world, BodyType::Dynamic, {-m_rows - 10.0f, 0.35f * m_rows + 1.0f}, 1.0f, heavy,
                  {50.0f, 4.0f});
    }

    [[nodiscard]] AABB view() const override {
        return {{-m_rows - 12.0f, -2.0f}, {m_rows + 12.0f, m_rows + 6.0f}};
    }

private:
    bool m_launched = false;
    float m_rows = 1.0f;
};

} // namespace

SceneInfo toppleScene() {
    return {"topple", "a pyramid of turning boxes knocked over by a heavy ball",
            "rows",   15,
            6,        &makeScene<ToppleScene>};
}

} // namespace rigid2d::demos
