#pragma once
/// `DebugDraw` on a Cairo context: anti-aliased shapes in camera coordinates.

#include <cairo.h>

#include "camera.hpp"
#include "rigid2d/debug_draw.hpp"

namespace rigid2d::demos {

class CairoDraw final : public DebugDraw {
public:
    CairoDraw(cairo_t* cr, const Camera& camera) : m_cr(cr), m_camera(camera) {}

    void drawCircle(Vec2 center, float radius, float angle, Color fill, Color outline) override;
    void drawBox(const AABB& box, Color fill, Color outline) override;
    void drawAABB(const AABB& box, Color color) override;
    void drawSegment(Vec2 a, Vec2 b, Color color) override;
    void drawPolygon(std::span<const Vec2> vertices, float radius, Color fill,
                     Color outline) override;
    void drawPoint(Vec2 p, float size, Color color) override;
    void drawText(Vec2 p, std::string_view text, Color color) override;

private:
    void setColor(Color color);
    /// Outlines stay one pixel wide at any zoom, but thinner than tiny shapes.
    [[nodiscard]] double lineWidthFor(double shapePixels) const;

    cairo_t* m_cr;
    const Camera& m_camera;
};

} // namespace rigid2d::demos
