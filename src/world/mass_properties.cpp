// Mass and inertia of dynamic bodies, and the shape limits that keep them finite floats. Sums are
// taken in double so that no intermediate overflows; only the result has to fit a float.
#include <algorithm>
#include <cfloat>
#include <cmath>

#include "core/check.hpp"
#include "world/world_state.hpp"

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
    double ownInertia = 0.0; ///< about the shape's centre
};

ShapeMass shapeMass(const Shape& shape) {
    const double density = shape.density;
    if (shape.type == ShapeType::Circle) {
        const double r = shape.radius;
        const double m = density * kPi * r * r;
        return {m, 0.5 * m * r * r};
    }
    const double w = 2.0 * static_cast<double>(shape.halfExtents.x);
    const double h = 2.0 * static_cast<double>(shape.halfExtents.y);
    const double m = density * w * h;
    return {m, m * (w * w + h * h) / 12.0};
}

// Farthest point of the shape from `point` (body frame), over every rotation of the body.
double reachFrom(const Shape& shape, double px, double py) {
    const double dx = double{shape.center.x} - px, dy = double{shape.center.y} - py;
    const double extent = shape.type == ShapeType::Circle ? static_cast<double>(shape.radius)
                                                          : std::hypot(double{shape.halfExtents.x},
                                                                       double{shape.halfExtents.y});
    return std::hypot(dx, dy) + extent;
}

bool fitsFloat(double value) { return std::isfinite(value) && std::fabs(value) <= double{FLT_MAX}; }

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
        const double cx = shape.center.x, cy = shape.center.y;
        hasBox = hasBox || shape.type == ShapeType::Box;
        mass += sm.mass;
        mx += sm.mass * cx;
        my += sm.mass * cy;
        inertiaAtOrigin += sm.ownInertia + sm.mass * (cx * cx + cy * cy);
        if (!(sm.mass > 0.0) || sm.mass > kLargest) return; // the caller refuses the latter
        float m, ownInertia;
        if (shape.type == ShapeType::Circle) {
            m = shape.density * 3.14159265358979f * shape.radius * shape.radius;
            ownInertia = 0.5f * m * shape.radius * shape.radius;
        } else {
            const Vec2 size = 2.0f * shape.halfExtents;
            m = shape.density * size.x * size.y;
            ownInertia = m * (size.x * size.x + size.y * size.y) / 12.0f;
        }
        massF += m;
        momentF += m * shape.center;
        inertiaAtOriginF +=
            ownInertia + m * (shape.center.x * shape.center.x + shape.center.y * shape.center.y);
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
        body.minExtent =
            std::min(body.minExtent, shape.type == ShapeType::Circle
                                         ? shape.radius
                                         : std::min(shape.halfExtents.x, shape.halfExtents.y));
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
    const bool circle = shape.type == ShapeType::Circle;
    const std::string_view size = circle ? "circle.radius" : "box.halfExtents";
    const std::string_view center = circle ? "circle.center" : "box.center";
    auto inSizeRange = [](float v) { return v >= kMinShapeSize && v <= kMaxShapeSize; };
    if (shape.type == ShapeType::Circle)
        require(inSizeRange(shape.radius), function, size,
                "must be in [kMinShapeSize, kMaxShapeSize] = [1e-6, 1e8] m", shape.radius);
    else
        require(inSizeRange(shape.halfExtents.x) && inSizeRange(shape.halfExtents.y), function,
                size, "must be in [kMinShapeSize, kMaxShapeSize] = [1e-6, 1e8] m",
                shape.halfExtents);
    require(
        std::fabs(shape.center.x) <= kMaxShapeSize && std::fabs(shape.center.y) <= kMaxShapeSize,
        function, center, "must be within kMaxShapeSize = 1e8 m of the body origin", shape.center);
    require(boundsFit(shape, body.position), function, field,
            "would have bounds beyond the float range at its body's position", body.position);
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
