// ramp: zig-zag ramps of turned static boxes; circles and capsules roll down, boxes and hexagons
// slide or tumble, depending on their friction; size = shapes dropped.
#include <cmath>
#include <vector>

#include "builders.hpp"
#include "rigid2d/geometry.hpp"
#include "scene_list.hpp"

namespace rigid2d::demos {
namespace {

constexpr int kRamps = 4;
constexpr float kRampHalfLength = 12.0f;
constexpr float kRampAngle = 0.3f;
constexpr float kRampRise = 7.0f; // between ramps

class RampScene final : public Scene {
public:
    void build(World& world, int size) override {
        for (int i = 0; i < kRamps; ++i) {
            BodyDef ramp;
            const float side = i % 2 == 0 ? 1.0f : -1.0f;
            ramp.position = {side * 3.0f, kRampRise * static_cast<float>(i) + 2.0f};
            ramp.angle = -side * kRampAngle;
            world.createBox(world.createBody(ramp), {},
                            Box{{0.0f, 0.0f}, {kRampHalfLength, 0.25f}});
        }
        addContainer(world, {{-20.0f, -4.0f}, {20.0f, 40.0f}});
        std::vector<Vec2> hexagon;
        for (int k = 0; k < 6; ++k) {
            const float a = static_cast<float>(k) * 1.0471976f;
            hexagon.push_back({0.45f * std::cos(a), 0.45f * std::sin(a)});
        }
        const Polygon hex = makePolygon(hexagon, 0.02f);
        Random random(11);
        for (int i = 0; i < size; ++i) {
            BodyDef def;
            def.type = BodyType::Dynamic;
            def.position = {random.uniform(-8.0f, 8.0f), 32.0f + 1.5f * static_cast<float>(i)};
            def.angle = random.uniform(0.0f, 3.0f);
            const BodyId body = world.createBody(def);
            ShapeDef shape;
            shape.friction = random.uniform(0.1f, 0.8f);
            switch (i % 4) {
            case 0: world.createCircle(body, shape, Circle{{0.0f, 0.0f}, 0.4f}); break;
            case 1:
                world.createCapsule(body, shape, Capsule{{-0.4f, 0.0f}, {0.4f, 0.0f}, 0.25f});
                break;
            case 2: world.createBox(body, shape, Box{{0.0f, 0.0f}, {0.45f, 0.3f}}); break;
            default: world.createPolygon(body, shape, hex); break;
            }
        }
        m_bounds = {{-21.0f, -5.0f}, {21.0f, 40.0f + 1.5f * static_cast<float>(size)}};
    }
    [[nodiscard]] AABB view() const override { return {{-21.0f, -5.0f}, {21.0f, 38.0f}}; }
};

} // namespace

SceneInfo rampScene() {
    return {"ramp",   "circles, capsules, boxes and hexagons down zig-zag ramps",
            "shapes", 80,
            16,       &makeScene<RampScene>};
}

} // namespace rigid2d::demos
