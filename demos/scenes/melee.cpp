// melee: two armies in a walled arena, no gravity. Each unit asks `World::queryAABB` for the
// shapes within its attack radius, picks the nearest enemy, walks at it and hits it when they
// touch; a unit out of hit points is destroyed. Units that see nobody march toward the enemy's
// side. size = units (half per team).
#include <cmath>
#include <string>
#include <vector>

#include "builders.hpp"
#include "scene_draw.hpp"
#include "scene_list.hpp"

namespace rigid2d::demos {
namespace {

constexpr float kUnitRadius = 0.5f;
constexpr float kAttackRadius = 6.0f;
constexpr float kWalkSpeed = 4.0f;
constexpr float kDamagePerSecond = 1.0f;
constexpr float kReach = 2.0f * kUnitRadius + 0.2f;

const Color kTeamColors[2] = {{0.9f, 0.3f, 0.25f, 1.0f}, {0.25f, 0.45f, 0.95f, 1.0f}};

class MeleeScene final : public Scene {
public:
    void build(World& world, int size) override {
        world.setGravity({0.0f, 0.0f});
        m_units.clear();
        m_lastTime = 0.0f;
        const int perTeam = (size + 1) / 2;
        const int columns =
            static_cast<int>(std::ceil(std::sqrt(static_cast<float>(perTeam) / 2.0f)));
        const int rows = (perTeam + columns - 1) / columns;
        const float depth = static_cast<float>(columns) * 1.5f;
        m_halfWidth = 2.0f * depth + 16.0f;
        m_halfHeight = static_cast<float>(rows) * 0.75f + 6.0f;
        const AABB arena{{-m_halfWidth, -m_halfHeight}, {m_halfWidth, m_halfHeight}};
        addContainer(world, arena);
        addBox(world, BodyType::Static, {0.0f, m_halfHeight + 0.5f}, {m_halfWidth + 1.0f, 0.5f});
        Random random(17);
        for (int team = 0; team < 2; ++team) {
            const float side = team == 0 ? -1.0f : 1.0f;
            for (int i = 0; i < perTeam; ++i) {
                const float x = side * (8.0f + static_cast<float>(i % columns) * 1.5f);
                const float y =
                    (static_cast<float>(i / columns) - 0.5f * static_cast<float>(rows - 1)) * 1.5f;
                BodyDef def;
                def.type = BodyType::Dynamic;
                def.position = {x + random.uniform(-0.2f, 0.2f), y};
                def.linearDamping = 2.0f;
                def.enableSleep = false;
                const BodyId body = world.createBody(def);
                ShapeDef shape;
                shape.friction = 0.2f;
                shape.userData = m_units.size() + 1; // 0 = not a unit (walls)
                world.createCircle(body, shape, Circle{{0.0f, 0.0f}, kUnitRadius});
                m_units.push_back({body, {}, team, 3.0f + random.uniform(0.0f, 1.0f)});
            }
        }
        m_bounds = {{-m_halfWidth - 2.0f, -m_halfHeight - 2.0f},
                    {m_halfWidth + 2.0f, m_halfHeight + 2.0f}};
    }

    void update(World& world, float time) override {
        const float dt = time - m_lastTime;
        m_lastTime = time;
        for (std::size_t i = 0; i < m_units.size(); ++i) {
            Unit& unit = m_units[i];
            if (unit.body.isNull()) continue;
            const Vec2 p = world.position(unit.body);
            unit.target = nearestEnemy(world, unit, p);
            Vec2 heading{unit.team == 0 ? 1.0f : -1.0f, -p.y / m_halfHeight};
            if (!unit.target.isNull()) {
                const Unit& enemy = m_units[unitIndex(world, unit.target)];
                const Vec2 toEnemy = world.position(enemy.body) - p;
                heading = toEnemy;
                if (std::sqrt(toEnemy.x * toEnemy.x + toEnemy.y * toEnemy.y) < kReach)
                    m_units[unitIndex(world, unit.target)].hitPoints -= kDamagePerSecond * dt;
            }
            const float length = std::sqrt(heading.x * heading.x + heading.y * heading.y);
            if (length > 1e-4f) world.setLinearVelocity(unit.body, heading * (kWalkSpeed / length));
        }
        for (Unit& unit : m_units) {
            if (unit.body.isNull() || unit.hitPoints > 0.0f) continue;
            world.destroyBody(unit.body);
            unit.body = {};
            unit.target = {};
        }
    }

    void draw(const World& world, DebugDraw& draw) const override {
        world.debugDraw(draw);
        const Color outline{0.1f, 0.1f, 0.1f, 1.0f};
        for (const Unit& unit : m_units) {
            if (unit.body.isNull()) continue;
            world.forEachShape(unit.body, [&](ShapeId shape) {
                drawShape(world, shape, draw, kTeamColors[unit.team], outline);
            });
            if (!unit.target.isNull() && world.isValid(unit.target)) {
                Color line = kTeamColors[unit.team];
                line.a = 0.6f;
                draw.drawSegment(world.position(unit.body),
                                 world.position(world.shapeBody(unit.target)), line);
            }
        }
    }

    [[nodiscard]] std::string status() const override {
        int alive[2] = {0, 0};
        for (const Unit& unit : m_units)
            if (!unit.body.isNull()) ++alive[unit.team];
        return "red " + std::to_string(alive[0]) + " vs blue " + std::to_string(alive[1]) +
               " (queryAABB within " + std::to_string(static_cast<int>(kAttackRadius)) + " m)";
    }

private:
    struct Unit {
        BodyId body;
        ShapeId target; ///< the enemy's shape this step, or null
        int team = 0;
        float hitPoints = 3.0f;
    };

    std::size_t unitIndex(const World& world, ShapeId shape) const {
        return static_cast<std::size_t>(world.userData(shape) - 1);
    }

    ShapeId nearestEnemy(const World& world, const Unit& unit, Vec2 p) const {
        const AABB region{p - Vec2{kAttackRadius, kAttackRadius},
                          p + Vec2{kAttackRadius, kAttackRadius}};
        ShapeId best;
        float bestDistance = kAttackRadius * kAttackRadius;
        world.queryAABB(region, [&](ShapeId shape) {
            const std::uint64_t tag = world.userData(shape);
            if (tag == 0) return true;
            const Unit& other = m_units[static_cast<std::size_t>(tag - 1)];
            if (other.team == unit.team || other.body.isNull()) return true;
            const Vec2 d = world.position(other.body) - p;
            const float distance = d.x * d.x + d.y * d.y;
            if (distance < bestDistance) {
                bestDistance = distance;
                best = shape;
            }
            return true;
        });
        return best;
    }

    std::vector<Unit> m_units;
    float m_lastTime = 0.0f;
    float m_halfWidth = 10.0f;
    float m_halfHeight = 10.0f;
};

} // namespace

SceneInfo meleeScene() {
    return {"melee", "two armies find enemies within an attack radius through queryAABB",
            "units", 400,
            60,      &makeScene<MeleeScene>};
}

} // namespace rigid2d::demos
