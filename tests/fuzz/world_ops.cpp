#include "world_ops.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <string>

#include "rigid2d/testing.hpp"

namespace rigid2d::fuzz {

namespace {

bool g_verbose = false;

std::uint64_t bits(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

// Ids of a world that is never fed ops: every call must refuse them as another world's.
const World& foreignWorld() {
    static const World world = [] {
        World w;
        const BodyId body = w.createBody({.type = BodyType::Dynamic});
        (void)w.createCircle(body, {}, Circle{});
        return w;
    }();
    return world;
}

BodyId foreignBody() {
    BodyId id;
    foreignWorld().forEachBody([&](BodyId b) { id = b; });
    return id;
}

ShapeId foreignShape() {
    ShapeId id;
    foreignWorld().forEachShape(foreignBody(), [&](ShapeId s) { id = s; });
    return id;
}

// A debug-draw sink that only reads what it is given; drawing must not change the world either.
class NullDraw final : public DebugDraw {
public:
    void drawCircle(Vec2, float, float, Color, Color) override {}
    void drawBox(const AABB&, Color, Color) override {}
    void drawAABB(const AABB&, Color) override {}
    void drawSegment(Vec2, Vec2, Color) override {}
    void drawPoint(Vec2, float, Color) override {}
};

enum Op : unsigned {
    kCreateBody,
    kDestroyBody,
    kCreateCircle,
    kCreateBox,
    kDestroyShape,
    kSetTransform,
    kSetLinearVelocity,
    kSetAngularVelocity,
    kApplyForce,
    kApplyForceToCenter,
    kApplyTorque,
    kApplyLinearImpulse,
    kSetAwake,
    kSetBullet,
    kSetMaterial,
    kSetFilter,
    kSetBroadPhase,
    kSetGravity,
    kStep,
    kQueryAABB,
    kCastRay,
    kCastRayClosest,
    kForEach,
    kReadBack,
    kCreatePolygon,
    kCreateCapsule,
    kCreateSegment,
    kCreateJoint,
    kChangeJoint,
    kCreateChain, // chains go with their body (destroyBody): destroyChain has no op of its own
    kOpCount
};

} // namespace

void setVerbose(bool verbose) { g_verbose = verbose; }

void violation(std::string_view rule, std::string_view detail) {
    std::fprintf(stderr, "rigid2d fuzz: rule broken: %.*s: %.*s\n", static_cast<int>(rule.size()),
                 rule.data(), static_cast<int>(detail.size()), detail.data());
    std::abort();
}

Fingerprint::Fingerprint(const World& world)
    : hash(testing::stateHash(world)), bodies(world.bodyCount()),
      proxies(world.broadPhase().size()), gravity(world.gravity()),
      broadPhase(world.broadPhase().name()) {
    world.forEachBody([&](BodyId body) {
        details.push_back(static_cast<std::uint64_t>(world.bodyType(body)));
        details.push_back(bits(world.mass(body)));
        details.push_back(bits(world.inertia(body)));
        details.push_back(world.isBullet(body) ? 1u : 0u);
        details.push_back(world.userData(body));
        world.forEachShape(body, [&](ShapeId shape) {
            details.push_back((std::uint64_t{shape.index} << 32) | shape.generation);
            const AABB box = world.shapeAABB(shape);
            details.push_back((bits(box.lower.x) << 32) | bits(box.lower.y));
            details.push_back((bits(box.upper.x) << 32) | bits(box.upper.y));
            details.push_back((bits(world.friction(shape)) << 32) | bits(world.restitution(shape)));
            const Filter f = world.filter(shape);
            details.push_back((std::uint64_t{f.categoryBits} << 32) | f.maskBits);
            details.push_back(static_cast<std::uint32_t>(f.groupIndex));
        });
    });
    addJointDetails(world, details);
}

bool WorldOps::attempt(std::string_view op, FunctionRef<void()> call) {
    const Fingerprint before(m_world);
    try {
        call();
        if (g_verbose)
            std::fprintf(stderr, "  %.*s: done\n", static_cast<int>(op.size()), op.data());
        return true;
    } catch (const Error& e) {
        if (g_verbose)
            std::fprintf(stderr, "  %.*s: refused: %s\n", static_cast<int>(op.size()), op.data(),
                         e.what());
        if (!(Fingerprint(m_world) == before)) violation(op, "a refused call changed the world");
        return false;
    } catch (const std::exception& e) {
        violation(op, std::string("threw an exception that is not rigid2d::Error: ") + e.what());
    } catch (...) {
        violation(op, "threw something that is not an exception");
    }
}

BodyId WorldOps::pickBody(FuzzInput& in) {
    const std::uint8_t b = in.byte();
    if (b < 240 && !m_bodies.empty()) return m_bodies[b % m_bodies.size()];
    switch (b % 4) {
    case 0: return BodyId{};
    case 1: return foreignBody();
    case 2: {
        // A plausible index with a generation never issued.
        BodyId forged = m_bodies.empty() ? BodyId{} : m_bodies.front();
        forged.generation += 0x10000u;
        return forged;
    }
    default: {
        BodyId forged = m_bodies.empty() ? BodyId{} : m_bodies.front();
        forged.index = 0xFFFFFFF0u;
        forged.generation = 1;
        return forged;
    }
    }
}

ShapeId WorldOps::pickShape(FuzzInput& in) {
    const std::uint8_t b = in.byte();
    if (b < 240 && !m_shapes.empty()) return m_shapes[b % m_shapes.size()];
    switch (b % 3) {
    case 0: return ShapeId{};
    case 1: return foreignShape();
    default: {
        ShapeId forged = m_shapes.empty() ? ShapeId{} : m_shapes.front();
        forged.index += 1000u;
        forged.generation = 1;
        return forged;
    }
    }
}

BodyDef WorldOps::bodyDef(FuzzInput& in) {
    BodyDef def;
    const std::uint8_t flags = in.byte();
    def.type = static_cast<BodyType>(flags % 3);
    def.fixedRotation = (flags & 0x04u) != 0;
    def.bullet = (flags & 0x08u) != 0;
    def.enableSleep = (flags & 0x10u) == 0;
    def.isAwake = (flags & 0x20u) == 0;
    def.position = in.vec2();
    if ((flags & 0x40u) != 0) {
        def.angle = in.number();
        def.linearVelocity = in.vec2();
        def.angularVelocity = in.number();
    }
    if ((flags & 0x80u) != 0) {
        def.linearDamping = in.number();
        def.angularDamping = in.number();
        def.gravityScale = in.number();
    }
    return def;
}

ShapeDef WorldOps::shapeDef(FuzzInput& in) {
    ShapeDef def;
    const std::uint8_t flags = in.byte();
    if ((flags & 0x01u) != 0) def.density = in.number();
    if ((flags & 0x02u) != 0) def.friction = in.number();
    if ((flags & 0x04u) != 0) def.restitution = in.unit();
    def.isSensor = (flags & 0x08u) != 0;
    def.enableSensorEvents = (flags & 0x10u) == 0;
    def.enableContactEvents = (flags & 0x20u) == 0;
    def.enableHitEvents = (flags & 0x40u) == 0;
    if ((flags & 0x80u) != 0) {
        def.filter.categoryBits = in.u32();
        def.filter.maskBits = in.u32();
        def.filter.groupIndex = static_cast<std::int32_t>(in.u32());
    }
    return def;
}

BroadPhaseConfig smallGridConfig() {
    BroadPhaseConfig config;
    config.maxGridCells = 4096;
    return config;
}

BroadPhaseConfig WorldOps::broadPhaseConfig(FuzzInput& in) {
    BroadPhaseConfig config = smallGridConfig();
    const std::uint8_t flags = in.byte();
    if ((flags & 0x01u) != 0) config.worldBounds = AABB{in.vec2(), in.vec2()};
    if ((flags & 0x02u) != 0) config.cellSize = in.number();
    if ((flags & 0x04u) != 0) config.finestCellSize = in.number();
    if ((flags & 0x08u) != 0) {
        // The accepted range is kept small (see smallGridConfig).
        constexpr std::size_t kCells[] = {0, 1, 2, 64, 4096, kMaxGridCells + 1, ~std::size_t{0}};
        config.maxGridCells = kCells[in.below(std::size(kCells))];
    }
    return config;
}

void WorldOps::reenter(unsigned what) {
    // Live ids, so that a refusal can only come from the lock, not from a stale id.
    BodyId body;
    for (auto it = m_bodies.rbegin(); it != m_bodies.rend() && body.isNull(); ++it)
        if (m_world.isValid(*it)) body = *it;
    ShapeId shape;
    for (auto it = m_shapes.rbegin(); it != m_shapes.rend() && shape.isNull(); ++it)
        if (m_world.isValid(*it)) shape = *it;
    const Fingerprint before(m_world);
    bool refused = false;
    try {
        switch (what % 10) {
        case 0: (void)m_world.createBody({.type = BodyType::Dynamic}); break;
        case 1: m_world.destroyBody(body); break;
        case 2: m_world.step(1.0f / 60.0f); break;
        case 3: m_world.setTransform(body, {1.0f, 2.0f}, 0.5f); break;
        case 4: (void)m_world.createCircle(body, {}, Circle{}); break;
        case 5: m_world.destroyShape(shape); break;
        case 6: m_world.setBroadPhase(BroadPhaseType::BruteForce); break;
        case 7: m_world.setGravity({0.0f, 1.0f}); break;
        case 8: m_world.applyLinearImpulse(body, {1.0f, 0.0f}, {0.0f, 0.0f}); break;
        default: m_world.setFilter(shape, Filter{}); break;
        }
    } catch (const Error&) {
        refused = true;
    } catch (...) {
        violation("callback re-entry", "threw an exception that is not rigid2d::Error");
    }
    if (!refused) violation("callback re-entry", "a change from inside a callback was accepted");
    if (!(Fingerprint(m_world) == before))
        violation("callback re-entry", "a refused call changed the world");
}

void WorldOps::step(FuzzInput& in) {
    if (m_steps >= kMaxSteps) return;
    ++m_steps;
    const std::uint8_t how = in.byte();
    float dt;
    if (how < 128) {
        constexpr float kSteps[] = {1.0f / 60.0f, 1.0f / 30.0f, 1.0f / 240.0f,
                                    kMinTimeStep, kMaxTimeStep, 0.1f};
        dt = kSteps[how % std::size(kSteps)];
    } else {
        dt = in.number();
    }
    const bool valid = dt >= kMinTimeStep && dt <= kMaxTimeStep;
    if (!valid) {
        if (attempt("World::step", [&] { m_world.step(dt); }))
            violation("World::step", "a dt outside [kMinTimeStep, kMaxTimeStep] was accepted");
        return;
    }
    if (g_verbose) std::fprintf(stderr, "  World::step(%g)\n", static_cast<double>(dt));
    try {
        m_world.step(dt);
    } catch (const std::exception& e) {
        violation("World::step", std::string("threw with a valid dt: ") + e.what());
    } catch (...) {
        violation("World::step", "threw something with a valid dt");
    }
    if (!testing::allFinite(m_world))
        violation("World::step", "left a body with a non-finite state");
    // The events must name shapes that existed during the step; reading them must be safe.
    const ContactEvents contacts = m_world.contactEvents();
    std::uint64_t events = contacts.begin.size() + contacts.end.size() + contacts.hit.size();
    for (const ContactHitEvent& hit : contacts.hit)
        if (!std::isfinite(hit.approachSpeed) || !std::isfinite(hit.point.x))
            violation("World::contactEvents", "a hit event with a non-finite value");
    const SensorEvents sensors = m_world.sensorEvents();
    events += sensors.begin.size() + sensors.end.size();
    m_trace.push_back(events);
}

void WorldOps::query(FuzzInput& in, unsigned kind) {
    // The callbacks' behaviour is decoded before the call: a callback reading bytes would make the
    // rest of the input mean something else whenever visit order differs (auto switches broad
    // phases by measured time, so the two runs may visit in different orders).
    const unsigned stopAfter = in.byte();
    const std::uint8_t reentry = in.byte();
    const bool tryReentry = reentry < 96;
    unsigned visits = 0;
    std::uint64_t seen = 0;
    if (kind == kQueryAABB) {
        const AABB region{in.vec2(), in.vec2()};
        const bool refused = !attempt("World::queryAABB", [&] {
            m_world.queryAABB(region, [&](ShapeId shape) {
                if (!m_world.isValid(shape)) violation("World::queryAABB", "visited a dead shape");
                if (tryReentry) reenter(reentry);
                seen += (std::uint64_t{shape.index} + 1) * 0x9E3779B97F4A7C15ull;
                return ++visits < stopAfter;
            });
        });
        // The set of shapes found (not their order) is the same on every broad phase.
        if (!refused && visits < stopAfter) m_trace.push_back(seen);
    } else if (kind == kCastRay) {
        const Vec2 origin = in.vec2(), translation = in.vec2();
        const float answer = in.flag() ? in.unit() : in.number();
        (void)attempt("World::castRay", [&] {
            m_world.castRay(origin, translation, [&](const RayHit& hit) {
                if (!m_world.isValid(hit.shape)) violation("World::castRay", "hit a dead shape");
                if (!(hit.fraction >= 0.0f && hit.fraction <= 1.0f))
                    violation("World::castRay", "a hit fraction outside [0, 1]");
                if (tryReentry) reenter(reentry);
                return ++visits < stopAfter ? answer : 0.0f;
            });
        });
    } else {
        const Vec2 origin = in.vec2(), translation = in.vec2();
        std::optional<RayHit> hit;
        if (attempt("World::castRayClosest",
                    [&] { hit = m_world.castRayClosest(origin, translation); }) &&
            hit) {
            if (!std::isfinite(hit->point.x) || !std::isfinite(hit->point.y) ||
                !std::isfinite(hit->normal.x) || !std::isfinite(hit->normal.y))
                violation("World::castRayClosest", "a hit with a non-finite point or normal");
            m_trace.push_back((std::uint64_t{hit->shape.index} << 32) | bits(hit->fraction));
        }
    }
}

void WorldOps::runOne(FuzzInput& in, unsigned op) {
    switch (op) {
    case kCreateBody: {
        if (m_bodies.size() >= kMaxBodies) return;
        const BodyDef def = bodyDef(in);
        BodyId id;
        if (attempt("World::createBody", [&] { id = m_world.createBody(def); }))
            m_bodies.push_back(id);
        return;
    }
    case kDestroyBody: {
        const BodyId body = pickBody(in);
        (void)attempt("World::destroyBody", [&] { m_world.destroyBody(body); });
        return;
    }
    case kCreateCircle:
    case kCreateBox: {
        if (m_shapes.size() >= kMaxShapes) return;
        const BodyId body = pickBody(in);
        const ShapeDef def = shapeDef(in);
        const Vec2 center = in.flag() ? in.vec2() : Vec2{};
        ShapeId id;
        bool made;
        if (op == kCreateCircle) {
            const Circle circle{center, in.number()};
            made = attempt("World::createCircle",
                           [&] { id = m_world.createCircle(body, def, circle); });
        } else {
            const Box box{center, in.vec2(), in.flag() ? in.number() : 0.0f};
            made = attempt("World::createBox", [&] { id = m_world.createBox(body, def, box); });
        }
        if (made) m_shapes.push_back(id);
        return;
    }
    case kCreatePolygon:
    case kCreateCapsule:
    case kCreateSegment: {
        if (m_shapes.size() >= kMaxShapes) return;
        const BodyId body = pickBody(in);
        const ShapeDef def = shapeDef(in);
        ShapeId id;
        bool made;
        if (op == kCreatePolygon) {
            // Points from the bytes, hand-filled (createPolygon must refuse what makePolygon
            // would) or, now and then, through makePolygon first.
            Polygon polygon;
            polygon.count = static_cast<int>(in.below(kMaxPolygonVertices + 2));
            for (int i = 0; i < std::min(polygon.count, kMaxPolygonVertices); ++i)
                polygon.vertices[i] = in.vec2();
            polygon.radius = in.flag() ? in.number() : 0.0f;
            made = attempt("World::createPolygon",
                           [&] { id = m_world.createPolygon(body, def, polygon); });
        } else if (op == kCreateCapsule) {
            const Capsule capsule{in.vec2(), in.vec2(), in.number()};
            made = attempt("World::createCapsule",
                           [&] { id = m_world.createCapsule(body, def, capsule); });
        } else {
            const Segment segment{in.vec2(), in.vec2()};
            made = attempt("World::createSegment",
                           [&] { id = m_world.createSegment(body, def, segment); });
        }
        if (made) m_shapes.push_back(id);
        return;
    }
    case kCreateChain: {
        const BodyId body = pickBody(in);
        const ShapeDef shape = shapeDef(in);
        std::vector<Vec2> points(in.below(10)); // every count rule met and broken
        for (Vec2& p : points) p = in.vec2();
        const ChainDef def{.points = points,
                           .loop = in.flag(),
                           .friction = shape.friction,
                           .restitution = shape.restitution,
                           .filter = shape.filter};
        ChainId id;
        if (m_shapes.size() < kMaxShapes &&
            attempt("World::createChain", [&] { id = m_world.createChain(body, def); }))
            for (const ShapeId link : m_world.chainSegments(id)) m_shapes.push_back(link);
        return;
    }
    case kDestroyShape: {
        const ShapeId shape = pickShape(in);
        (void)attempt("World::destroyShape", [&] { m_world.destroyShape(shape); });
        return;
    }
    case kSetTransform: {
        const BodyId body = pickBody(in);
        const Vec2 position = in.vec2();
        const float angle = in.number();
        (void)attempt("World::setTransform", [&] { m_world.setTransform(body, position, angle); });
        return;
    }
    case kSetLinearVelocity: {
        const BodyId body = pickBody(in);
        const Vec2 v = in.vec2();
        (void)attempt("World::setLinearVelocity", [&] { m_world.setLinearVelocity(body, v); });
        return;
    }
    case kSetAngularVelocity: {
        const BodyId body = pickBody(in);
        const float w = in.number();
        (void)attempt("World::setAngularVelocity", [&] { m_world.setAngularVelocity(body, w); });
        return;
    }
    case kApplyForce:
    case kApplyLinearImpulse: {
        const BodyId body = pickBody(in);
        const Vec2 amount = in.vec2();
        // Usually at the body, sometimes anywhere (a lever arm of 1e30 m).
        Vec2 point = in.vec2();
        if (in.flag() && m_world.isValid(body))
            point = offsetOrAsIs(m_world.worldCenterOfMass(body), point);
        if (op == kApplyForce)
            (void)attempt("World::applyForce", [&] { m_world.applyForce(body, amount, point); });
        else
            (void)attempt("World::applyLinearImpulse",
                          [&] { m_world.applyLinearImpulse(body, amount, point); });
        return;
    }
    case kApplyForceToCenter: {
        const BodyId body = pickBody(in);
        const Vec2 force = in.vec2();
        (void)attempt("World::applyForceToCenter",
                      [&] { m_world.applyForceToCenter(body, force); });
        return;
    }
    case kApplyTorque: {
        const BodyId body = pickBody(in);
        const float torque = in.number();
        (void)attempt("World::applyTorque", [&] { m_world.applyTorque(body, torque); });
        return;
    }
    case kSetAwake:
    case kSetBullet: {
        const BodyId body = pickBody(in);
        const bool on = in.flag();
        if (op == kSetAwake)
            (void)attempt("World::setAwake", [&] { m_world.setAwake(body, on); });
        else
            (void)attempt("World::setBullet", [&] { m_world.setBullet(body, on); });
        return;
    }
    case kSetMaterial: {
        const ShapeId shape = pickShape(in);
        const float value = in.flag() ? in.unit() : in.number();
        if (in.flag())
            (void)attempt("World::setFriction", [&] { m_world.setFriction(shape, value); });
        else
            (void)attempt("World::setRestitution", [&] { m_world.setRestitution(shape, value); });
        return;
    }
    case kSetFilter: {
        const ShapeId shape = pickShape(in);
        Filter filter;
        filter.categoryBits = in.u32();
        filter.maskBits = in.u32();
        filter.groupIndex = static_cast<std::int32_t>(in.u32());
        (void)attempt("World::setFilter", [&] { m_world.setFilter(shape, filter); });
        return;
    }
    case kSetBroadPhase: {
        // Every kind, auto included, and a few values past the last one.
        const auto type = static_cast<BroadPhaseType>(in.below(std::size(kAllBroadPhaseTypes) + 2));
        const BroadPhaseConfig config = in.flag() ? broadPhaseConfig(in) : smallGridConfig();
        (void)attempt("World::setBroadPhase", [&] { m_world.setBroadPhase(type, config); });
        return;
    }
    case kSetGravity: {
        const Vec2 gravity = in.vec2();
        (void)attempt("World::setGravity", [&] { m_world.setGravity(gravity); });
        return;
    }
    case kCreateJoint: createJoint(in); return;
    case kChangeJoint: changeJoint(in); return;
    case kStep: step(in); return;
    case kQueryAABB:
    case kCastRay:
    case kCastRayClosest: query(in, op); return;
    case kForEach: {
        // Visits must refuse changes too (forEachBody and forEachShape hold the world's lock).
        const std::uint8_t reentry = in.byte();
        const BodyId body = pickBody(in);
        (void)attempt("World::forEachBody",
                      [&] { m_world.forEachBody([&](BodyId) { reenter(reentry); }); });
        (void)attempt("World::forEachShape",
                      [&] { m_world.forEachShape(body, [&](ShapeId) { reenter(reentry + 1u); }); });
        NullDraw draw;
        const std::uint8_t drawFlags = in.byte();
        draw.drawAABBs = (drawFlags & 1u) != 0;
        draw.drawContacts = (drawFlags & 2u) != 0;
        draw.drawBroadPhase = (drawFlags & 4u) != 0;
        (void)attempt("World::debugDraw", [&] { m_world.debugDraw(draw); });
        return;
    }
    default: {
        // Every getter on any id, live, stale or forged: an answer or an Error, nothing else.
        const BodyId body = pickBody(in);
        const ShapeId shape = pickShape(in);
        (void)attempt("World body getters", [&] {
            (void)m_world.bodyType(body);
            (void)m_world.position(body);
            (void)m_world.angle(body);
            (void)m_world.linearVelocity(body);
            (void)m_world.angularVelocity(body);
            (void)m_world.mass(body);
            (void)m_world.inertia(body);
            (void)m_world.worldCenterOfMass(body);
            (void)m_world.isAwake(body);
            (void)m_world.isBullet(body);
        });
        (void)attempt("World shape getters", [&] {
            (void)m_world.shapeBody(shape);
            (void)m_world.shapeAABB(shape);
            (void)m_world.isSensor(shape);
            (void)m_world.filter(shape);
            if (m_world.shapeType(shape) == ShapeType::Circle)
                (void)m_world.shapeCircle(shape);
            else
                (void)m_world.shapeBox(shape);
        });
        const std::uint64_t data = in.u32();
        (void)attempt("World::setUserData", [&] { m_world.setUserData(body, data); });
        return;
    }
    }
}

void WorldOps::run(FuzzInput& in, std::size_t maxOps) {
    for (std::size_t i = 0; i < maxOps && !in.empty(); ++i) {
        const unsigned op = in.byte() % kOpCount;
        runOne(in, op);
        m_trace.push_back((std::uint64_t{op} << 56) ^ testing::stateHash(m_world) ^
                          (m_world.bodyCount() << 40) ^ m_world.broadPhase().size());
    }
}

} // namespace rigid2d::fuzz
