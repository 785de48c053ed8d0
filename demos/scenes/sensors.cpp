// sensors: balls bounce through a row of sensor zones; each zone counts its visitors from the
// world's sensor begin/end events and lights up while it holds any. Every few seconds the balls
// get a kick so the zones keep flickering. size = balls.
#include <cstdio>
#include <string>
#include <vector>

#include "builders.hpp"
#include "scene_draw.hpp"
#include "scene_list.hpp"

namespace rigid2d::demos {
namespace {

constexpr int kZones = 6;
constexpr float kKickPeriod = 3.0f;

class SensorsScene final : public Scene {
public:
    void build(World& world, int size) override {
        m_zones.clear();
        m_balls.clear();
        m_random = Random(23);
        m_nextKick = kKickPeriod;
        m_begins = m_ends = 0;
        const AABB box{{-24.0f, 0.0f}, {24.0f, 30.0f}};
        addContainer(world, box);
        addBox(world, BodyType::Static, {0.0f, 30.5f}, {25.0f, 0.5f});
        for (int i = 0; i < kZones; ++i) {
            const float x = -20.0f + 8.0f * static_cast<float>(i);
            const float y = i % 2 == 0 ? 4.0f : 12.0f;
            BodyDef def;
            def.position = {x, y};
            const BodyId body = world.createBody(def);
            ShapeDef shape;
            shape.isSensor = true;
            shape.userData = static_cast<std::uint64_t>(i + 1);
            const ShapeId zone = world.createBox(body, shape, Box{{0.0f, 0.0f}, {3.0f, 3.0f}});
            m_zones.push_back({zone, world.shapeAABB(zone), 0});
        }
        ShapeDef ball;
        ball.restitution = 0.8f;
        ball.friction = 0.2f;
        for (int i = 0; i < size; ++i) {
            const Vec2 position{m_random.uniform(-22.0f, 22.0f), m_random.uniform(16.0f, 28.0f)};
            const Vec2 velocity{m_random.uniform(-6.0f, 6.0f), 0.0f};
            m_balls.push_back(addCircle(world, BodyType::Dynamic, position, 0.4f, ball, velocity));
        }
        m_bounds = {{box.lower.x - 2.0f, -2.0f}, {box.upper.x + 2.0f, 33.0f}};
    }

    void update(World& world, float time) override {
        // Events of the step just taken: count visitors per zone.
        const SensorEvents events = world.sensorEvents();
        for (const SensorBeginEvent& e : events.begin) {
            if (Zone* zone = zoneOf(world, e.sensorShape)) ++zone->visitors;
            ++m_begins;
        }
        for (const SensorEndEvent& e : events.end) {
            if (Zone* zone = zoneOf(world, e.sensorShape); zone && zone->visitors > 0)
                --zone->visitors;
            ++m_ends;
        }
        if (time >= m_nextKick) {
            m_nextKick += kKickPeriod;
            for (const BodyId ball : m_balls) {
                const Vec2 impulse{m_random.uniform(-2.0f, 2.0f), m_random.uniform(3.0f, 6.0f)};
                world.applyLinearImpulse(ball, impulse * world.mass(ball), world.position(ball));
            }
        }
    }

    void draw(const World& world, DebugDraw& draw) const override {
        world.debugDraw(draw);
        for (const Zone& zone : m_zones) {
            const bool lit = zone.visitors > 0;
            const Color fill =
                lit ? Color{1.0f, 0.85f, 0.1f, 0.45f} : Color{0.5f, 0.5f, 0.6f, 0.12f};
            const Color edge = lit ? Color{0.9f, 0.6f, 0.0f, 1.0f} : Color{0.4f, 0.4f, 0.5f, 1.0f};
            draw.drawBox(zone.box, fill, edge);
            draw.drawText({zone.box.lower.x + 0.3f, zone.box.upper.y - 0.4f},
                          std::to_string(zone.visitors), edge);
        }
    }

    [[nodiscard]] std::string status() const override {
        int lit = 0;
        for (const Zone& zone : m_zones) lit += zone.visitors > 0 ? 1 : 0;
        return std::to_string(lit) + " of " + std::to_string(m_zones.size()) + " zones lit; " +
               std::to_string(m_begins) + " begin / " + std::to_string(m_ends) + " end events";
    }

private:
    struct Zone {
        ShapeId shape;
        AABB box;
        int visitors = 0;
    };

    Zone* zoneOf(const World& world, ShapeId sensor) {
        if (!world.isValid(sensor)) return nullptr;
        const std::uint64_t tag = world.userData(sensor);
        if (tag == 0 || tag > m_zones.size()) return nullptr;
        return &m_zones[static_cast<std::size_t>(tag - 1)];
    }

    std::vector<Zone> m_zones;
    std::vector<BodyId> m_balls;
    Random m_random{23};
    float m_nextKick = kKickPeriod;
    std::size_t m_begins = 0;
    std::size_t m_ends = 0;
};

} // namespace

SceneInfo sensorsScene() {
    return {"sensors", "sensor zones light up on sensor begin/end events",
            "balls",   150,
            40,        &makeScene<SensorsScene>};
}

} // namespace rigid2d::demos
