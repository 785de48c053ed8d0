// Mass properties as integrals over the shape: area, first moment and polar second moment about
// the body origin, summed over pieces whose integrals are exact (triangles and circular
// sectors), then moved to the centre of mass once. Doubles keep shapes far from their body
// origin accurate; the result is rounded to float at the end.

#include <cmath>
#include <numbers>

#include "core/check.hpp"
#include "rigid2d/geometry.hpp"

namespace rigid2d {
namespace {

struct Point {
    double x = 0.0, y = 0.0;
};

Point toPoint(Vec2 v) { return {v.x, v.y}; }

struct Moments {
    double area = 0.0;
    double firstX = 0.0, firstY = 0.0; ///< the integral of p
    double second = 0.0;               ///< the integral of |p|^2 (polar, about the body origin)

    void addTriangle(Point a, Point b, Point c) {
        const double area2 = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
        const double t = 0.5 * area2;
        area += t;
        firstX += t * (a.x + b.x + c.x) / 3.0;
        firstY += t * (a.y + b.y + c.y) / 3.0;
        // The integral of x^2 over a triangle is area/6 * (x0^2 + x1^2 + x2^2 + x0x1 + x1x2 +
        // x2x0).
        const auto sum = [](double p, double q, double r) {
            return p * p + q * q + r * r + p * q + q * r + r * p;
        };
        second += t / 6.0 * (sum(a.x, b.x, c.x) + sum(a.y, b.y, c.y));
    }

    /// A circular sector of `radius` with its apex at `apex`, opening `angle` (radians) around
    /// the unit direction (ux, uy).
    void addSector(Point apex, double ux, double uy, double angle, double radius) {
        const double a = 0.5 * angle * radius * radius;
        // The sector's centroid lies on its bisector, 4 r sin(angle/2) / (3 angle) from the apex.
        const double d = angle > 0.0 ? 4.0 * radius * std::sin(0.5 * angle) / (3.0 * angle) : 0.0;
        area += a;
        firstX += a * (apex.x + d * ux);
        firstY += a * (apex.y + d * uy);
        second += a * (apex.x * apex.x + apex.y * apex.y) +
                  2.0 * a * d * (apex.x * ux + apex.y * uy) +
                  0.25 * angle * radius * radius * radius * radius;
    }

    void addQuad(Point a, Point b, Point c, Point d) {
        addTriangle(a, b, c);
        addTriangle(a, c, d);
    }

    [[nodiscard]] MassData toMassData(float density) const {
        MassData out;
        if (area <= 0.0) return out;
        const double cx = firstX / area, cy = firstY / area;
        out.mass = static_cast<float>(static_cast<double>(density) * area);
        out.center = {static_cast<float>(cx), static_cast<float>(cy)};
        // Parallel axis theorem, from the body origin to the centre of mass.
        out.rotationalInertia = static_cast<float>(
            static_cast<double>(density) * std::fmax(second - area * (cx * cx + cy * cy), 0.0));
        return out;
    }
};

void requireDensity(const char* function, float density) {
    detail::require(isFinite(density) && density >= 0.0f, function, "density",
                    "must be finite and >= 0", density);
}

} // namespace

MassData computeMass(const Circle& circle, float density) {
    requireDensity("computeMass", density);
    Moments m;
    m.addSector(toPoint(circle.center), 1.0, 0.0, 2.0 * std::numbers::pi, circle.radius);
    return m.toMassData(density);
}

MassData computeMass(const Box& box, float density) {
    requireDensity("computeMass", density);
    const Point c = toPoint(box.center);
    const double hx = box.halfExtents.x, hy = box.halfExtents.y;
    Moments m;
    m.addQuad({c.x - hx, c.y - hy}, {c.x + hx, c.y - hy}, {c.x + hx, c.y + hy},
              {c.x - hx, c.y + hy});
    return m.toMassData(density);
}

MassData computeMass(const Polygon& polygon, float density) {
    requireDensity("computeMass", density);
    const int n = polygon.count;
    Moments m;
    const Point v0 = toPoint(polygon.vertices[0]);
    for (int i = 1; i + 1 < n; ++i)
        m.addTriangle(v0, toPoint(polygon.vertices[i]), toPoint(polygon.vertices[i + 1]));
    const double r = polygon.radius;
    if (r > 0.0) {
        // Rounding adds a strip of width r outside each edge and a sector at each vertex whose
        // angle is the turn between the neighbouring edges' normals.
        for (int i = 0; i < n; ++i) {
            const Point a = toPoint(polygon.vertices[i]);
            const Point b = toPoint(polygon.vertices[(i + 1) % n]);
            const Point normal = toPoint(polygon.normals[i]);
            const Point ao{a.x + r * normal.x, a.y + r * normal.y};
            const Point bo{b.x + r * normal.x, b.y + r * normal.y};
            m.addQuad(a, ao, bo, b);

            const Point before = toPoint(polygon.normals[(i + n - 1) % n]);
            const double turn = std::atan2(before.x * normal.y - before.y * normal.x,
                                           before.x * normal.x + before.y * normal.y);
            double ux = before.x + normal.x, uy = before.y + normal.y;
            const double length = std::sqrt(ux * ux + uy * uy);
            ux /= length;
            uy /= length;
            m.addSector(a, ux, uy, turn, r);
        }
    }
    return m.toMassData(density);
}

MassData computeMass(const Capsule& capsule, float density) {
    requireDensity("computeMass", density);
    const Point a = toPoint(capsule.center1), b = toPoint(capsule.center2);
    const double r = capsule.radius;
    double tx = b.x - a.x, ty = b.y - a.y;
    const double length = std::sqrt(tx * tx + ty * ty);
    Moments m;
    if (length > 0.0) {
        tx /= length;
        ty /= length;
        // The rectangle between the two caps, then a half disc at each end.
        const double nx = -ty * r, ny = tx * r;
        m.addQuad({a.x - nx, a.y - ny}, {b.x - nx, b.y - ny}, {b.x + nx, b.y + ny},
                  {a.x + nx, a.y + ny});
        m.addSector(a, -tx, -ty, std::numbers::pi, r);
        m.addSector(b, tx, ty, std::numbers::pi, r);
    } else {
        m.addSector(a, 1.0, 0.0, 2.0 * std::numbers::pi, r);
    }
    return m.toMassData(density);
}

} // namespace rigid2d
