// stack: a tall column of boxes that must stand still and fall asleep; size = boxes.
#include "builders.hpp"
#include "scene_list.hpp"

namespace rigid2d::demos {
namespace {

class StackScene final : public Scene {
public:
    void build(World& world, int size) override {
        addBox(world, BodyType::Static, {0.0f, -1.0f}, {20.0f, 1.0f});
        for (int i = 0; i < size; ++i)
            addBox(world, BodyType::Dynamic, {0.0f, 0.5f + static_cast<float>(i)}, {0.5f, 0.5f});
        // A few circles beside the column show resting contact of the other shape kind.
        for (int i = 0; i < 3; ++i)
            addCircle(world, BodyType::Dynamic, {3.0f + 1.1f * static_cast<float>(i), 0.5f}, 0.5f);
        const float height = static_cast<float>(size);
        m_bounds = {{-20.0f, -2.0f}, {20.0f, height + 4.0f}};
    }
    [[nodiscard]] AABB view() const override {
        const float height = m_bounds.upper.y - 4.0f;
        const float half = 0.3f * height + 4.0f;
        return {{-half, -1.0f}, {half, height + 1.0f}};
    }
};

} // namespace

SceneInfo stackScene() {
    return {"stack", "a tall column of boxes that should stand and sleep",
            "boxes", 20,
            10,      &makeScene<StackScene>};
}

} // namespace rigid2d::demos
