// The public World: argument checks (DESIGN.md "Bad input": refuse before changing anything),
// then the work in WorldState.
#include "rigid2d/world.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/check.hpp"
#include "world/world_state.hpp"

namespace rigid2d {

using detail::Body;
using detail::kNullIndex;
using detail::require;
using detail::requireFinite;
using detail::Shape;

namespace {

void checkGravity(std::string_view fn, std::string_view field, Vec2 gravity) {
    // Finite first: an ordered comparison with a NaN would raise FE_INVALID.
    require(isFinite(gravity) && std::fabs(gravity.x) <= kMaxGravity &&
                std::fabs(gravity.y) <= kMaxGravity,
            fn, field, "must be finite with components within kMaxGravity = 1e6 m/s^2", gravity);
}

} // namespace

void detail::checkWorldDef(const WorldDef& def, std::string_view fn) {
    checkGravity(fn, "def.gravity", def.gravity);
    require(def.substeps >= 1, fn, "def.substeps", "must be >= 1",
            static_cast<float>(def.substeps));
    auto positive = [&](float value, std::string_view field) {
        require(isFinite(value) && value > 0.0f, fn, field, "must be finite and > 0", value);
    };
    auto nonNegative = [&](float value, std::string_view field) {
        require(isFinite(value) && value >= 0.0f, fn, field, "must be finite and >= 0", value);
    };
    positive(def.contactHertz, "def.contactHertz");
    nonNegative(def.contactDampingRatio, "def.contactDampingRatio");
    positive(def.maxContactPushSpeed, "def.maxContactPushSpeed");
    require(isFinite(def.maxContactMassRatio) &&
                (def.maxContactMassRatio == 0.0f || def.maxContactMassRatio >= 1.0f),
            fn, "def.maxContactMassRatio", "must be 0 (off) or finite and >= 1",
            def.maxContactMassRatio);
    nonNegative(def.restitutionThreshold, "def.restitutionThreshold");
    nonNegative(def.hitEventThreshold, "def.hitEventThreshold");
    nonNegative(def.aabbMargin, "def.aabbMargin");
    nonNegative(def.speculativeDistance, "def.speculativeDistance");
    nonNegative(def.linearSlop, "def.linearSlop");
    positive(def.maxTranslation, "def.maxTranslation");
    positive(def.maxRotation, "def.maxRotation");
    nonNegative(def.timeToSleep, "def.timeToSleep");
    nonNegative(def.linearSleepTolerance, "def.linearSleepTolerance");
    nonNegative(def.angularSleepTolerance, "def.angularSleepTolerance");
}

namespace {

void checkBodyDef(const BodyDef& def) {
    constexpr std::string_view fn = "World::createBody";
    require(def.type == BodyType::Static || def.type == BodyType::Kinematic ||
                def.type == BodyType::Dynamic,
            fn, "def.type", "must be Static, Kinematic or Dynamic");
    requireFinite(fn, "def.position", def.position);
    requireFinite(fn, "def.angle", def.angle);
    requireFinite(fn, "def.linearVelocity", def.linearVelocity);
    requireFinite(fn, "def.angularVelocity", def.angularVelocity);
    require(isFinite(def.linearDamping) && def.linearDamping >= 0.0f, fn, "def.linearDamping",
            "must be finite and >= 0", def.linearDamping);
    require(isFinite(def.angularDamping) && def.angularDamping >= 0.0f, fn, "def.angularDamping",
            "must be finite and >= 0", def.angularDamping);
    require(isFinite(def.gravityScale) && std::fabs(def.gravityScale) <= kMaxGravityScale, fn,
            "def.gravityScale", "must be finite and within kMaxGravityScale = 1e6",
            def.gravityScale);
}

void checkFriction(std::string_view fn, std::string_view field, float friction) {
    require(isFinite(friction) && friction >= 0.0f, fn, field, "must be finite and >= 0", friction);
}
void checkRestitution(std::string_view fn, std::string_view field, float restitution) {
    require(isFinite(restitution) && restitution >= 0.0f && restitution <= 1.0f, fn, field,
            "must be in [0, 1]", restitution);
}

void checkShapeDef(std::string_view fn, const ShapeDef& def) {
    require(isFinite(def.density) && def.density >= 0.0f, fn, "def.density",
            "must be finite and >= 0", def.density);
    checkFriction(fn, "def.friction", def.friction);
    checkRestitution(fn, "def.restitution", def.restitution);
}

} // namespace

World::World(const WorldDef& def) {
    detail::checkWorldDef(def, "World::World");
    m_state = std::make_unique<detail::WorldState>(def);
}
World::~World() = default;
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;

// --- bodies

BodyId World::createBody(const BodyDef& def) {
    auto& s = *m_state;
    s.requireUnlocked("World::createBody");
    checkBodyDef(def);
    std::uint32_t index;
    if (!s.freeBodies.empty()) {
        index = s.freeBodies.back();
        s.freeBodies.pop_back();
    } else {
        index = static_cast<std::uint32_t>(s.bodies.size());
        s.bodies.emplace_back();
    }
    Body& body = s.bodies[index];
    // A freed slot already carries its bumped generation (destroyBody); a new slot gets its first.
    const std::uint32_t generation = body.generation != 0 ? body.generation : s.nextGeneration(0);
    body = Body{};
    body.generation = generation;
    body.live = true;
    body.type = def.type;
    body.position = def.position;
    body.angle = def.angle;
    body.rot = detail::makeRot(def.angle);
    body.center = def.position;
    body.linearVelocity =
        def.type == BodyType::Static ? Vec2{} : detail::boundVelocity(def.linearVelocity);
    body.angularVelocity =
        def.type == BodyType::Static ? 0.0f : detail::boundVelocity(def.angularVelocity);
    body.linearDamping = def.linearDamping;
    body.angularDamping = def.angularDamping;
    body.gravityScale = def.gravityScale;
    body.fixedRotation = def.fixedRotation;
    body.bullet = def.bullet;
    body.enableSleep = def.enableSleep;
    body.userData = def.userData;
    s.updateMass(body);
    if (def.type != BodyType::Static && (def.isAwake || !s.def.enableSleep)) s.addAwake(index);
    ++s.bodyCount;
    return s.bodyId(index);
}

void World::destroyBody(BodyId id) {
    auto& s = *m_state;
    s.requireUnlocked("World::destroyBody");
    Body& body = s.checkedBody(id, "World::destroyBody");
    while (body.firstShape != kNullIndex) s.destroyShapeSlot(body.firstShape);
    if (body.awakeIndex != kNullIndex) s.removeAwake(id.index);
    const std::uint32_t generation = s.nextGeneration(body.generation);
    body = Body{};
    body.generation = generation;
    if (generation != 0) s.freeBodies.push_back(id.index);
    --s.bodyCount;
}

bool World::isValid(BodyId id) const noexcept { return m_state->isLive(id); }
std::size_t World::bodyCount() const noexcept { return m_state->bodyCount; }

void World::forEachBody(FunctionRef<void(BodyId)> visit) const {
    auto& s = *m_state;
    ++s.lockDepth;
    try {
        for (std::uint32_t i = 0; i < s.bodies.size(); ++i)
            if (s.bodies[i].live) visit(s.bodyId(i));
    } catch (...) {
        --s.lockDepth;
        throw;
    }
    --s.lockDepth;
}

BodyType World::bodyType(BodyId id) const {
    return m_state->checkedBody(id, "World::bodyType").type;
}
Vec2 World::position(BodyId id) const {
    return m_state->checkedBody(id, "World::position").position;
}
float World::angle(BodyId id) const { return m_state->checkedBody(id, "World::angle").angle; }
Vec2 World::linearVelocity(BodyId id) const {
    return m_state->checkedBody(id, "World::linearVelocity").linearVelocity;
}
float World::angularVelocity(BodyId id) const {
    return m_state->checkedBody(id, "World::angularVelocity").angularVelocity;
}
float World::mass(BodyId id) const {
    const Body& b = m_state->checkedBody(id, "World::mass");
    return b.type == BodyType::Dynamic ? b.mass : 0.0f;
}
float World::inertia(BodyId id) const { return m_state->checkedBody(id, "World::inertia").inertia; }
Vec2 World::worldCenterOfMass(BodyId id) const {
    return m_state->checkedBody(id, "World::worldCenterOfMass").center;
}
bool World::isAwake(BodyId id) const { return m_state->checkedBody(id, "World::isAwake").awake; }
bool World::isBullet(BodyId id) const { return m_state->checkedBody(id, "World::isBullet").bullet; }
std::uint64_t World::userData(BodyId id) const {
    return m_state->checkedBody(id, "World::userData").userData;
}

void World::setTransform(BodyId id, Vec2 position, float angle) {
    constexpr std::string_view fn = "World::setTransform";
    auto& s = *m_state;
    s.requireUnlocked(fn);
    Body& body = s.checkedBody(id, fn);
    requireFinite(fn, "position", position);
    requireFinite(fn, "angle", angle);
    // Every shape must fit the float range at the new place before anything moves (the shape
    // limits make this hold for every finite position; checked so it stays true).
    for (std::uint32_t i = body.firstShape; i != kNullIndex; i = s.shapes[i].nextInBody)
        require(s.boundsFit(s.shapes[i], position), fn, "position",
                "would put a shape's bounds beyond the float range", position);
    s.placeBody(id.index, position, angle);
    s.wake(id.index);
}

// Any finite velocity is accepted (components clamped to kVelocityBound); the step clamps speeds
// to maxTranslation / dt and maxRotation / dt before it moves anything.
void World::setLinearVelocity(BodyId id, Vec2 velocity) {
    constexpr std::string_view fn = "World::setLinearVelocity";
    auto& s = *m_state;
    s.requireUnlocked(fn);
    Body& body = s.checkedBody(id, fn);
    requireFinite(fn, "velocity", velocity);
    if (body.type == BodyType::Static) return;
    body.linearVelocity = detail::boundVelocity(velocity);
    s.wake(id.index);
}

void World::setAngularVelocity(BodyId id, float velocity) {
    constexpr std::string_view fn = "World::setAngularVelocity";
    auto& s = *m_state;
    s.requireUnlocked(fn);
    Body& body = s.checkedBody(id, fn);
    requireFinite(fn, "velocity", velocity);
    if (body.type == BodyType::Static) return;
    // A body that cannot rotate ignores it, like Box2D's fixed rotation.
    if (body.type == BodyType::Dynamic && body.invInertia == 0.0f) return;
    body.angularVelocity = detail::boundVelocity(velocity);
    s.wake(id.index);
}

namespace {
// Forces, torques and impulses are summed in double and refused when the float sum would not be
// finite, so what the body accumulates stays finite whatever the calls.
float finiteSum(std::string_view fn, std::string_view field, float base, double add) {
    constexpr double kMax = std::numeric_limits<float>::max();
    const double sum = static_cast<double>(base) + add;
    // Converted clamped whichever way the check goes: no conversion may overflow (FP traps).
    const auto clamped = static_cast<float>(std::clamp(sum, -kMax, kMax));
    require(std::fabs(sum) <= kMax, fn, field,
            "would make the body's accumulated value overflow a float (the sum is shown clamped)",
            clamped);
    return clamped;
}

double crossAbout(Vec2 point, Vec2 center, Vec2 v) {
    const double rx = double{point.x} - double{center.x};
    const double ry = double{point.y} - double{center.y};
    return rx * double{v.y} - ry * double{v.x};
}
} // namespace

void World::applyForce(BodyId id, Vec2 force, Vec2 worldPoint) {
    constexpr std::string_view fn = "World::applyForce";
    auto& s = *m_state;
    s.requireUnlocked(fn);
    Body& body = s.checkedBody(id, fn);
    requireFinite(fn, "force", force);
    requireFinite(fn, "worldPoint", worldPoint);
    if (body.type != BodyType::Dynamic) return;
    const float fx = finiteSum(fn, "force", body.force.x, force.x);
    const float fy = finiteSum(fn, "force", body.force.y, force.y);
    const float torque =
        finiteSum(fn, "force", body.torque, crossAbout(worldPoint, body.center, force));
    body.force = {fx, fy};
    body.torque = torque;
    s.wake(id.index);
}

void World::applyForceToCenter(BodyId id, Vec2 force) {
    constexpr std::string_view fn = "World::applyForceToCenter";
    auto& s = *m_state;
    s.requireUnlocked(fn);
    Body& body = s.checkedBody(id, fn);
    requireFinite(fn, "force", force);
    if (body.type != BodyType::Dynamic) return;
    const float fx = finiteSum(fn, "force", body.force.x, force.x);
    const float fy = finiteSum(fn, "force", body.force.y, force.y);
    body.force = {fx, fy};
    s.wake(id.index);
}

void World::applyTorque(BodyId id, float torque) {
    constexpr std::string_view fn = "World::applyTorque";
    auto& s = *m_state;
    s.requireUnlocked(fn);
    Body& body = s.checkedBody(id, fn);
    requireFinite(fn, "torque", torque);
    if (body.type != BodyType::Dynamic) return;
    body.torque = finiteSum(fn, "torque", body.torque, torque);
    s.wake(id.index);
}

void World::applyLinearImpulse(BodyId id, Vec2 impulse, Vec2 worldPoint) {
    constexpr std::string_view fn = "World::applyLinearImpulse";
    auto& s = *m_state;
    s.requireUnlocked(fn);
    Body& body = s.checkedBody(id, fn);
    requireFinite(fn, "impulse", impulse);
    requireFinite(fn, "worldPoint", worldPoint);
    if (body.type != BodyType::Dynamic) return;
    const double invMass = body.invMass;
    const float vx = finiteSum(fn, "impulse", body.linearVelocity.x, invMass * double{impulse.x});
    const float vy = finiteSum(fn, "impulse", body.linearVelocity.y, invMass * double{impulse.y});
    const float w =
        finiteSum(fn, "impulse", body.angularVelocity,
                  double{body.invInertia} * crossAbout(worldPoint, body.center, impulse));
    body.linearVelocity = detail::boundVelocity(Vec2{vx, vy});
    body.angularVelocity = detail::boundVelocity(w);
    s.wake(id.index);
}

void World::setAwake(BodyId id, bool awake) {
    constexpr std::string_view fn = "World::setAwake";
    auto& s = *m_state;
    s.requireUnlocked(fn);
    s.checkedBody(id, fn);
    if (awake)
        s.wake(id.index);
    else
        s.sleepIsland(id.index);
}

void World::setBullet(BodyId id, bool bullet) {
    constexpr std::string_view fn = "World::setBullet";
    auto& s = *m_state;
    s.requireUnlocked(fn);
    s.checkedBody(id, fn).bullet = bullet;
}

void World::setUserData(BodyId id, std::uint64_t userData) {
    constexpr std::string_view fn = "World::setUserData";
    auto& s = *m_state;
    s.requireUnlocked(fn);
    s.checkedBody(id, fn).userData = userData;
}

// --- shapes

namespace {
// Everything that can refuse runs before anything is linked: the checks, then the proxy insert
// (the one call into the broad phase that may throw). Only then is the shape attached.
ShapeId attachShape(detail::WorldState& s, std::string_view fn, std::string_view field,
                    BodyId bodyId, const ShapeDef& def, Shape proto) {
    proto.isSensor = def.isSensor;
    proto.enableSensorEvents = def.enableSensorEvents;
    proto.enableContactEvents = def.enableContactEvents;
    proto.enableHitEvents = def.enableHitEvents;
    proto.body = bodyId.index;
    proto.density = def.density;
    proto.friction = def.friction;
    proto.restitution = def.restitution;
    proto.filter = def.filter;
    proto.userData = def.userData;
    s.checkShape(fn, field, s.bodies[bodyId.index], proto);

    const bool reuse = !s.freeShapes.empty();
    const std::uint32_t index =
        reuse ? s.freeShapes.back() : static_cast<std::uint32_t>(s.shapes.size());
    proto.fatBox = fatten(detail::boundsOf(detail::placeShape(proto, s.bodies[bodyId.index])),
                          s.def.aabbMargin);
    proto.proxy = s.broadPhase->insert(proto.fatBox, index);
    try {
        const std::uint32_t proxy = toIndex(proto.proxy);
        if (proxy >= s.proxyShape.size()) s.proxyShape.resize(std::size_t{proxy} + 1, kNullIndex);
        if (!reuse) s.shapes.emplace_back();
        s.movedShapes.reserve(s.movedShapes.size() + 1);
    } catch (...) {
        s.broadPhase->remove(proto.proxy);
        throw;
    }
    if (reuse) s.freeShapes.pop_back();
    Shape& shape = s.shapes[index];
    proto.generation = shape.generation != 0 ? shape.generation : s.nextGeneration(0);
    proto.live = true;
    Body& body = s.bodies[bodyId.index];
    proto.nextInBody = body.firstShape;
    shape = proto;
    s.proxyShape[toIndex(shape.proxy)] = index;
    body.firstShape = index;
    ++body.shapeCount;
    ++s.shapeCount;
    s.updateMass(body);
    s.markMoved(index);
    s.wake(bodyId.index);
    return s.shapeId(index);
}
} // namespace

ShapeId World::createCircle(BodyId body, const ShapeDef& def, const Circle& circle) {
    constexpr std::string_view fn = "World::createCircle";
    auto& s = *m_state;
    s.requireUnlocked(fn);
    s.checkedBody(body, fn);
    checkShapeDef(fn, def);
    requireFinite(fn, "circle.center", circle.center);
    require(isFinite(circle.radius) && circle.radius > 0.0f, fn, "circle.radius",
            "must be finite and > 0", circle.radius);
    Shape proto;
    proto.type = ShapeType::Circle;
    proto.center = circle.center;
    proto.radius = circle.radius;
    return attachShape(s, fn, "circle", body, def, proto);
}

ShapeId World::createBox(BodyId body, const ShapeDef& def, const Box& box) {
    constexpr std::string_view fn = "World::createBox";
    auto& s = *m_state;
    s.requireUnlocked(fn);
    s.checkedBody(body, fn);
    checkShapeDef(fn, def);
    requireFinite(fn, "box.center", box.center);
    require(isFinite(box.halfExtents) && box.halfExtents.x > 0.0f && box.halfExtents.y > 0.0f, fn,
            "box.halfExtents", "must be finite and > 0", box.halfExtents);
    Shape proto;
    proto.type = ShapeType::Box;
    proto.center = box.center;
    proto.halfExtents = box.halfExtents;
    return attachShape(s, fn, "box", body, def, proto);
}

void World::destroyShape(ShapeId id) {
    constexpr std::string_view fn = "World::destroyShape";
    auto& s = *m_state;
    s.requireUnlocked(fn);
    const std::uint32_t bodyIndex = s.checkedShape(id, fn).body;
    s.destroyShapeSlot(id.index);
    s.updateMass(s.bodies[bodyIndex]);
    s.wake(bodyIndex);
}

bool World::isValid(ShapeId id) const noexcept { return m_state->isLive(id); }
BodyId World::shapeBody(ShapeId id) const {
    return m_state->bodyId(m_state->checkedShape(id, "World::shapeBody").body);
}
ShapeType World::shapeType(ShapeId id) const {
    return m_state->checkedShape(id, "World::shapeType").type;
}
Circle World::shapeCircle(ShapeId id) const {
    const Shape& shape = m_state->checkedShape(id, "World::shapeCircle");
    require(shape.type == ShapeType::Circle, "World::shapeCircle", "shape", "must be a circle");
    return {shape.center, shape.radius};
}
Box World::shapeBox(ShapeId id) const {
    const Shape& shape = m_state->checkedShape(id, "World::shapeBox");
    require(shape.type == ShapeType::Box, "World::shapeBox", "shape", "must be a box");
    return {shape.center, shape.halfExtents};
}
AABB World::shapeAABB(ShapeId id) const {
    m_state->checkedShape(id, "World::shapeAABB");
    return detail::boundsOf(m_state->placed(id.index));
}
bool World::isSensor(ShapeId id) const {
    return m_state->checkedShape(id, "World::isSensor").isSensor;
}
float World::friction(ShapeId id) const {
    return m_state->checkedShape(id, "World::friction").friction;
}
float World::restitution(ShapeId id) const {
    return m_state->checkedShape(id, "World::restitution").restitution;
}
Filter World::filter(ShapeId id) const { return m_state->checkedShape(id, "World::filter").filter; }
std::uint64_t World::userData(ShapeId id) const {
    return m_state->checkedShape(id, "World::userData").userData;
}

// Mixed values of existing contacts are updated so the change applies at once.
void World::setFriction(ShapeId id, float friction) {
    constexpr std::string_view fn = "World::setFriction";
    auto& s = *m_state;
    s.requireUnlocked(fn);
    Shape& shape = s.checkedShape(id, fn);
    checkFriction(fn, "friction", friction);
    shape.friction = friction;
    for (std::uint32_t c = s.bodies[shape.body].firstContact; c != kNullIndex;) {
        detail::Contact& contact = s.contacts[c];
        if (contact.shapeA == id.index || contact.shapeB == id.index)
            contact.friction =
                std::sqrt(s.shapes[contact.shapeA].friction * s.shapes[contact.shapeB].friction);
        c = contact.edges[contact.edges[0].body == shape.body ? 0 : 1].next;
    }
}

void World::setRestitution(ShapeId id, float restitution) {
    constexpr std::string_view fn = "World::setRestitution";
    auto& s = *m_state;
    s.requireUnlocked(fn);
    Shape& shape = s.checkedShape(id, fn);
    checkRestitution(fn, "restitution", restitution);
    shape.restitution = restitution;
    for (std::uint32_t c = s.bodies[shape.body].firstContact; c != kNullIndex;) {
        detail::Contact& contact = s.contacts[c];
        if (contact.shapeA == id.index || contact.shapeB == id.index)
            contact.restitution = std::max(s.shapes[contact.shapeA].restitution,
                                           s.shapes[contact.shapeB].restitution);
        c = contact.edges[contact.edges[0].body == shape.body ? 0 : 1].next;
    }
}

// A new filter may forbid existing contacts (destroyed now) or allow new ones (found at the
// next step: the proxy is marked moved).
void World::setFilter(ShapeId id, const Filter& filter) {
    constexpr std::string_view fn = "World::setFilter";
    auto& s = *m_state;
    s.requireUnlocked(fn);
    Shape& shape = s.checkedShape(id, fn);
    shape.filter = filter;
    const std::uint32_t bodyIndex = shape.body;
    for (std::uint32_t c = s.bodies[bodyIndex].firstContact; c != kNullIndex;) {
        const detail::Contact& contact = s.contacts[c];
        const std::uint32_t next = contact.edges[contact.edges[0].body == bodyIndex ? 0 : 1].next;
        if ((contact.shapeA == id.index || contact.shapeB == id.index) &&
            !s.shouldCollide(contact.shapeA, contact.shapeB)) {
            if (contact.touching && !contact.sensor) {
                s.wake(contact.edges[0].body);
                s.wake(contact.edges[1].body);
            }
            s.destroyContact(c, true);
        }
        c = next;
    }
    s.markMoved(id.index);
    s.wake(bodyIndex);
}

void World::forEachShape(BodyId id, FunctionRef<void(ShapeId)> visit) const {
    auto& s = *m_state;
    const Body& body = s.checkedBody(id, "World::forEachShape");
    ++s.lockDepth;
    try {
        for (std::uint32_t i = body.firstShape; i != kNullIndex; i = s.shapes[i].nextInBody)
            visit(s.shapeId(i));
    } catch (...) {
        --s.lockDepth;
        throw;
    }
    --s.lockDepth;
}

// --- simulation

void World::step(float dt) {
    auto& s = *m_state;
    s.requireUnlocked("World::step");
    require(isFinite(dt) && dt >= kMinTimeStep && dt <= kMaxTimeStep, "World::step", "dt",
            "must be in [kMinTimeStep, kMaxTimeStep] = [1e-6, 1] s", dt);
    s.step(dt);
}

Vec2 World::gravity() const noexcept { return m_state->def.gravity; }

void World::setGravity(Vec2 gravity) {
    auto& s = *m_state;
    s.requireUnlocked("World::setGravity");
    checkGravity("World::setGravity", "gravity", gravity);
    s.def.gravity = gravity;
}

const WorldDef& World::def() const noexcept { return m_state->def; }

ContactEvents World::contactEvents() const noexcept {
    const auto& s = *m_state;
    return {s.beginEvents, s.endEvents, s.hitEvents};
}
SensorEvents World::sensorEvents() const noexcept {
    const auto& s = *m_state;
    return {s.sensorBeginEvents, s.sensorEndEvents};
}

const StepStats& World::stats() const noexcept { return m_state->stats; }

} // namespace rigid2d
