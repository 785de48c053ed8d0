// culling: a large world of rocks and drifting balls seen through a small camera window that
// sweeps across it; only the shapes `World::queryAABB` returns for the window are drawn, as a
// game's renderer would cull, with the counts shown. size = static rocks (balls are a tenth).
#include <cmath>
#include <string>

#include "builders.hpp"
#include "scene_draw.hpp"
#include "scene_list.hpp"

namespace rigid2d::demos {
namespace {

class CullingScene final : public Scene {
public:
    void build(World& world, int size) override {
        world.setGravity({0.0f, 0.0f});
        m_half = 3.0f * std::sqrt(static_cast<float>(size));
        Random random(13);
        const AABB arena{{-m_half, -m_half}, {m_half, m_half}};
        addContainer(world, arena);
        addBox(world, BodyType::Static, {0.0f, m_half + 0.5f}, {m_half + 1.0f, 0.5f});
        for (int i = 0; i < size; ++i) {
            const Vec2 position{random.uniform(-m_half + 2.0f, m_half - 2.0f),
                                random.uniform(-m_half + 2.0f, m_half - 2.0f)};
            if (random.below(2) == 0)
                addBox(world, BodyType::Static, position,
                       {random.uniform(0.3f, 1.2f), random.uniform(0.3f, 1.2f)});
            else
                addCircle(world, BodyType::Static, position, random.uniform(0.3f, 1.0f));
        }
        ShapeDef ball;
        ball.restitution = 0.9f;
        ball.friction = 0.0f;
        for (int i = 0; i < size / 10 + 1; ++i) {
            const Vec2 position{random.uniform(-m_half + 2.0f, m_half - 2.0f),
                                random.uniform(-m_half + 2.0f, m_half - 2.0f)};
            const float heading = random.uniform(0.0f, 6.2831853f);
            addCircle(world, BodyType::Dynamic, position, 0.25f, ball,
                      {3.0f * std::cos(heading), 3.0f * std::sin(heading)});
        }
        m_total = 0;
        world.forEachBody(
            [&](BodyId body) { world.forEachShape(body, [&](ShapeId) { ++m_total; }); });
        m_bounds = {{-m_half - 2.0f, -m_half - 2.0f}, {m_half + 2.0f, m_half + 2.0f}};
        update(world, 0.0f);
    }

    void update(World& world, float time) override {
        // The window follows a slow Lissajous curve so it crosses the whole world.
        const float reach = 0.7f * m_half;
        const Vec2 middle{reach * std::sin(0.31f * time), reach * std::sin(0.43f * time + 1.0f)};
        const Vec2 half{0.22f * m_half, 0.16f * m_half};
        m_window = {middle - half, middle + half};
        m_visible = 0;
        world.queryAABB(m_window, [&](ShapeId) {
            ++m_visible;
            return true;
        });
    }

    void draw(const World& world, DebugDraw& draw) const override {
        const Color rock{0.55f, 0.57f, 0.62f, 1.0f};
        const Color ball{0.95f, 0.55f, 0.2f, 1.0f};
        const Color edge{0.1f, 0.1f, 0.12f, 1.0f};
        world.queryAABB(m_window, [&](ShapeId shape) {
            const bool moving = world.bodyType(world.shapeBody(shape)) == BodyType::Dynamic;
            drawShape(world, shape, draw, moving ? ball : rock, edge);
            return true;
        });
        drawFrame(draw, m_window, {0.1f, 0.5f, 0.95f, 1.0f});
        drawFrame(draw, {{-m_half, -m_half}, {m_half, m_half}}, {0.4f, 0.4f, 0.4f, 1.0f});
    }

    [[nodiscard]] std::string status() const override {
        return "window shows " + std::to_string(m_visible) + " of " + std::to_string(m_total) +
               " shapes (queryAABB)";
    }

    [[nodiscard]] AABB view() const override { return m_bounds; }

private:
    float m_half = 10.0f;
    AABB m_window{};
    std::size_t m_visible = 0;
    std::size_t m_total = 0;
};

} // namespace

SceneInfo cullingScene() {
    return {"culling", "a camera window draws only what queryAABB returns over a large world",
            "rocks",   20000,
            500,       &makeScene<CullingScene>};
}

} // namespace rigid2d::demos
