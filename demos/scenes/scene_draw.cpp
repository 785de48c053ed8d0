#include "scene_draw.hpp"

namespace rigid2d::demos {

void drawShape(const World& world, ShapeId shape, DebugDraw& draw, Color fill, Color outline) {
    const AABB box = world.shapeAABB(shape);
    if (world.shapeType(shape) == ShapeType::Box) {
        draw.drawBox(box, fill, outline);
        return;
    }
    // A circle's tight AABB is centred on it and `radius` wide on each side.
    draw.drawCircle(center(box), extents(box).x, world.angle(world.shapeBody(shape)), fill,
                    outline);
}

void drawFrame(DebugDraw& draw, const AABB& box, Color color) {
    const Vec2 a = box.lower;
    const Vec2 b{box.upper.x, box.lower.y};
    const Vec2 c = box.upper;
    const Vec2 d{box.lower.x, box.upper.y};
    draw.drawSegment(a, b, color);
    draw.drawSegment(b, c, color);
    draw.drawSegment(c, d, color);
    draw.drawSegment(d, a, color);
}

} // namespace rigid2d::demos
