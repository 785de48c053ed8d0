// spinner: a blade on a motorised revolute joint turns at a steady speed inside a closed box of
// circles, boxes, capsules and polygons, churning them; the motor's torque limit is far above what
// the pile resists, so the blade never stalls. size = shapes.
#include <vector>

#include "builders.hpp"
#include "rigid2d/geometry.hpp"
#include "scene_list.hpp"

namespace rigid2d::demos {
namespace {

constexpr float kHalfWidth = 12.0f;

class SpinnerScene final : public Scene {
public:
    void build(World& world, int size) override {
        const AABB inside{{-kHalfWidth, 0.0f}, {kHalfWidth, 2.0f * kHalfWidth}};
        addContainer(world, inside);
        const BodyId lid = world.createBody({});
        world.createBox(lid, {},
                        Box{{0.0f, 2.0f * kHalfWidth + 0.5f}, {kHalfWidth + 1.0f, 0.5f}, 0.0f});

        const Vec2 hub{0.0f, kHalfWidth};
        const BodyId blade = world.createBody({.type = BodyType::Dynamic, .position = hub});
        world.createBox(blade, {.density = 5.0f, .friction = 0.3f},
                        Box{{}, {0.8f * kHalfWidth, 0.3f}, 0.0f});
        RevoluteJointDef motor;
        motor.bodyA = lid;
        motor.bodyB = blade;
        motor.anchor = hub;
        motor.enableMotor = true;
        motor.motorSpeed = 3.0f;
        motor.maxMotorTorque = 1e6f;
        world.createRevoluteJoint(motor);

        // The pile: rows from the floor up, below the blade's reach, in four kinds.
        Random random(5);
        const int perRow = 22;
        for (int i = 0; i < size; ++i) {
            const float x = -kHalfWidth + 0.5f + 1.05f * static_cast<float>(i % perRow);
            const float y = 0.6f + 0.9f * static_cast<float>(i / perRow);
            const float radius = random.uniform(0.25f, 0.4f);
            const BodyId body = world.createBody({.type = BodyType::Dynamic,
                                                  .position = {x, y},
                                                  .angle = random.uniform(-1.0f, 1.0f)});
            switch (i % 4) {
            case 0: world.createCircle(body, {}, Circle{{}, radius}); break;
            case 1: world.createBox(body, {}, Box{{}, {radius, 0.7f * radius}, 0.0f}); break;
            case 2:
                world.createCapsule(body, {},
                                    Capsule{{-radius, 0.0f}, {radius, 0.0f}, 0.5f * radius});
                break;
            default:
                world.createPolygon(body, {},
                                    makePolygon(std::vector<Vec2>{
                                        {-radius, -radius}, {radius, -radius}, {0.0f, radius}}));
                break;
            }
        }
        m_bounds = {inside.lower - Vec2{2.0f, 2.0f}, inside.upper + Vec2{2.0f, 2.0f}};
    }
};

} // namespace

SceneInfo spinnerScene() {
    return {"spinner", "a motorised blade churns a closed box of mixed shapes",
            "shapes",  400,
            60,        &makeScene<SpinnerScene>};
}

} // namespace rigid2d::demos
