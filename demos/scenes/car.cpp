// car: a chassis on two wheel joints (suspension springs along the chassis' vertical, a motor on
// the rear wheel) drives over a road of bumps and ramps and a loose plank. size = bumps.
#include <vector>

#include "builders.hpp"
#include "rigid2d/geometry.hpp"
#include "scene_list.hpp"

namespace rigid2d::demos {
namespace {

class CarScene final : public Scene {
public:
    void build(World& world, int size) override {
        const float length = 20.0f + 6.0f * static_cast<float>(size);
        const BodyId ground = world.createBody({});
        world.createSegment(ground, {}, Segment{{-20.0f, 0.0f}, {length + 20.0f, 0.0f}});
        world.createSegment(ground, {}, Segment{{-20.0f, 0.0f}, {-20.0f, 10.0f}});
        world.createSegment(ground, {}, Segment{{length + 20.0f, 0.0f}, {length + 20.0f, 10.0f}});
        // Bumps of rising height: half-buried logs, and every third one a ramp.
        for (int i = 0; i < size; ++i) {
            const float x = 8.0f + 6.0f * static_cast<float>(i);
            const float height = 0.15f + 0.05f * static_cast<float>(i % 4);
            if (i % 3 == 2) {
                world.createPolygon(ground, {},
                                    makePolygon(std::vector<Vec2>{{x - 1.5f, 0.0f},
                                                                  {x + 0.5f, 0.0f},
                                                                  {x + 0.5f, 2.0f * height}}));
            } else {
                world.createCircle(ground, {}, Circle{{x, -0.25f}, 0.25f + height});
            }
        }
        // A loose plank on the road, the car's first obstacle.
        const BodyId plank =
            world.createBody({.type = BodyType::Dynamic, .position = {4.0f, 0.1f}});
        world.createBox(plank, {.density = 2.0f}, Box{{}, {1.5f, 0.1f}, 0.0f});

        buildCar(world, {-14.0f, 1.0f});
        m_bounds = {{-25.0f, -5.0f}, {length + 25.0f, 30.0f}};
    }

    [[nodiscard]] AABB view() const override { return {{-20.0f, -3.0f}, {20.0f, 12.0f}}; }

private:
    static void buildCar(World& world, Vec2 at) {
        const BodyId chassis = world.createBody({.type = BodyType::Dynamic, .position = at});
        const std::vector<Vec2> outline{{-1.5f, -0.25f}, {1.5f, -0.25f}, {1.5f, 0.1f},
                                        {0.2f, 0.6f},    {-1.1f, 0.6f},  {-1.5f, 0.2f}};
        world.createPolygon(chassis, {.density = 2.0f}, makePolygon(outline));
        ShapeDef tyre;
        tyre.density = 1.5f;
        tyre.friction = 0.9f;
        for (const float x : {-1.0f, 1.0f}) {
            const Vec2 hub = at + Vec2{x, -0.45f};
            const BodyId wheel = world.createBody({.type = BodyType::Dynamic, .position = hub});
            world.createCircle(wheel, tyre, Circle{{}, 0.4f});
            // Rear-wheel drive; clockwise (negative) spin rolls the car to the right.
            WheelJointDef def;
            def.bodyA = chassis;
            def.bodyB = wheel;
            def.anchor = hub;
            def.axis = {0.0f, 1.0f};
            def.hertz = 4.0f;
            def.dampingRatio = 0.7f;
            def.enableMotor = x < 0.0f;
            def.motorSpeed = -15.0f;
            def.maxMotorTorque = 40.0f;
            world.createWheelJoint(def);
        }
    }
};

} // namespace

SceneInfo carScene() {
    return {"car",   "a car on sprung, motorised wheel joints drives over bumps and ramps",
            "bumps", 12,
            3,       &makeScene<CarScene>};
}

} // namespace rigid2d::demos
