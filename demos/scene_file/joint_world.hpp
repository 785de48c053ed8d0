#pragma once
// The joints of a scene file in a World: a JointDesc made into the world's joint of that kind, and
// a live joint read back as a JointDesc (scene_world.cpp builds and captures whole scenes).

#include <span>

#include "rigid2d/world.hpp"
#include "scene_file.hpp"

namespace rigid2d::scene_file::detail {

/// Creates `joint` between `bodies[joint.bodyA]` and `bodies[joint.bodyB]`, which must exist.
JointId createJoint(World& world, const JointDesc& joint, std::span<const BodyId> bodies);

/// The joint as a scene file says it, with its bodies at the indices `bodyA` and `bodyB`; its
/// anchor and axis where they are now, its limits moved to keep the same range from the current
/// pose. The world's kind must be one a file holds (not a mouse joint).
[[nodiscard]] JointDesc captureJoint(const World& world, JointId joint, int bodyA, int bodyB);

} // namespace rigid2d::scene_file::detail
