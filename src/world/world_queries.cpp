// Queries (broad phase first, then exact shape tests), broad-phase swapping and debug drawing.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "core/check.hpp"
#include "geometry/ray_casts.hpp"
#include "geometry/shape_cast.hpp"
#include "geometry/shape_queries.hpp"
#include "state/world_state.hpp"

namespace rigid2d {

using detail::kNullIndex;

namespace {
/// Holds the world's lock for the duration of a callback-driven query.
class QueryLock {
public:
    explicit QueryLock(int& depth) : m_depth(depth) { ++m_depth; }
    ~QueryLock() { --m_depth; }
    QueryLock(const QueryLock&) = delete;
    QueryLock& operator=(const QueryLock&) = delete;

private:
    int& m_depth;
};

// The far end of a cast, point + translation, must be a float too (summed in double, so that
// checking it cannot overflow).
void requireEndInRange(std::string_view fn, Vec2 point, Vec2 translation) {
    constexpr double kMax = std::numeric_limits<float>::max();
    const double x = double{point.x} + double{translation.x};
    const double y = double{point.y} + double{translation.y};
    detail::require(std::fabs(x) <= kMax && std::fabs(y) <= kMax, fn, "translation",
                    "must keep the end of the cast within the float range", translation);
}

bool shapeOverlaps(const detail::Shape& shape, const detail::Body& body, const AABB& region) {
    if (detail::isPolygonal(shape.type)) {
        // The region cut to the shape's bounds padded by their size: the same overlap, and a box
        // near the shape, so the distance's differences of points stay within the float range
        // however far the region reaches (a region 1e38 wide overflowed them).
        const AABB bounds = detail::shapeBounds(shape, body);
        const Vec2 size = bounds.upper - bounds.lower;
        const float pad = std::max({size.x, size.y, 1.0f});
        const Vec2 lower{std::max(region.lower.x, bounds.lower.x - pad),
                         std::max(region.lower.y, bounds.lower.y - pad)};
        const Vec2 upper{std::min(region.upper.x, bounds.upper.x + pad),
                         std::min(region.upper.y, bounds.upper.y + pad)};
        if (lower.x > upper.x || lower.y > upper.y) return false;
        // The centre as lower + half: the sum of the corners of a shape far out overflows.
        const Vec2 half = 0.5f * (upper - lower);
        detail::ShapeGeometry box;
        box.type = ShapeType::Box;
        box.polygon = detail::makeBoxPolygon(half, lower + half, {});
        return detail::shapesOverlap(detail::makeProxy(detail::geometryOf(shape)),
                                     detail::transformOf(shape, body), detail::makeProxy(box), {});
    }
    const detail::PlacedShape placed = detail::placeShape(shape, body);
    if (placed.type == ShapeType::Circle)
        return detail::circleOverlapsBox(placed.center, placed.radius, region);
    return overlaps(detail::boundsOf(placed), region);
}

bool castAtShape(const detail::Shape& shape, const detail::Body& body, Vec2 origin,
                 Vec2 translation, float maxFraction, detail::SegmentHit& hit) {
    if (detail::isPolygonal(shape.type))
        return detail::castSegmentAtShape(detail::geometryOf(shape),
                                          detail::transformOf(shape, body), origin, translation,
                                          maxFraction, hit);
    const detail::PlacedShape placed = detail::placeShape(shape, body);
    if (placed.type == ShapeType::Circle)
        return detail::castSegmentAtCircle(placed.center, placed.radius, origin, translation,
                                           maxFraction, hit);
    return detail::castSegmentAtBox(detail::boundsOf(placed), origin, translation, maxFraction,
                                    hit);
}
} // namespace

void World::queryAABB(const AABB& region, FunctionRef<bool(ShapeId)> visit) const {
    auto& s = *m_state;
    detail::requireValidBox("World::queryAABB", "region", region);
    QueryLock lock(s.lockDepth);
    s.broadPhase->query(region, [&](ProxyId proxy) {
        const std::uint32_t index = s.proxyOwners[toIndex(proxy)].shape;
        const detail::Shape& shape = s.shapes[index];
        if (!shapeOverlaps(shape, s.bodies[shape.body], region)) return true;
        return visit(s.shapeId(index));
    });
}

void World::castRay(Vec2 origin, Vec2 translation, FunctionRef<float(const RayHit&)> visit) const {
    auto& s = *m_state;
    detail::requireFinite("World::castRay", "origin", origin);
    detail::requireFinite("World::castRay", "translation", translation);
    requireEndInRange("World::castRay", origin, translation);
    QueryLock lock(s.lockDepth);
    float maxFraction = 1.0f;
    s.broadPhase->rayCast(origin, translation, maxFraction, [&](ProxyId proxy) {
        const std::uint32_t index = s.proxyOwners[toIndex(proxy)].shape;
        detail::SegmentHit hit;
        const detail::Shape& shape = s.shapes[index];
        if (!castAtShape(shape, s.bodies[shape.body], origin, translation, maxFraction, hit))
            return maxFraction;
        const float answer = visit(RayHit{s.shapeId(index), hit.point, hit.normal, hit.fraction});
        // 1 (or more) continues unclipped; a smaller value clips; 0 or less stops.
        if (answer < maxFraction) maxFraction = answer < 0.0f ? 0.0f : answer;
        return maxFraction;
    });
}

std::optional<RayHit> World::castRayClosest(Vec2 origin, Vec2 translation) const {
    std::optional<RayHit> closest;
    castRay(origin, translation, [&](const RayHit& hit) {
        // Equal fractions keep the lower shape id, so the answer does not depend on visit order.
        if (!closest || hit.fraction < closest->fraction ||
            (hit.fraction == closest->fraction && hit.shape.index < closest->shape.index))
            closest = hit;
        return hit.fraction;
    });
    return closest;
}

namespace {
// A query shape's core at its pose, checked: 1 to 8 finite points, a finite radius >= 0.
struct PlacedProxy {
    detail::DistanceProxy proxy;
    detail::Transform xf;
    AABB bounds;
};

PlacedProxy placeQueryShape(std::string_view fn, const ShapeProxy& shape, Vec2 position,
                            float angle) {
    detail::require(shape.count >= 1 && shape.count <= kMaxPolygonVertices, fn, "shape.count",
                    "must be in [1, kMaxPolygonVertices = 8] (use makeShapeProxy)",
                    static_cast<float>(shape.count));
    for (int i = 0; i < shape.count; ++i)
        detail::requireFinite(fn, "shape.points", shape.points[i]);
    detail::require(isFinite(shape.radius) && shape.radius >= 0.0f, fn, "shape.radius",
                    "must be finite and >= 0", shape.radius);
    detail::requireFinite(fn, "position", position);
    detail::requireFinite(fn, "angle", angle);
    PlacedProxy placed;
    placed.proxy.count = shape.count;
    placed.proxy.radius = shape.radius;
    for (int i = 0; i < shape.count; ++i) placed.proxy.points[i] = shape.points[i];
    placed.xf = {position, detail::makeRot(angle)};
    const Vec2 first = detail::transformPoint(placed.xf, shape.points[0]);
    placed.bounds = {first, first};
    for (int i = 1; i < shape.count; ++i) {
        const Vec2 p = detail::transformPoint(placed.xf, shape.points[i]);
        placed.bounds = combine(placed.bounds, AABB{p, p});
    }
    const Vec2 r{shape.radius, shape.radius};
    placed.bounds = {placed.bounds.lower - r, placed.bounds.upper + r};
    detail::requireValidBox(fn, "shape", placed.bounds); // finite once placed
    return placed;
}
} // namespace

void World::castShape(const ShapeProxy& shape, Vec2 position, float angle, Vec2 translation,
                      FunctionRef<float(const ShapeCastHit&)> visit) const {
    constexpr std::string_view fn = "World::castShape";
    auto& s = *m_state;
    const PlacedProxy moving = placeQueryShape(fn, shape, position, angle);
    detail::requireFinite(fn, "translation", translation);
    requireEndInRange(fn, moving.bounds.lower, translation);
    requireEndInRange(fn, moving.bounds.upper, translation);
    const AABB start = moving.bounds;
    const AABB end{start.lower + translation, start.upper + translation};
    detail::requireValidBox(fn, "translation", end);
    QueryLock lock(s.lockDepth);
    float maxFraction = 1.0f;
    s.broadPhase->query(combine(start, end), [&](ProxyId proxy) {
        if (maxFraction <= 0.0f) return false;
        const std::uint32_t index = s.proxyOwners[toIndex(proxy)].shape;
        const detail::Shape& target = s.shapes[index];
        detail::SegmentHit hit;
        if (!detail::castShape(detail::makeProxy(detail::geometryOf(target)),
                               detail::transformOf(target, s.bodies[target.body]), moving.proxy,
                               moving.xf, translation, maxFraction, hit))
            return true;
        const float answer =
            visit(ShapeCastHit{s.shapeId(index), hit.point, hit.normal, hit.fraction});
        if (answer < maxFraction) maxFraction = answer < 0.0f ? 0.0f : answer;
        return maxFraction > 0.0f;
    });
}

std::optional<ShapeCastHit> World::castShapeClosest(const ShapeProxy& shape, Vec2 position,
                                                    float angle, Vec2 translation) const {
    std::optional<ShapeCastHit> closest;
    castShape(shape, position, angle, translation, [&](const ShapeCastHit& hit) {
        // Equal fractions: the lower shape id, so the answer does not depend on the broad phase.
        if (!closest || hit.fraction < closest->fraction ||
            (hit.fraction == closest->fraction && hit.shape.index < closest->shape.index))
            closest = hit;
        return hit.fraction;
    });
    return closest;
}

void World::overlapShape(const ShapeProxy& shape, Vec2 position, float angle,
                         FunctionRef<bool(ShapeId)> visit) const {
    constexpr std::string_view fn = "World::overlapShape";
    auto& s = *m_state;
    const PlacedProxy query = placeQueryShape(fn, shape, position, angle);
    QueryLock lock(s.lockDepth);
    s.broadPhase->query(query.bounds, [&](ProxyId proxy) {
        const std::uint32_t index = s.proxyOwners[toIndex(proxy)].shape;
        const detail::Shape& target = s.shapes[index];
        if (!detail::shapesOverlap(detail::makeProxy(detail::geometryOf(target)),
                                   detail::transformOf(target, s.bodies[target.body]), query.proxy,
                                   query.xf))
            return true;
        return visit(s.shapeId(index));
    });
}

void World::setBroadPhase(BroadPhaseType type, const BroadPhaseConfig& config) {
    m_state->requireUnlocked("World::setBroadPhase");
    setBroadPhase(makeBroadPhase(type, config));
    // A built-in kind: recorded in def(), so snapshots can make it again.
    m_state->def.broadPhase = type;
    m_state->def.broadPhaseConfig = config;
    m_state->customBroadPhase = false;
}

// Proxies are re-inserted in shape slot order (the same proxy ids whatever was used before);
// contacts are keyed by shapes, not proxies, so none is lost and nothing wakes.
void World::setBroadPhase(std::unique_ptr<BroadPhase> broadPhase) {
    constexpr std::string_view fn = "World::setBroadPhase";
    auto& s = *m_state;
    s.requireUnlocked(fn);
    detail::require(broadPhase != nullptr, fn, "broadPhase", "must not be null");
    detail::require(broadPhase->size() == 0, fn, "broadPhase", "must be empty");
    std::vector<ProxyId> proxies(s.shapes.size(), ProxyId::Null);
    std::vector<detail::ProxyOwner> proxyOwners;
    for (std::uint32_t i = 0; i < s.shapes.size(); ++i) {
        if (!s.shapes[i].live) continue;
        const ProxyId proxy = broadPhase->insert(s.shapes[i].fatBox, i);
        proxies[i] = proxy;
        if (toIndex(proxy) >= proxyOwners.size())
            proxyOwners.resize(std::size_t{toIndex(proxy)} + 1);
        proxyOwners[toIndex(proxy)] = detail::ownerOf(s.shapes[i], i);
    }
    broadPhase->update();
    for (std::uint32_t i = 0; i < s.shapes.size(); ++i) s.shapes[i].proxy = proxies[i];
    s.proxyOwners = std::move(proxyOwners);
    s.broadPhase = std::move(broadPhase);
    s.bindBroadPhase();
    s.customBroadPhase = true;
}

const BroadPhase& World::broadPhase() const noexcept { return *m_state->broadPhase; }

namespace {
constexpr Color kStaticColor{0.5f, 0.9f, 0.5f, 1.0f};
constexpr Color kKinematicColor{0.5f, 0.5f, 0.9f, 1.0f};
constexpr Color kAwakeColor{0.9f, 0.7f, 0.7f, 1.0f};
constexpr Color kSleepingColor{0.6f, 0.6f, 0.6f, 1.0f};
constexpr Color kSensorColor{0.9f, 0.9f, 0.3f, 0.4f};
constexpr Color kAABBColor{0.9f, 0.3f, 0.9f, 1.0f};
constexpr Color kContactColor{1.0f, 0.2f, 0.2f, 1.0f};
constexpr Color kNormalColor{0.3f, 0.9f, 0.3f, 1.0f};
constexpr Color kJointColor{0.5f, 0.8f, 0.8f, 1.0f};

Color fillOf(const detail::Body& body, const detail::Shape& shape) {
    if (shape.isSensor) return kSensorColor;
    if (body.type == BodyType::Static) return kStaticColor;
    if (body.type == BodyType::Kinematic) return kKinematicColor;
    return body.awake ? kAwakeColor : kSleepingColor;
}
Color outlineOf(Color fill) { return {fill.r * 0.6f, fill.g * 0.6f, fill.b * 0.6f, 1.0f}; }
} // namespace

void World::debugDraw(DebugDraw& draw) const {
    auto& s = *m_state;
    QueryLock lock(s.lockDepth);
    auto drawShape = [&](std::uint32_t index) {
        const detail::Shape& shape = s.shapes[index];
        const detail::Body& body = s.bodies[shape.body];
        if (draw.drawShapes) {
            const Color fill = fillOf(body, shape);
            if (detail::isPolygonal(shape.type)) {
                const detail::Transform xf = detail::transformOf(shape, body);
                Vec2 vertices[kMaxPolygonVertices];
                const auto count = static_cast<std::size_t>(shape.polygon.count);
                for (std::size_t i = 0; i < count; ++i)
                    vertices[i] = detail::transformPoint(xf, shape.polygon.vertices[i]);
                draw.drawPolygon({vertices, count}, shape.polygon.radius, fill, outlineOf(fill));
            } else if (shape.type == ShapeType::Circle) {
                const detail::PlacedShape placed = detail::placeShape(shape, body);
                draw.drawCircle(placed.center, placed.radius, body.angle, fill, outlineOf(fill));
            } else {
                draw.drawBox(detail::shapeBounds(shape, body), fill, outlineOf(fill));
            }
        }
        if (draw.drawAABBs) draw.drawAABB(shape.fatBox, kAABBColor);
    };
    if (draw.useCullRegion) {
        // Culling is a query: only what the broad phase reports for the region is drawn.
        s.broadPhase->query(draw.cullRegion, [&](ProxyId proxy) {
            drawShape(s.proxyOwners[toIndex(proxy)].shape);
            return true;
        });
    } else {
        for (std::uint32_t i = 0; i < s.shapes.size(); ++i)
            if (s.shapes[i].live) drawShape(i);
    }
    if (draw.drawContacts) {
        for (const detail::Contact& contact : s.contacts) {
            if (!contact.live || !contact.touching || contact.sensor) continue;
            const detail::Body& bodyA = s.bodies[contact.edges[0].body];
            for (int i = 0; i < contact.manifold.pointCount; ++i) {
                const Vec2 p = bodyA.center + contact.manifold.points[i].anchorA;
                if (draw.useCullRegion && !overlaps(draw.cullRegion, AABB{p, p})) continue;
                draw.drawPoint(p, 4.0f, kContactColor);
                draw.drawSegment(p, p + 0.3f * contact.manifold.normal, kNormalColor);
            }
        }
    }
    if (draw.drawJoints) {
        for (const detail::Joint& joint : s.joints) {
            if (!joint.live) continue;
            const detail::Body& b = s.bodies[joint.edges[1].body];
            const Vec2 anchorB = b.position + rotate(b.rot, joint.localAnchorB);
            Vec2 anchorA = joint.target, centerA = joint.target;
            if (joint.edges[0].body != detail::kNullIndex) {
                const detail::Body& a = s.bodies[joint.edges[0].body];
                anchorA = a.position + rotate(a.rot, joint.localAnchorA);
                centerA = a.center;
            }
            if (draw.useCullRegion &&
                !overlaps(draw.cullRegion, combine(AABB{anchorA, anchorA}, AABB{anchorB, anchorB})))
                continue;
            draw.drawSegment(centerA, anchorA, kJointColor);
            draw.drawSegment(anchorA, anchorB, kJointColor);
            draw.drawSegment(anchorB, b.center, kJointColor);
        }
    }
    if (draw.drawBroadPhase) s.broadPhase->debugDraw(draw);
}

} // namespace rigid2d
