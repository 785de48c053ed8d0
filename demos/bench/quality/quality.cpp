// The quality figures of FORMAT.md, "Quality": escaped bodies, kinetic energy, displacement, the
// penetration depth of every pair of shapes that may collide, and how far joints came apart. All
// in double from the scene's numbers and the final state, so every engine is scored alike.

#include "quality.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <set>

#include "../timing.hpp"
#include "rigid2d/broad_phase.hpp"

namespace rigid2d::bench {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

using scene_file::BodyDesc;
using scene_file::JointDesc;
using scene_file::JointKind;
using scene_file::SceneDesc;
using scene_file::ShapeDesc;

struct Point {
    double x = 0, y = 0;
};

Point rotated(double c, double s, double x, double y) { return {c * x - s * y, s * x + c * y}; }

// A shape placed in the world. Circles and unturned boxes keep their closed-form depths; every
// other shape is a convex core (points) with a radius and its separating axes.
struct Placed {
    enum Kind { Circle, Box, Core } kind = Circle;
    std::size_t body = 0;
    double cx = 0, cy = 0, ax = 0, ay = 0; ///< centre and half extents of the bounds
    std::vector<Point> points;             ///< Core
    double radius = 0;                     ///< Circle (= ax), Core
    std::vector<Point> axes;               ///< Core
    Filter filter{};
};

std::vector<Point> axesOf(const std::vector<Point>& points) {
    std::vector<Point> out;
    const std::size_t n = points.size();
    if (n < 2) return out;
    const std::size_t edges = n == 2 ? 1 : n;
    for (std::size_t k = 0; k < edges; ++k) {
        const Point a = points[k], b = points[(k + 1) % n];
        const double ex = b.x - a.x, ey = b.y - a.y, length = std::hypot(ex, ey);
        if (!(length > 0.0)) continue;
        out.push_back({-ey / length, ex / length});
        if (n == 2) out.push_back({ex / length, ey / length});
    }
    return out;
}

Placed core(std::size_t body, std::vector<Point> points, double radius, const Filter& filter) {
    Placed out;
    out.kind = Placed::Core;
    out.body = body;
    double loX = kInf, hiX = -kInf, loY = kInf, hiY = -kInf;
    for (const Point p : points) {
        loX = std::min(loX, p.x - radius);
        hiX = std::max(hiX, p.x + radius);
        loY = std::min(loY, p.y - radius);
        hiY = std::max(hiY, p.y + radius);
    }
    out.cx = 0.5 * (loX + hiX);
    out.cy = 0.5 * (loY + hiY);
    out.ax = 0.5 * (hiX - loX);
    out.ay = 0.5 * (hiY - loY);
    out.axes = axesOf(points);
    out.points = std::move(points);
    out.radius = radius;
    out.filter = filter;
    return out;
}

// Every non-sensor shape of every body, placed with the body's final pose.
std::vector<Placed> placeShapes(const SceneDesc& scene, const std::vector<FinalBody>& final) {
    std::vector<Placed> out;
    const bool v2 = scene.version >= 2;
    for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
        const FinalBody& f = final[i];
        const double c = std::cos(f.angle), s = std::sin(f.angle);
        const auto world = [&](Vec2 local) {
            const Point r = rotated(c, s, local.x, local.y);
            return Point{f.x + r.x, f.y + r.y};
        };
        for (const ShapeDesc& shape : scene.bodies[i].shapes) {
            if (shape.def.isSensor) continue;
            const Filter filter = shape.def.filter;
            switch (shape.kind) {
            case ShapeType::Circle: {
                const Point p = world(shape.center);
                Placed circle;
                circle.body = i;
                circle.cx = p.x;
                circle.cy = p.y;
                circle.ax = circle.ay = circle.radius = shape.radius;
                circle.filter = filter;
                out.push_back(circle);
                break;
            }
            case ShapeType::Box: {
                // Version 1's boxes stay axis-aligned whatever the body's angle.
                const double angle = v2 ? f.angle + double{shape.angle} : 0.0;
                const Point centre =
                    v2 ? world(shape.center)
                       : Point{f.x + double{shape.center.x}, f.y + double{shape.center.y}};
                const double hx = shape.halfExtents.x, hy = shape.halfExtents.y;
                if (angle == 0.0) {
                    Placed box;
                    box.kind = Placed::Box;
                    box.body = i;
                    box.cx = centre.x;
                    box.cy = centre.y;
                    box.ax = hx;
                    box.ay = hy;
                    box.filter = filter;
                    out.push_back(box);
                    break;
                }
                const double ca = std::cos(angle), sa = std::sin(angle);
                std::vector<Point> corners;
                for (const Point corner :
                     {Point{-hx, -hy}, Point{hx, -hy}, Point{hx, hy}, Point{-hx, hy}}) {
                    const Point r = rotated(ca, sa, corner.x, corner.y);
                    corners.push_back({centre.x + r.x, centre.y + r.y});
                }
                out.push_back(core(i, std::move(corners), 0.0, filter));
                break;
            }
            case ShapeType::Polygon: {
                std::vector<Point> points;
                for (const Vec2 v : shape.vertices) points.push_back(world(v));
                out.push_back(core(i, std::move(points), shape.radius, filter));
                break;
            }
            case ShapeType::Capsule:
                out.push_back(
                    core(i, {world(shape.point1), world(shape.point2)}, shape.radius, filter));
                break;
            case ShapeType::Segment:
                out.push_back(core(i, {world(shape.point1), world(shape.point2)}, 0.0, filter));
                break;
            case ShapeType::ChainSegment: {
                // Its links, each a segment (an open chain's end points are ghosts only).
                const std::vector<Vec2>& v = shape.vertices;
                const std::size_t n = v.size();
                const std::size_t first = shape.loop ? 0 : 1;
                const std::size_t links = shape.loop ? n : n - 3;
                for (std::size_t k = first; k < first + links; ++k)
                    out.push_back(core(i, {world(v[k]), world(v[(k + 1) % n])}, 0.0, filter));
                break;
            }
            }
        }
    }
    return out;
}

double pointSegmentDistance(Point p, Point a, Point b) {
    const double ex = b.x - a.x, ey = b.y - a.y, ee = ex * ex + ey * ey;
    const double t =
        ee == 0.0 ? 0.0 : std::clamp(((p.x - a.x) * ex + (p.y - a.y) * ey) / ee, 0.0, 1.0);
    return std::hypot(p.x - a.x - t * ex, p.y - a.y - t * ey);
}

// Distance between two disjoint convex cores: every vertex against every edge, both ways.
double coreDistance(const std::vector<Point>& a, const std::vector<Point>& b) {
    const auto oneWay = [](const std::vector<Point>& points, const std::vector<Point>& outline) {
        double best = kInf;
        const std::size_t n = outline.size();
        const std::size_t edges = n <= 2 ? 1 : n;
        for (std::size_t k = 0; k < edges; ++k)
            for (const Point p : points)
                best = std::min(best, pointSegmentDistance(p, outline[k], outline[(k + 1) % n]));
        return best;
    };
    return std::min(oneWay(a, b), oneWay(b, a));
}

// A circle or an unturned box as a core, for the general depth.
void asCore(const Placed& p, std::vector<Point>& points, double& radius, std::vector<Point>& axes) {
    if (p.kind == Placed::Circle) {
        points = {{p.cx, p.cy}};
        radius = p.radius;
        axes.clear();
    } else if (p.kind == Placed::Box) {
        points = {{p.cx - p.ax, p.cy - p.ay},
                  {p.cx + p.ax, p.cy - p.ay},
                  {p.cx + p.ax, p.cy + p.ay},
                  {p.cx - p.ax, p.cy + p.ay}};
        radius = 0.0;
        axes = {{1.0, 0.0}, {0.0, 1.0}};
    } else {
        points = p.points;
        radius = p.radius;
        axes = p.axes;
    }
}

// The exact penetration depth of two rounded convex cores: separating axes while the cores
// intersect, the distance between them when they do not.
double generalDepth(const Placed& p, const Placed& q) {
    std::vector<Point> pa, pb, axa, axb;
    double ra = 0, rb = 0;
    asCore(p, pa, ra, axa);
    asCore(q, pb, rb, axb);
    double least = kInf;
    axa.insert(axa.end(), axb.begin(), axb.end());
    for (const Point u : axa) {
        double minA = kInf, maxA = -kInf, minB = kInf, maxB = -kInf;
        for (const Point v : pa) {
            const double d = v.x * u.x + v.y * u.y;
            minA = std::min(minA, d);
            maxA = std::max(maxA, d);
        }
        for (const Point v : pb) {
            const double d = v.x * u.x + v.y * u.y;
            minB = std::min(minB, d);
            maxB = std::max(maxB, d);
        }
        const double o = std::min(maxA - minB, maxB - minA);
        if (o < 0.0) return ra + rb - coreDistance(pa, pb);
        least = std::min(least, o);
    }
    if (least == kInf) return ra + rb - std::hypot(pa[0].x - pb[0].x, pa[0].y - pb[0].y);
    return ra + rb + least;
}

double depth(const Placed& p0, const Placed& q0) {
    if (p0.kind == Placed::Circle && q0.kind == Placed::Circle)
        return p0.radius + q0.radius - std::hypot(q0.cx - p0.cx, q0.cy - p0.cy);
    if (p0.kind == Placed::Box && q0.kind == Placed::Box)
        return std::min(p0.ax + q0.ax - std::fabs(q0.cx - p0.cx),
                        p0.ay + q0.ay - std::fabs(q0.cy - p0.cy));
    if (p0.kind != Placed::Core && q0.kind != Placed::Core) {
        const Placed& circle = p0.kind == Placed::Circle ? p0 : q0;
        const Placed& box = p0.kind == Placed::Circle ? q0 : p0;
        const double dx = circle.cx - box.cx, dy = circle.cy - box.cy;
        if (std::fabs(dx) <= box.ax && std::fabs(dy) <= box.ay)
            return circle.radius + std::min(box.ax - std::fabs(dx), box.ay - std::fabs(dy));
        const double nx = std::clamp(dx, -box.ax, box.ax), ny = std::clamp(dy, -box.ay, box.ay);
        return circle.radius - std::hypot(dx - nx, dy - ny);
    }
    if (std::fabs(q0.cx - p0.cx) > p0.ax + q0.ax || std::fabs(q0.cy - p0.cy) > p0.ay + q0.ay)
        return -1.0;
    return generalDepth(p0, q0);
}

bool shouldCollide(const Filter& a, const Filter& b) {
    if (a.groupIndex == b.groupIndex && a.groupIndex != 0) return a.groupIndex > 0;
    return (a.categoryBits & b.maskBits) != 0 && (b.categoryBits & a.maskBits) != 0;
}

double shapeArea(const ShapeDesc& shape) {
    const double r = shape.radius;
    switch (shape.kind) {
    case ShapeType::Circle: return std::numbers::pi * r * r;
    case ShapeType::Box: return 4.0 * double{shape.halfExtents.x} * double{shape.halfExtents.y};
    case ShapeType::Polygon: {
        const auto& v = shape.vertices;
        double area = 0, perimeter = 0;
        for (std::size_t k = 0; k < v.size(); ++k) {
            const Vec2 a = v[k], b = v[(k + 1) % v.size()];
            area += 0.5 * (double{a.x} * double{b.y} - double{b.x} * double{a.y});
            perimeter += std::hypot(double{b.x} - double{a.x}, double{b.y} - double{a.y});
        }
        return r > 0.0 ? area + perimeter * r + std::numbers::pi * r * r : area;
    }
    case ShapeType::Capsule: {
        const double length = std::hypot(double{shape.point2.x} - double{shape.point1.x},
                                         double{shape.point2.y} - double{shape.point1.y});
        return 2.0 * r * length + std::numbers::pi * r * r;
    }
    case ShapeType::Segment:
    case ShapeType::ChainSegment: return 0.0;
    }
    return 0.0;
}

double massOf(const BodyDesc& body) {
    double mass = 0;
    for (const ShapeDesc& shape : body.shapes) mass += double{shape.def.density} * shapeArea(shape);
    return mass;
}

// Outward-rounded float bounds, so the broad phase's candidates include every pair whose double
// bounds overlap.
AABB floatBounds(const Placed& p) {
    const auto down = [](double v) {
        return std::nextafter(static_cast<float>(std::clamp(v, -double{FLT_MAX}, double{FLT_MAX})),
                              -FLT_MAX);
    };
    const auto up = [](double v) {
        return std::nextafter(static_cast<float>(std::clamp(v, -double{FLT_MAX}, double{FLT_MAX})),
                              FLT_MAX);
    };
    return {{down(p.cx - p.ax), down(p.cy - p.ay)}, {up(p.cx + p.ax), up(p.cy + p.ay)}};
}

} // namespace

Quality measureQuality(const SceneDesc& scene, const std::vector<FinalBody>& final) {
    if (final.size() != scene.bodies.size())
        throw scene_file::SceneFileError("final state has " + std::to_string(final.size()) +
                                         " bodies, the scene " +
                                         std::to_string(scene.bodies.size()));
    if (!scene.hasBounds)
        throw scene_file::SceneFileError(scene.name + ": the scene has no bounds");
    Quality q;
    std::vector<double> displacements;
    for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
        const BodyDesc& body = scene.bodies[i];
        if (body.def.type != BodyType::Dynamic) continue;
        ++q.dynamicBodies;
        const FinalBody& f = final[i];
        const AABB& b = scene.bounds;
        if (!std::isfinite(f.x) || !std::isfinite(f.y) ||
            !(double{b.lower.x} <= f.x && f.x <= double{b.upper.x} && double{b.lower.y} <= f.y &&
              f.y <= double{b.upper.y})) {
            ++q.escaped;
            continue;
        }
        q.kineticEnergy += 0.5 * massOf(body) * (f.vx * f.vx + f.vy * f.vy);
        displacements.push_back(
            std::hypot(f.x - double{body.def.position.x}, f.y - double{body.def.position.y}));
    }
    if (!displacements.empty()) {
        q.maxDisplacement = *std::max_element(displacements.begin(), displacements.end());
        double sum = 0;
        for (const double d : displacements) sum += d;
        q.meanDisplacement = sum / static_cast<double>(displacements.size());
    }

    std::vector<Placed> shapes = placeShapes(scene, final);
    std::erase_if(shapes, [](const Placed& p) {
        return !std::isfinite(p.cx) || !std::isfinite(p.cy) || !std::isfinite(p.ax) ||
               !std::isfinite(p.ay);
    });
    std::set<std::pair<std::size_t, std::size_t>> apart; // joined bodies that may not collide
    if (scene.version >= 2)
        for (const JointDesc& j : scene.joints)
            if (!j.collideConnected)
                apart.insert(std::minmax(static_cast<std::size_t>(j.bodyA),
                                         static_cast<std::size_t>(j.bodyB)));
    const auto bodyType = [&](std::size_t i) { return scene.bodies[i].def.type; };

    // Candidate pairs from the engine's own broad phase: any kind finds every overlapping pair.
    const std::unique_ptr<BroadPhase> broadPhase = makeBroadPhase(BroadPhaseType::SpatialHash);
    for (std::size_t n = 0; n < shapes.size(); ++n)
        (void)broadPhase->insert(floatBounds(shapes[n]), n);
    const auto shapeOf = [&](ProxyId id) -> const Placed& {
        return shapes[broadPhase->userData(id)];
    };
    std::vector<ProxyPair> pairs;
    broadPhase->findPairs(pairs);
    double sum = 0;
    for (const ProxyPair& pair : pairs) {
        const Placed& p = shapeOf(pair.a);
        const Placed& r = shapeOf(pair.b);
        if (p.body == r.body) continue;
        if (scene.version >= 2) {
            if (bodyType(p.body) != BodyType::Dynamic && bodyType(r.body) != BodyType::Dynamic)
                continue;
            if (!shouldCollide(p.filter, r.filter)) continue;
            if (apart.contains(std::minmax(p.body, r.body))) continue;
        } else if (bodyType(p.body) == BodyType::Static && bodyType(r.body) == BodyType::Static) {
            continue;
        }
        const double d = depth(p, r);
        if (d > 0.0) {
            ++q.overlaps;
            q.maxOverlap = std::max(q.maxOverlap, d);
            sum += d;
        }
    }
    if (q.overlaps > 0) q.meanOverlap = sum / q.overlaps;
    if (!scene.joints.empty()) q.jointError = measureJoints(scene, final);
    return q;
}

std::string qualityJson(const Quality& q) {
    std::string out = "{\"escaped\": " + std::to_string(q.escaped) +
                      ", \"dynamic_bodies\": " + std::to_string(q.dynamicBodies) +
                      ", \"overlaps\": " + std::to_string(q.overlaps) +
                      ", \"max_overlap\": " + jsonNumber(q.maxOverlap) +
                      ", \"mean_overlap\": " + jsonNumber(q.meanOverlap) +
                      ", \"kinetic_energy\": " + jsonNumber(q.kineticEnergy) +
                      ", \"max_displacement\": " + jsonNumber(q.maxDisplacement) +
                      ", \"mean_displacement\": " + jsonNumber(q.meanDisplacement);
    if (q.jointError) {
        const JointError& j = *q.jointError;
        out += ", \"joint_error\": {\"joints\": " + std::to_string(j.joints) +
               ", \"max\": " + jsonNumber(j.max) + ", \"mean\": " + jsonNumber(j.mean);
        if (j.nonfinite > 0) out += ", \"nonfinite\": " + std::to_string(j.nonfinite);
        out += "}";
    }
    return out + "}";
}

} // namespace rigid2d::bench
