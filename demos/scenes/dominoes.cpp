// dominoes: a row of thin tall boxes; the first is pushed and each knocks over the next, so the
// row falls one by one (boxes that turn, resting on edges and corners); size = dominoes.
#include "builders.hpp"
#include "scene_list.hpp"

namespace rigid2d::demos {
namespace {

constexpr float kSpacing = 1.0f;
constexpr Vec2 kHalf{0.1f, 1.0f};

class DominoesScene final : public Scene {
public:
    void build(World& world, int size) override {
        const float length = static_cast<float>(size) * kSpacing;
        addBox(world, BodyType::Static, {0.5f * length, -1.0f}, {0.5f * length + 10.0f, 1.0f});
        ShapeDef shape;
        shape.friction = 0.6f;
        for (int i = 0; i < size; ++i) {
            // The first one starts tipping.
            const Vec2 push = i == 0 ? Vec2{2.0f, 0.0f} : Vec2{0.0f, 0.0f};
            const BodyId domino = addBox(world, BodyType::Dynamic,
                                         {static_cast<float>(i) * kSpacing, kHalf.y}, kHalf, shape);
            if (i == 0) world.applyLinearImpulse(domino, push * world.mass(domino), {0.0f, 1.8f});
        }
        m_bounds = {{-12.0f, -2.0f}, {length + 12.0f, 10.0f}};
    }
    [[nodiscard]] AABB view() const override {
        return {{-2.0f, -2.0f}, {m_bounds.upper.x - 10.0f, 6.0f}};
    }
};

} // namespace

SceneInfo dominoesScene() {
    return {"dominoes", "a row of dominoes, the first one pushed",
            "dominoes", 40,
            12,         &makeScene<DominoesScene>};
}

} // namespace rigid2d::demos
