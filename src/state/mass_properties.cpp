// Mass and inertia of dynamic bodies, and the shape limits that keep them finite floats. Sums are
// taken in double so that no intermediate overflows; only the result has to fit a float.
#include <algorithm>
#include <cfloat>
#include <cmath>

#include "core/check.hpp"
#include "core/float_range.hpp"
#include "rigid2d/geometry.hpp"
#include "state/world_state.hpp"

namespace rigid2d::detail {

namespace {

constexpr double kPi = 3.14159265358979323846;

// A body's inertia about its centre of mass is at least this fraction of m R², R the farthest
// reach of its shapes. A uniform disc has 1/2; only a body whose far shapes are massless (density
// 0) gets below it, and there the floor keeps the contact solver's rotational response to a push
// at the rim within 50x of a disc's, instead of unbounded.
constexpr double kMinInertiaFraction = 0.01;

struct ShapeMass {
    double mass = 0.0;
    double ownInertia = 0.0;   ///< about the shape's centre of mass
    double cx = 0.0, cy = 0.0; ///< the shape's centre of mass, body frame
};

// Unit density, so that the float routine cannot overflow (an area is at most (2e8 m)^2); the
// density scales it in double.
MassData polygonalUnitMass(const Shape& shape) {
    const Polygon& p = shape.polygon;
    switch (shape.type) {
    case ShapeType::Capsule:
        return computeMass(Capsule{p.vertices[0], p.vertices[1], p.radius}, 1.0f);
    case ShapeType::Segment:
    case ShapeType::ChainSegment: return {0.0f, p.centroid, 0.0f};
    default: return computeMass(p, 1.0f);
    }
}

ShapeMass shapeMass(const Shape& shape) {
    const double density = shape.density;
    if (shape.type == ShapeType::Circle) {
        const double r = shape.radius;
        const double m = density * kPi * r * r;
        return {m, 0.5 * m * r * r, shape.center.x, shape.center.y};
    }
    if (isPolygonal(shape.type)) {
        const MassData unit = polygonalUnitMass(shape);
        return {density * double{unit.mass}, density * double{unit.rotationalInertia},
                unit.center.x, unit.center.y};
    }
    const double w = 2.0 * static_cast<double>(shape.halfExtents.x);
    const double h = 2.0 * static_cast<double>(shape.halfExtents.y);
    const double m = density * w * h;
    return {m, m * (w * w + h * h) / 12.0, shape.center.x, shape.center.y};
}

// Farthest point of the shape from `point` (body frame), over every rotation of the body.
double reachFrom(const Shape& shape, double px, double py) {
    if (isPolygonal(shape.type)) {
        double reach = 0.0;
        for (int i = 0; i < shape.polygon.count; ++i)
            reach = std::max(reach, std::hypot(double{shape.polygon.vertices[i].x} - px,
                                               double{shape.polygon.vertices[i].y} - py));
        return reach + double{shape.polygon.radius};
    }
    const double dx = double{shape.center.x} - px, dy = double{shape.center.y} - py;
    const double extent = shape.type == ShapeType::Circle ? static_cast<double>(shape.radius)
                                                          : std::hypot(double{shape.halfExtents.x},
                                                                       double{shape.halfExtents.y});
    return std::hypot(dx, dy) + extent;
}

// Mass-property sums must stay below this so that the float sums (which multiply by offsets of up
// to kMaxShapeSize) cannot overflow either.
constexpr double kLargest = 1e36;

} // namespace

// The float sums are the ones the world has always used (existing scenes keep their exact
// states); the double ones decide whether the float results are usable, with room to spare for
// the float intermediates.
BodyMass WorldState::massOf(const Body& body, const Shape* extra) const {
    BodyMass out;
    double mass = 0.0, inertiaAtOrigin = 0.0, mx = 0.0, my = 0.0;
    float massF = 0.0f, inertiaAtOriginF = 0.0f;
    Vec2 momentF{};
    bool hasBox = false;
    auto add = [&](const Shape& shape) {
        const ShapeMass sm = shapeMass(shape);
        const double cx = sm.cx, cy = sm.cy;
        hasBox = hasBox || shape.type == ShapeType::Box;
        mass += sm.mass;
        mx += sm.mass * cx;
        my += sm.mass * cy;
        inertiaAtOrigin += sm.ownInertia + sm.mass * (cx * cx + cy * cy);
        if (!(sm.mass > 0.0) || sm.mass > kLargest) return; // the caller refuses the latter
        float m, ownInertia;
        Vec2 center = shape.center;
        if (isPolygonal(shape.type)) {
            const MassData unit = polygonalUnitMass(shape);
            m = shape.density * unit.mass;
            ownInertia = shape.density * unit.rotationalInertia;
            center = unit.center;
        } else if (shape.type == ShapeType::Circle) {
            m = shape.density * 3.14159265358979f * shape.radius * shape.radius;
            ownInertia = 0.5f * m * shape.radius * shape.radius;
        } else {
            const Vec2 size = 2.0f * shape.halfExtents;
            m = shape.density * size.x * size.y;
            ownInertia = m * (size.x * size.x + size.y * size.y) / 12.0f;
        }
        massF += m;
        momentF += m * center;
        inertiaAtOriginF += ownInertia + m * (center.x * center.x + center.y * center.y);
    };
    for (std::uint32_t s = body.firstShape; s != kNullIndex; s = shapes[s].nextInBody)
        add(shapes[s]);
    if (extra != nullptr) add(*extra);
    if (!(mass > 0.0)) {
        // A dynamic body needs mass to respond to contacts; Box2D's convention is 1 kg.
        out.mass = out.invMass = 1.0f;
        return out;
    }
    const double cx = mx / mass, cy = my / mass;
    const double inertia = std::max(inertiaAtOrigin - mass * (cx * cx + cy * cy), 0.0);
    double reach = 0.0;
    for (std::uint32_t s = body.firstShape; s != kNullIndex; s = shapes[s].nextInBody)
        reach = std::max(reach, reachFrom(shapes[s], cx, cy));
    if (extra != nullptr) reach = std::max(reach, reachFrom(*extra, cx, cy));
    const double floor = kMinInertiaFraction * mass * reach * reach;
    out.usable = mass <= kLargest && 1.0 / mass <= kLargest && inertiaAtOrigin <= kLargest &&
                 floor <= kLargest && 1.0 / std::max(inertia, floor) <= kLargest;
    if (!out.usable || !(massF > 0.0f)) {
        out.usable = false;
        return out;
    }
    out.mass = massF;
    out.invMass = 1.0f / massF;
    out.localCenter = momentF / massF;
    const Vec2 c = out.localCenter;
    const float inertiaF = std::max(inertiaAtOriginF - massF * (c.x * c.x + c.y * c.y), 0.0f);
    out.inertia = inertiaF;
    if (!body.fixedRotation && !hasBox) {
        out.inertia = std::max(inertiaF, static_cast<float>(floor));
        out.invInertia = 1.0f / out.inertia;
    }
    return out;
}

void WorldState::updateMass(Body& body) {
    body.minExtent = kMaxShapeSize;
    for (std::uint32_t s = body.firstShape; s != kNullIndex; s = shapes[s].nextInBody) {
        const Shape& shape = shapes[s];
        body.minExtent = std::min(body.minExtent, shapeInnerExtent(shape));
    }
    body.mass = body.invMass = body.inertia = body.invInertia = 0.0f;
    body.localCenter = {};
    if (body.type != BodyType::Dynamic) {
        body.center = body.position;
        return;
    }
    // Every shape was checked against massOf before it was attached, and removing shapes only
    // lowers the sums: the result is usable.
    const BodyMass data = massOf(body, nullptr);
    body.mass = data.mass;
    body.invMass = data.invMass;
    body.inertia = data.inertia;
    body.invInertia = data.invInertia;
    body.localCenter = data.localCenter;
    if (body.invInertia == 0.0f) body.angularVelocity = 0.0f;
    body.center = body.position + rotate(body.rot, body.localCenter);
}

bool WorldState::boundsFit(const Shape& shape, Vec2 position) const noexcept {
    // The step grows a shape's box by the AABB margin and by up to one step of travel.
    const double slack =
        double{def.aabbMargin} + double{def.maxTranslation} + double{def.speculativeDistance};
    const double reach = reachFrom(shape, 0.0, 0.0) + slack;
    return fitsFloat(std::fabs(double{position.x}) + reach) &&
           fitsFloat(std::fabs(double{position.y}) + reach);
}

void WorldState::checkShapeLimits(std::string_view function, std::string_view field,
                                  const Body& body, const Shape& shape) const {
    auto inSizeRange = [](float v) { return v >= kMinShapeSize && v <= kMaxShapeSize; };
    auto withinReach = [](Vec2 v) {
        return std::fabs(v.x) <= kMaxShapeSize && std::fabs(v.y) <= kMaxShapeSize;
    };
    constexpr std::string_view kSizeRule =
        "must be in [kMinShapeSize, kMaxShapeSize] = [1e-6, 1e8] m";
    constexpr std::string_view kReachRule =
        "must be within kMaxShapeSize = 1e8 m of the body origin";
    switch (shape.type) {
    case ShapeType::Circle:
        require(inSizeRange(shape.radius), function, "circle.radius", kSizeRule, shape.radius);
        require(withinReach(shape.center), function, "circle.center", kReachRule, shape.center);
        break;
    case ShapeType::Box:
        require(inSizeRange(shape.halfExtents.x) && inSizeRange(shape.halfExtents.y), function,
                "box.halfExtents", kSizeRule, shape.halfExtents);
        require(withinReach(shape.center), function, "box.center", kReachRule, shape.center);
        break;
    case ShapeType::Polygon:
    case ShapeType::Capsule:
    case ShapeType::Segment:
    case ShapeType::ChainSegment:
        for (int i = 0; i < shape.polygon.count; ++i)
            require(withinReach(shape.polygon.vertices[i]), function, field, kReachRule,
                    shape.polygon.vertices[i]);
        require(shape.polygon.radius <= kMaxShapeSize, function, field, kSizeRule,
                shape.polygon.radius);
        if (shape.type == ShapeType::ChainSegment) {
            require(withinReach(shape.ghost1), function, field, kReachRule, shape.ghost1);
            require(withinReach(shape.ghost2), function, field, kReachRule, shape.ghost2);
        }
        break;
    }
    require(boundsFit(shape, body.position), function, field,
            "would have bounds beyond the float range at its body's position", body.position);
    if (hasNoArea(shape.type)) return; // no mass, whatever the density
    const double m = shapeMass(shape).mass;
    require(shape.density == 0.0f || (m >= double{kMinShapeMass} && m <= double{kMaxShapeMass}),
            function, "def.density",
            "must be 0 or give the shape a mass in [kMinShapeMass, kMaxShapeMass] = "
            "[1e-15, 1e20] kg",
            shape.density);
}

void WorldState::checkShape(std::string_view function, std::string_view field, const Body& body,
                            const Shape& shape) const {
    checkShapeLimits(function, field, body, shape);
    if (body.type == BodyType::Dynamic)
        require(massOf(body, &shape).usable, function, "def.density",
                "would give the body a mass or inertia beyond the float range", shape.density);
}

} // namespace rigid2d::detail
