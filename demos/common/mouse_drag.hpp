#pragma once
/// Dragging a body with the mouse through a mouse joint: press over a dynamic body to grab the
/// point under the cursor, move to pull it (the joint's spring, its force capped by the body's
/// weight, so a dragged body pushes others but cannot crush a stack), release to let go.

#include <optional>

#include "rigid2d/world.hpp"

namespace rigid2d::demos {

/// The dynamic body with a shape under `point`, or nothing. Circles are tested exactly, other
/// shapes by their bounding box.
[[nodiscard]] std::optional<BodyId> dynamicBodyAt(const World& world, Vec2 point);

class MouseDrag {
public:
    /// The largest pull, in multiples of the grabbed body's weight at 10 m/s².
    static constexpr float kMaxForcePerWeight = 100.0f;

    /// Grabs the dynamic body under `point` (releasing any earlier grab); false, and nothing
    /// grabbed, over empty space or a static or kinematic body.
    bool press(World& world, Vec2 point);
    /// Moves the grabbed point's target; lets go if the joint or its body is gone.
    void move(World& world, Vec2 target);
    /// Destroys the joint, if it still exists.
    void release(World& world);
    /// Forgets the joint without touching the world: after the world was replaced (restart,
    /// rewind) the id no longer names anything.
    void forget() noexcept { m_joint.reset(); }

    [[nodiscard]] bool active() const noexcept { return m_joint.has_value(); }
    [[nodiscard]] std::optional<JointId> joint() const noexcept { return m_joint; }

private:
    std::optional<JointId> m_joint;
};

} // namespace rigid2d::demos
