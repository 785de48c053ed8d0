#include "mouse_drag.hpp"

namespace rigid2d::demos {

std::optional<BodyId> dynamicBodyAt(const World& world, Vec2 point) {
    std::optional<BodyId> found;
    const AABB probe{point, point};
    world.queryAABB(probe, [&](ShapeId shape) {
        const BodyId body = world.shapeBody(shape);
        if (world.bodyType(body) != BodyType::Dynamic) return true;
        if (world.shapeType(shape) == ShapeType::Circle) {
            const AABB box = world.shapeAABB(shape);
            const Vec2 d = point - center(box);
            const float r = extents(box).x;
            if (d.x * d.x + d.y * d.y > r * r) return true;
        }
        found = body;
        return false;
    });
    return found;
}

bool MouseDrag::press(World& world, Vec2 point) {
    release(world);
    const std::optional<BodyId> body = dynamicBodyAt(world, point);
    if (!body) return false;
    MouseJointDef def;
    def.body = *body;
    def.target = point;
    def.maxForce = kMaxForcePerWeight * world.mass(*body) * 10.0f;
    m_joint = world.createMouseJoint(def);
    return true;
}

void MouseDrag::move(World& world, Vec2 target) {
    if (!m_joint) return;
    if (!world.isValid(*m_joint)) { // destroyed with its body
        m_joint.reset();
        return;
    }
    world.setJointTarget(*m_joint, target);
}

void MouseDrag::release(World& world) {
    if (m_joint && world.isValid(*m_joint)) world.destroyJoint(*m_joint);
    m_joint.reset();
}

} // namespace rigid2d::demos
