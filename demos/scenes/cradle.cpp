// cradle: Newton's cradle laid flat (the engine has no joints): a row of touching, perfectly
// elastic balls on a frictionless rail, struck from the left; momentum runs through the row and
// the last ball flies off, bounces back from an elastic wall, and the exchange repeats.
// size = balls in the row.
#include "builders.hpp"
#include "scene_list.hpp"

namespace rigid2d::demos {
namespace {

class CradleScene final : public Scene {
public:
    void build(World& world, int size) override {
        const float row = static_cast<float>(size);
        ShapeDef rail;
        rail.friction = 0.0f;
        rail.restitution = 1.0f;
        const float left = -8.0f;
        const float right = row + 8.0f;
        addBox(world, BodyType::Static, {0.5f * (left + right), -0.5f},
               {0.5f * (right - left), 0.5f}, rail);
        addBox(world, BodyType::Static, {left - 0.5f, 2.0f}, {0.5f, 3.0f}, rail);
        addBox(world, BodyType::Static, {right + 0.5f, 2.0f}, {0.5f, 3.0f}, rail);
        ShapeDef ball;
        ball.friction = 0.0f;
        ball.restitution = 1.0f;
        for (int i = 0; i < size; ++i)
            addCircle(world, BodyType::Dynamic, {static_cast<float>(i), 0.5f}, 0.5f, ball);
        addCircle(world, BodyType::Dynamic, {-5.0f, 0.5f}, 0.5f, ball, {6.0f, 0.0f});
        m_bounds = {{left - 2.0f, -2.0f}, {right + 2.0f, 8.0f}};
    }
};

} // namespace

SceneInfo cradleScene() {
    return {"cradle", "Newton's cradle laid flat: elastic balls pass momentum along a row",
            "balls",  5,
            5,        &makeScene<CradleScene>};
}

} // namespace rigid2d::demos
