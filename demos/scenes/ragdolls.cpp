// ragdolls: capsule figures (head, torso, arms and legs in two parts each) hinged at neck,
// shoulders, elbows, hips and knees, each joint within a human range and stiffened by friction (a
// motor held at zero speed with a small torque), pushed off the top of a flight of stairs. A
// ragdoll's parts never collide with each other (a negative filter group each). size = ragdolls.
#include "builders.hpp"
#include "scene_list.hpp"

namespace rigid2d::demos {
namespace {

constexpr float kStepWidth = 1.0f;
constexpr float kStepHeight = 0.7f;
constexpr int kSteps = 12;

class Ragdoll {
public:
    Ragdoll(World& world, Vec2 feet, int group, Vec2 velocity)
        : m_world(world), m_feet(feet), m_velocity(velocity) {
        m_shape.filter.groupIndex = -group;
    }

    void build() {
        const BodyId torso = limb({0.0f, 1.25f}, 0.25f, 0.16f);
        const BodyId head = m_world.createBody(bodyAt({0.0f, 1.78f}));
        m_world.createCircle(head, m_shape, Circle{{}, 0.15f});
        hinge(torso, head, {0.0f, 1.62f}, -0.4f, 0.4f);
        for (const float side : {-1.0f, 1.0f}) {
            const float x = 0.05f * side;
            const BodyId upperArm = limb({x, 1.3f}, 0.17f, 0.07f);
            hinge(torso, upperArm, {x, 1.47f}, -2.5f, 2.5f);
            const BodyId lowerArm = limb({x, 0.92f}, 0.16f, 0.06f);
            hinge(upperArm, lowerArm, {x, 1.11f}, 0.0f, 2.4f);
            const float hip = 0.09f * side;
            const BodyId upperLeg = limb({hip, 0.72f}, 0.2f, 0.09f);
            hinge(torso, upperLeg, {hip, 0.94f}, -0.5f, 1.8f);
            const BodyId lowerLeg = limb({hip, 0.27f}, 0.2f, 0.08f);
            hinge(upperLeg, lowerLeg, {hip, 0.5f}, -2.4f, 0.0f);
        }
    }

private:
    BodyDef bodyAt(Vec2 offset) const {
        return {
            .type = BodyType::Dynamic, .position = m_feet + offset, .linearVelocity = m_velocity};
    }

    // A vertical capsule centred at `offset` from the feet, `half` from its centre to each end.
    BodyId limb(Vec2 offset, float half, float radius) {
        const BodyId body = m_world.createBody(bodyAt(offset));
        m_world.createCapsule(body, m_shape, Capsule{{0.0f, -half}, {0.0f, half}, radius});
        return body;
    }

    // Friction at a joint: a motor that wants no motion, with a small torque, so limbs do not
    // flop about like chains.
    void hinge(BodyId a, BodyId b, Vec2 offset, float lower, float upper) {
        RevoluteJointDef def;
        def.bodyA = a;
        def.bodyB = b;
        def.anchor = m_feet + offset;
        def.enableLimit = true;
        def.lowerAngle = lower;
        def.upperAngle = upper;
        def.enableMotor = true;
        def.motorSpeed = 0.0f;
        def.maxMotorTorque = 0.05f;
        m_world.createRevoluteJoint(def);
    }

    World& m_world;
    Vec2 m_feet;
    Vec2 m_velocity;
    ShapeDef m_shape;
};

class RagdollsScene final : public Scene {
public:
    void build(World& world, int size) override {
        // Stairs down to the right from the top step at x in [0, w], y = 0.
        for (int i = 0; i < kSteps; ++i) {
            const float x = kStepWidth * (static_cast<float>(i) + 0.5f);
            const float top = -kStepHeight * static_cast<float>(i);
            addBox(world, BodyType::Static, {x, top - 5.0f}, {0.5f * kStepWidth, 5.0f});
        }
        const float bottom = -kStepHeight * static_cast<float>(kSteps);
        const float right = kStepWidth * static_cast<float>(kSteps);
        addBox(world, BodyType::Static, {right + 15.0f, bottom - 0.5f}, {15.0f, 0.5f});
        addBox(world, BodyType::Static, {right + 30.5f, bottom + 5.0f}, {0.5f, 5.5f});
        addBox(world, BodyType::Static, {-0.5f, 5.0f}, {0.5f, 5.0f});

        // Ragdolls stand in a column above the top step, each pushed toward the stairs.
        Random random(7);
        for (int i = 0; i < size; ++i) {
            const Vec2 feet{0.5f + 0.2f * static_cast<float>(i % 3),
                            0.2f + 2.2f * static_cast<float>(i)};
            Ragdoll(world, feet, i + 1, {random.uniform(3.0f, 5.0f), 0.0f}).build();
        }
        const float top = 2.2f * static_cast<float>(size) + 2.0f;
        m_bounds = {{-5.0f, bottom - 5.0f}, {right + 35.0f, top + 10.0f}};
        m_view = {{-2.0f, bottom - 1.0f}, {right + 12.0f, top}};
    }

    [[nodiscard]] AABB view() const override { return m_view; }

private:
    AABB m_view{};
};

} // namespace

SceneInfo ragdollsScene() {
    return {
        "ragdolls", "capsule ragdolls with limited, stiff joints tumble down a flight of stairs",
        "ragdolls", 8,
        3,          &makeScene<RagdollsScene>};
}

} // namespace rigid2d::demos
