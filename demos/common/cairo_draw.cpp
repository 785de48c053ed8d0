#include "cairo_draw.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace rigid2d::demos {

void CairoDraw::setColor(Color color) {
    cairo_set_source_rgba(m_cr, color.r, color.g, color.b, color.a);
}

double CairoDraw::lineWidthFor(double shapePixels) const {
    return std::clamp(shapePixels * 0.25, 0.25, 1.0);
}

void CairoDraw::drawCircle(Vec2 center, float radius, float angle, Color fill, Color outline) {
    const Vec2 c = m_camera.toScreen(center);
    const double r = static_cast<double>(radius * m_camera.pixelsPerMeter);
    cairo_new_path(m_cr);
    cairo_arc(m_cr, c.x, c.y, std::max(r, 0.5), 0.0, 2.0 * M_PI);
    setColor(fill);
    cairo_fill_preserve(m_cr);
    setColor(outline);
    cairo_set_line_width(m_cr, lineWidthFor(r));
    cairo_stroke(m_cr);
    if (r >= 4.0) {
        // The radius line shows spin; screen y points down, so the angle's sine is negated.
        cairo_move_to(m_cr, c.x, c.y);
        cairo_line_to(m_cr, static_cast<double>(c.x) + r * std::cos(static_cast<double>(angle)),
                      static_cast<double>(c.y) - r * std::sin(static_cast<double>(angle)));
        cairo_stroke(m_cr);
    }
}

void CairoDraw::drawBox(const AABB& box, Color fill, Color outline) {
    const Vec2 a = m_camera.toScreen({box.lower.x, box.upper.y});
    const Vec2 b = m_camera.toScreen({box.upper.x, box.lower.y});
    const double w = std::max(static_cast<double>(b.x - a.x), 0.5);
    const double h = std::max(static_cast<double>(b.y - a.y), 0.5);
    cairo_new_path(m_cr);
    cairo_rectangle(m_cr, a.x, a.y, w, h);
    setColor(fill);
    cairo_fill_preserve(m_cr);
    setColor(outline);
    cairo_set_line_width(m_cr, lineWidthFor(std::min(w, h)));
    cairo_stroke(m_cr);
}

void CairoDraw::drawPolygon(std::span<const Vec2> vertices, float radius, Color fill,
                            Color outline) {
    const std::size_t n = vertices.size();
    if (n == 0) return;
    cairo_new_path(m_cr);
    auto lineTo = [&](Vec2 world) {
        const Vec2 p = m_camera.toScreen(world);
        cairo_line_to(m_cr, p.x, p.y);
    };
    // Outward normal of the edge a -> b of a counter-clockwise polygon, as an angle.
    auto normalAngle = [](Vec2 a, Vec2 b) {
        return std::atan2(-static_cast<double>(b.x - a.x), static_cast<double>(b.y - a.y));
    };
    if (radius <= 0.0f || n < 2) {
        for (const Vec2 v : vertices) lineTo(v);
    } else {
        // The rounded outline: at each vertex an arc from the previous edge's normal to the next's.
        constexpr int kArcSteps = 8;
        for (std::size_t i = 0; i < n; ++i) {
            const Vec2 prev = vertices[(i + n - 1) % n], v = vertices[i],
                       next = vertices[(i + 1) % n];
            const double from = normalAngle(prev, v);
            double to = normalAngle(v, next);
            if (to < from) to += 2.0 * M_PI;
            for (int k = 0; k <= kArcSteps; ++k) {
                const double a = from + (to - from) * k / kArcSteps;
                lineTo(v + radius * Vec2{static_cast<float>(std::cos(a)),
                                         static_cast<float>(std::sin(a))});
            }
        }
    }
    cairo_close_path(m_cr);
    setColor(fill);
    cairo_fill_preserve(m_cr);
    setColor(outline);
    cairo_set_line_width(m_cr,
                         lineWidthFor(static_cast<double>(radius * m_camera.pixelsPerMeter) + 8.0));
    cairo_stroke(m_cr);
}

void CairoDraw::drawAABB(const AABB& box, Color color) {
    const Vec2 a = m_camera.toScreen({box.lower.x, box.upper.y});
    const Vec2 b = m_camera.toScreen({box.upper.x, box.lower.y});
    cairo_new_path(m_cr);
    cairo_rectangle(m_cr, a.x, a.y, static_cast<double>(b.x - a.x), static_cast<double>(b.y - a.y));
    setColor(color);
    cairo_set_line_width(m_cr, 0.75);
    cairo_stroke(m_cr);
}

void CairoDraw::drawSegment(Vec2 a, Vec2 b, Color color) {
    const Vec2 p = m_camera.toScreen(a);
    const Vec2 q = m_camera.toScreen(b);
    cairo_new_path(m_cr);
    cairo_move_to(m_cr, p.x, p.y);
    cairo_line_to(m_cr, q.x, q.y);
    setColor(color);
    cairo_set_line_width(m_cr, 1.0);
    cairo_stroke(m_cr);
}

void CairoDraw::drawPoint(Vec2 p, float size, Color color) {
    const Vec2 c = m_camera.toScreen(p);
    const double half = 0.5 * static_cast<double>(size);
    cairo_new_path(m_cr);
    cairo_rectangle(m_cr, static_cast<double>(c.x) - half, static_cast<double>(c.y) - half,
                    2.0 * half, 2.0 * half);
    setColor(color);
    cairo_fill(m_cr);
}

void CairoDraw::drawText(Vec2 p, std::string_view text, Color color) {
    const Vec2 c = m_camera.toScreen(p);
    const std::string owned(text);
    cairo_select_font_face(m_cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(m_cr, 12.0);
    setColor(color);
    cairo_move_to(m_cr, c.x, static_cast<double>(c.y) + 12.0);
    cairo_show_text(m_cr, owned.c_str());
}

} // namespace rigid2d::demos
