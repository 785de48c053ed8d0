// World's shape functions: argument checks, then the shape built and attached (WorldState).
#include <cmath>

#include "rigid2d/geometry.hpp"

#include "core/check.hpp"
#include "rigid2d/world.hpp"
#include "state/world_state.hpp"

namespace rigid2d {

using detail::Body;
using detail::kNullIndex;
using detail::require;
using detail::requireFinite;
using detail::Shape;

namespace {

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
    proto.fatBox = fatten(detail::shapeBounds(proto, s.bodies[bodyId.index]), s.def.aabbMargin);
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
    const Body& owner = s.checkedBody(body, fn);
    checkShapeDef(fn, def);
    requireFinite(fn, "box.center", box.center);
    require(isFinite(box.halfExtents) && box.halfExtents.x > 0.0f && box.halfExtents.y > 0.0f, fn,
            "box.halfExtents", "must be finite and > 0", box.halfExtents);
    requireFinite(fn, "box.angle", box.angle);
    Shape proto;
    const bool turns = box.angle != 0.0f || owner.angle != 0.0f ||
                       (owner.type != BodyType::Static && !owner.fixedRotation);
    if (!turns) {
        proto.type = ShapeType::Box;
        proto.center = box.center;
        proto.halfExtents = box.halfExtents;
        return attachShape(s, fn, "box", body, def, proto);
    }
    require(4.0 * double{box.halfExtents.x} * double{box.halfExtents.y} >= double{kMinPolygonArea},
            fn, "box.halfExtents",
            "must give a box that turns an area of at least kMinPolygonArea (1e-6 m^2)",
            box.halfExtents);
    proto.type = ShapeType::Polygon;
    proto.polygon = detail::makeBoxPolygon(box.halfExtents, box.center, detail::makeRot(box.angle));
    proto.center = box.center;
    return attachShape(s, fn, "box", body, def, proto);
}

ShapeId World::createPolygon(BodyId body, const ShapeDef& def, const Polygon& polygon) {
    constexpr std::string_view fn = "World::createPolygon";
    auto& s = *m_state;
    s.requireUnlocked(fn);
    s.checkedBody(body, fn);
    checkShapeDef(fn, def);
    require(polygon.count >= 3 && polygon.count <= kMaxPolygonVertices, fn, "polygon.count",
            "must be in [3, kMaxPolygonVertices = 8] (build the polygon with makePolygon)",
            static_cast<float>(polygon.count));
    for (int i = 0; i < polygon.count; ++i)
        requireFinite(fn, "polygon.vertices", polygon.vertices[i]);
    require(isFinite(polygon.radius) && polygon.radius >= 0.0f, fn, "polygon.radius",
            "must be finite and >= 0", polygon.radius);
    // Built again from its vertices, so a hand-filled Polygon gets the same checks and the same
    // normals as makePolygon's (a non-convex or clockwise one is refused, not trusted).
    Shape proto;
    proto.type = ShapeType::Polygon;
    try {
        proto.polygon = makePolygon({polygon.vertices, static_cast<std::size_t>(polygon.count)},
                                    polygon.radius);
    } catch (const Error& e) {
        detail::refuse(fn, "polygon", e.what());
    }
    require(proto.polygon.count == polygon.count, fn, "polygon.vertices",
            "must be convex, with no vertex inside the others' hull");
    proto.center = proto.polygon.centroid;
    return attachShape(s, fn, "polygon", body, def, proto);
}

ShapeId World::createCapsule(BodyId body, const ShapeDef& def, const Capsule& capsule) {
    constexpr std::string_view fn = "World::createCapsule";
    auto& s = *m_state;
    s.requireUnlocked(fn);
    s.checkedBody(body, fn);
    checkShapeDef(fn, def);
    requireFinite(fn, "capsule.center1", capsule.center1);
    requireFinite(fn, "capsule.center2", capsule.center2);
    require(isFinite(capsule.radius) && capsule.radius >= kMinShapeSize &&
                capsule.radius <= kMaxShapeSize,
            fn, "capsule.radius", "must be in [kMinShapeSize, kMaxShapeSize] = [1e-6, 1e8] m",
            capsule.radius);
    const double dx = double{capsule.center2.x} - double{capsule.center1.x};
    const double dy = double{capsule.center2.y} - double{capsule.center1.y};
    require(std::hypot(dx, dy) >= double{kPolygonWeldDistance}, fn, "capsule.center2",
            "must be at least kPolygonWeldDistance (1e-4 m) from center1 (else use a circle)",
            capsule.center2);
    Shape proto;
    proto.type = ShapeType::Capsule;
    proto.polygon = detail::makeCapsulePolygon(capsule);
    proto.center = 0.5f * (capsule.center1 + capsule.center2);
    return attachShape(s, fn, "capsule", body, def, proto);
}

ShapeId World::createSegment(BodyId body, const ShapeDef& def, const Segment& segment) {
    constexpr std::string_view fn = "World::createSegment";
    auto& s = *m_state;
    s.requireUnlocked(fn);
    const Body& owner = s.checkedBody(body, fn);
    checkShapeDef(fn, def);
    require(owner.type != BodyType::Dynamic, fn, "body",
            "must be static or kinematic: a segment has no area, so no mass");
    requireFinite(fn, "segment.point1", segment.point1);
    requireFinite(fn, "segment.point2", segment.point2);
    const double dx = double{segment.point2.x} - double{segment.point1.x};
    const double dy = double{segment.point2.y} - double{segment.point1.y};
    require(std::hypot(dx, dy) >= double{kPolygonWeldDistance}, fn, "segment.point2",
            "must be at least kPolygonWeldDistance (1e-4 m) from point1", segment.point2);
    Shape proto;
    proto.type = ShapeType::Segment;
    proto.polygon = detail::makeSegmentPolygon(segment);
    proto.center = 0.5f * (segment.point1 + segment.point2);
    return attachShape(s, fn, "segment", body, def, proto);
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
    require(shape.type == ShapeType::Box, "World::shapeBox", "shape",
            "must be an axis-aligned box (a box that turns is a polygon: shapePolygon)");
    return {shape.center, shape.halfExtents};
}
Polygon World::shapePolygon(ShapeId id) const {
    const Shape& shape = m_state->checkedShape(id, "World::shapePolygon");
    require(shape.type == ShapeType::Polygon, "World::shapePolygon", "shape", "must be a polygon");
    return shape.polygon;
}
Capsule World::shapeCapsule(ShapeId id) const {
    const Shape& shape = m_state->checkedShape(id, "World::shapeCapsule");
    require(shape.type == ShapeType::Capsule, "World::shapeCapsule", "shape", "must be a capsule");
    return {shape.polygon.vertices[0], shape.polygon.vertices[1], shape.polygon.radius};
}
Segment World::shapeSegment(ShapeId id) const {
    const Shape& shape = m_state->checkedShape(id, "World::shapeSegment");
    require(shape.type == ShapeType::Segment, "World::shapeSegment", "shape", "must be a segment");
    return {shape.polygon.vertices[0], shape.polygon.vertices[1]};
}
AABB World::shapeAABB(ShapeId id) const {
    const Shape& shape = m_state->checkedShape(id, "World::shapeAABB");
    return detail::shapeBounds(shape, m_state->bodies[shape.body]);
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
    s.forEachContactOf(shape.body, [&](std::uint32_t c, std::uint32_t) {
        detail::Contact& contact = s.contacts[c];
        if (contact.shapeA == id.index || contact.shapeB == id.index)
            contact.friction =
                std::sqrt(s.shapes[contact.shapeA].friction * s.shapes[contact.shapeB].friction);
    });
}

void World::setRestitution(ShapeId id, float restitution) {
    constexpr std::string_view fn = "World::setRestitution";
    auto& s = *m_state;
    s.requireUnlocked(fn);
    Shape& shape = s.checkedShape(id, fn);
    checkRestitution(fn, "restitution", restitution);
    shape.restitution = restitution;
    s.forEachContactOf(shape.body, [&](std::uint32_t c, std::uint32_t) {
        detail::Contact& contact = s.contacts[c];
        if (contact.shapeA == id.index || contact.shapeB == id.index)
            contact.restitution = std::max(s.shapes[contact.shapeA].restitution,
                                           s.shapes[contact.shapeB].restitution);
    });
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
    s.forEachContactOf(bodyIndex, [&](std::uint32_t c, std::uint32_t) {
        const detail::Contact& contact = s.contacts[c];
        if ((contact.shapeA != id.index && contact.shapeB != id.index) ||
            s.shouldCollide(contact.shapeA, contact.shapeB))
            return;
        if (contact.touching && !contact.sensor) {
            s.wake(contact.edges[0].body);
            s.wake(contact.edges[1].body);
        }
        s.destroyContact(c, true);
    });
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

} // namespace rigid2d
