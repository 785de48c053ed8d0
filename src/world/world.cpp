// The public World: argument checks (DESIGN.md "Bad input": refuse before changing anything),
// then the work in WorldState.
#include "rigid2d/world.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/check.hpp"
#include "state/world_state.hpp"
#include "step/stages.hpp"

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
    require(isFinite(def.contactHertz) && def.contactHertz > 0.0f && def.contactHertz <= kMaxHertz,
            fn, "def.contactHertz", "must be in (0, kMaxHertz = 1e6]", def.contactHertz);
    require(isFinite(def.contactDampingRatio) && def.contactDampingRatio >= 0.0f &&
                def.contactDampingRatio <= kMaxHertz,
            fn, "def.contactDampingRatio", "must be in [0, 1e6]", def.contactDampingRatio);
    require(isFinite(def.jointHertz) && def.jointHertz > 0.0f && def.jointHertz <= kMaxHertz, fn,
            "def.jointHertz", "must be in (0, kMaxHertz = 1e6]", def.jointHertz);
    require(isFinite(def.jointDampingRatio) && def.jointDampingRatio >= 0.0f &&
                def.jointDampingRatio <= kMaxHertz,
            fn, "def.jointDampingRatio", "must be in [0, 1e6]", def.jointDampingRatio);
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
    require(def.workerCount >= 1 && def.workerCount <= kMaxWorkers, fn, "def.workerCount",
            "must be in [1, kMaxWorkers = 64]", static_cast<float>(def.workerCount));
    require((def.enqueueTask == nullptr) == (def.finishTask == nullptr), fn,
            def.enqueueTask == nullptr ? "def.enqueueTask" : "def.finishTask",
            "must be set when the other task callback is (both or neither)");
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
    const std::uint32_t index = s.bodyPool.take(s.bodies);
    Body& body = s.bodies[index];
    const std::uint32_t generation = detail::SlotPool::generationFor(body.generation);
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
    while (body.firstJoint != kNullIndex) s.destroyJointSlot(body.firstJoint);
    while (body.firstShape != kNullIndex) {
        const std::uint32_t chain = s.shapes[body.firstShape].chain;
        if (chain != kNullIndex)
            s.destroyChainSlot(chain);
        else
            s.destroyShapeSlot(body.firstShape);
    }
    if (body.awakeIndex != kNullIndex) s.removeAwake(id.index);
    s.bodyPool.release(s.bodies, id.index);
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

// --- simulation

void World::step(float dt) {
    auto& s = *m_state;
    s.requireUnlocked("World::step");
    require(isFinite(dt) && dt >= kMinTimeStep && dt <= kMaxTimeStep, "World::step", "dt",
            "must be in [kMinTimeStep, kMaxTimeStep] = [1e-6, 1] s", dt);
    detail::step(s, dt);
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
