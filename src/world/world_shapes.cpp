// World's shape functions: argument checks, then the shape built and attached (WorldState).
#include <algorithm>
#include <cmath>
#include <span>
#include <string>
#include <vector>

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

// Shapes whose polygon is computed from the definition are bounded first, so that a refused
// shape's corners cannot overflow on the way to checkShape (a point beyond the reach would be
// refused there anyway: no vertex of a valid shape lies beyond it, nor does their centre).
void requireWithinReach(std::string_view fn, std::string_view field, Vec2 point) {
    require(std::fabs(point.x) <= kMaxShapeSize && std::fabs(point.y) <= kMaxShapeSize, fn, field,
            "must be within kMaxShapeSize = 1e8 m of the body origin", point);
}

} // namespace

// --- shapes

namespace {
// Everything that can refuse runs before anything is linked: the checks, then the proxy insert
// (the one call into the broad phase that may throw). Only then is the shape attached.
// `settle` false leaves the body's mass and sleep to the caller: a chain attaches many links and
// settles its body once.
ShapeId attachShape(detail::WorldState& s, std::string_view fn, std::string_view field,
                    BodyId bodyId, const ShapeDef& def, const Shape& geometry, bool settle = true) {
    // Taken by reference: a 64-byte-aligned Shape passed by value draws GCC's -Wpsabi note.
    Shape proto = geometry;
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

    const std::uint32_t index = s.shapePool.peek(s.shapes.size());
    proto.tightBox = detail::shapeBounds(proto, s.bodies[bodyId.index]);
    proto.fatBox = fatten(proto.tightBox, s.fatMargin());
    proto.proxy = s.broadPhase->insert(proto.fatBox, index);
    bool counted = false;
    try {
        const std::uint32_t proxy = toIndex(proto.proxy);
        if (proxy >= s.proxyOwners.size()) s.proxyOwners.resize(std::size_t{proxy} + 1);
        if (index == s.shapes.size()) s.shapes.emplace_back();
        // Room for markMoved below, which must not throw once the shape is in. Grown
        // geometrically: one more each time would copy the whole list for every shape.
        if (s.movedShapes.size() == s.movedShapes.capacity())
            s.movedShapes.reserve(std::max<std::size_t>(64, 2 * s.movedShapes.capacity()));
        s.filters.add(proto.filter);
        counted = true;
        // Last: nothing after it in this block may throw, or the catch would leave it in.
        if (s.bodies[bodyId.index].type == BodyType::Static && !proto.isSensor) {
            proto.staticProxy = s.staticShapes.insert(proto.fatBox, index);
            if (detail::hasNoArea(proto.type)) ++s.staticWallCount;
        }
    } catch (...) {
        if (counted) s.filters.remove(proto.filter);
        s.broadPhase->remove(proto.proxy);
        throw;
    }
    s.shapePool.claim(index, s.shapes);
    Shape& shape = s.shapes[index];
    proto.generation = detail::SlotPool::generationFor(shape.generation);
    proto.live = true;
    Body& body = s.bodies[bodyId.index];
    proto.nextInBody = body.firstShape;
    // A slot freed since the last step may still be on the moved list, and kept its flag then
    // (WorldState::destroyShapeSlot): so that it is listed once.
    proto.moved = shape.moved;
    shape = proto;
    s.setProxyOwner(shape, index);
    body.firstShape = index;
    ++body.shapeCount;
    ++s.shapeCount;
    s.markMoved(index);
    if (settle) {
        s.updateMass(body);
        s.wake(bodyId.index);
    }
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
    requireWithinReach(fn, "box.center", box.center);
    // A turned box within the reach has half extents below its half diagonal, sqrt(2) 1e8 m.
    require(box.halfExtents.x <= 2.0f * kMaxShapeSize && box.halfExtents.y <= 2.0f * kMaxShapeSize,
            fn, "box.halfExtents", "must be at most 2 kMaxShapeSize = 2e8 m", box.halfExtents);
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
    requireWithinReach(fn, "capsule.center1", capsule.center1);
    requireWithinReach(fn, "capsule.center2", capsule.center2);
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
    requireWithinReach(fn, "segment.point1", segment.point1);
    requireWithinReach(fn, "segment.point2", segment.point2);
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

// --- chains

namespace {
// The links of a chain over `points` (see ChainDef): an open chain's first and last points are
// ghosts only; a loop's links go round, each with its neighbours' far points as ghosts.
std::vector<ChainSegment> chainLinks(std::span<const Vec2> points, bool loop) {
    const std::size_t n = points.size();
    std::vector<ChainSegment> links;
    if (loop) {
        links.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
            links.push_back(
                {points[(i + n - 1) % n], {points[i], points[(i + 1) % n]}, points[(i + 2) % n]});
    } else {
        links.reserve(n - 3);
        for (std::size_t i = 0; i + 3 < n; ++i)
            links.push_back({points[i], {points[i + 1], points[i + 2]}, points[i + 3]});
    }
    return links;
}
} // namespace

ChainId World::createChain(BodyId body, const ChainDef& def) {
    constexpr std::string_view fn = "World::createChain";
    auto& s = *m_state;
    s.requireUnlocked(fn);
    const Body& owner = s.checkedBody(body, fn);
    require(owner.type != BodyType::Dynamic, fn, "body",
            "must be static or kinematic: a chain has no area, so no mass");
    checkFriction(fn, "def.friction", def.friction);
    checkRestitution(fn, "def.restitution", def.restitution);
    const std::size_t n = def.points.size();
    require(n <= std::size_t{kMaxChainPoints}, fn, "def.points",
            "must hold at most kMaxChainPoints (2^20) points", static_cast<float>(n));
    if (def.loop)
        require(n >= 3, fn, "def.points", "must hold at least 3 points for a loop",
                static_cast<float>(n));
    else
        require(n >= 4, fn, "def.points",
                "must hold at least 4 points for an open chain (its first and last points are "
                "ghost vertices, the links run between the others)",
                static_cast<float>(n));
    for (const Vec2 p : def.points) {
        requireFinite(fn, "def.points", p);
        requireWithinReach(fn, "def.points", p);
    }
    const std::size_t joins = def.loop ? n : n - 1;
    for (std::size_t i = 0; i < joins; ++i) {
        const Vec2 a = def.points[i];
        const Vec2 b = def.points[(i + 1) % n];
        const double dx = double{b.x} - double{a.x};
        const double dy = double{b.y} - double{a.y};
        if (!(std::hypot(dx, dy) >= double{kPolygonWeldDistance}))
            detail::refuse(fn, "def.points",
                           "must have consecutive points at least kPolygonWeldDistance (1e-4 m) "
                           "apart, got point " +
                               std::to_string((i + 1) % n) + " at " + detail::describe(b) +
                               " next to the one before it");
    }

    ShapeDef shapeDef;
    shapeDef.density = 0.0f;
    shapeDef.friction = def.friction;
    shapeDef.restitution = def.restitution;
    shapeDef.enableSensorEvents = def.enableSensorEvents;
    shapeDef.enableContactEvents = def.enableContactEvents;
    shapeDef.enableHitEvents = def.enableHitEvents;
    shapeDef.filter = def.filter;
    shapeDef.userData = def.userData;
    const std::uint32_t chainIndex = s.chainPool.peek(s.chains.size());
    const bool reuse = chainIndex < s.chains.size();
    const std::vector<ChainSegment> segments = chainLinks(def.points, def.loop);
    const auto shapeOf = [&](const ChainSegment& link) {
        Shape proto;
        proto.type = ShapeType::ChainSegment;
        proto.polygon = detail::makeSegmentPolygon(link.segment);
        proto.center = proto.polygon.centroid;
        proto.ghost1 = link.ghost1;
        proto.ghost2 = link.ghost2;
        proto.chain = chainIndex;
        proto.body = body.index;
        return proto;
    };
    // Every link checked before any is attached (a shape is large: they are built twice rather
    // than held, so a long chain costs no second copy).
    for (const ChainSegment& link : segments) s.checkShape(fn, "def.points", owner, shapeOf(link));
    std::vector<std::uint32_t> links;
    links.reserve(segments.size());
    if (!reuse) s.chains.emplace_back();
    // Only a user-written broad phase can refuse an insert: the links attached so far go again.
    try {
        for (const ChainSegment& link : segments)
            links.push_back(
                attachShape(s, fn, "def.points", body, shapeDef, shapeOf(link), false).index);
    } catch (...) {
        for (auto link = links.rbegin(); link != links.rend(); ++link) s.destroyShapeSlot(*link);
        if (!reuse) s.chains.pop_back();
        throw;
    }
    s.chainPool.claim(chainIndex, s.chains);
    detail::Chain& chain = s.chains[chainIndex];
    chain.generation = detail::SlotPool::generationFor(chain.generation);
    chain.live = true;
    chain.loop = def.loop;
    chain.body = body.index;
    chain.links = std::move(links);
    s.updateMass(s.bodies[body.index]);
    s.wake(body.index);
    return s.chainId(chainIndex);
}

void World::destroyChain(ChainId id) {
    constexpr std::string_view fn = "World::destroyChain";
    auto& s = *m_state;
    s.requireUnlocked(fn);
    const std::uint32_t bodyIndex = s.checkedChain(id, fn).body;
    s.destroyChainSlot(id.index);
    s.updateMass(s.bodies[bodyIndex]);
    s.wake(bodyIndex);
}

bool World::isValid(ChainId id) const noexcept { return m_state->isLive(id); }
BodyId World::chainBody(ChainId id) const {
    return m_state->bodyId(m_state->checkedChain(id, "World::chainBody").body);
}
std::vector<ShapeId> World::chainSegments(ChainId id) const {
    const detail::Chain& chain = m_state->checkedChain(id, "World::chainSegments");
    std::vector<ShapeId> out;
    out.reserve(chain.links.size());
    for (const std::uint32_t link : chain.links) out.push_back(m_state->shapeId(link));
    return out;
}
bool World::isLoop(ChainId id) const { return m_state->checkedChain(id, "World::isLoop").loop; }

void World::destroyShape(ShapeId id) {
    constexpr std::string_view fn = "World::destroyShape";
    auto& s = *m_state;
    s.requireUnlocked(fn);
    const Shape& shape = s.checkedShape(id, fn);
    require(shape.chain == kNullIndex, fn, "shape",
            "is a chain's link: a chain is destroyed whole (destroyChain)");
    const std::uint32_t bodyIndex = shape.body;
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
ChainSegment World::shapeChainSegment(ShapeId id) const {
    const Shape& shape = m_state->checkedShape(id, "World::shapeChainSegment");
    require(shape.type == ShapeType::ChainSegment, "World::shapeChainSegment", "shape",
            "must be a chain's link");
    return {shape.ghost1, {shape.polygon.vertices[0], shape.polygon.vertices[1]}, shape.ghost2};
}
ChainId World::shapeChain(ShapeId id) const {
    const Shape& shape = m_state->checkedShape(id, "World::shapeChain");
    require(shape.chain != kNullIndex, "World::shapeChain", "shape", "must be a chain's link");
    return m_state->chainId(shape.chain);
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
            contact.friction = detail::mixFriction(s.shapes[contact.shapeA].friction,
                                                   s.shapes[contact.shapeB].friction);
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
        if (contact.shapeA != id.index && contact.shapeB != id.index) return;
        contact.restitution =
            std::max(s.shapes[contact.shapeA].restitution, s.shapes[contact.shapeB].restitution);
        s.contactStage.restitutionChanged(c, contact.restitution);
    });
}

// A new filter may forbid existing contacts (destroyed now) or allow new ones (found at the
// next step: the proxy is marked moved).
void World::setFilter(ShapeId id, const Filter& filter) {
    constexpr std::string_view fn = "World::setFilter";
    auto& s = *m_state;
    s.requireUnlocked(fn);
    Shape& shape = s.checkedShape(id, fn);
    s.filters.add(filter); // first: it may throw
    s.filters.remove(shape.filter);
    shape.filter = filter;
    s.setProxyOwner(shape, id.index);
    const std::uint32_t bodyIndex = shape.body;
    s.forEachContactOf(bodyIndex, [&](std::uint32_t c, std::uint32_t) {
        const detail::Contact& contact = s.contacts[c];
        if ((contact.shapeA != id.index && contact.shapeB != id.index) ||
            s.shouldCollide(contact.shapeA, contact.shapeB))
            return;
        if (detail::isSolvable(contact)) {
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
