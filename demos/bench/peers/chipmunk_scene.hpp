#pragma once
// The parts of the Chipmunk scene runner that its joints (chipmunk_joints.cpp) need.

#include <chipmunk/chipmunk.h>

#include <utility>
#include <vector>

#include "peer.hpp"

namespace rigid2d::peers {

/// A scene joint becomes several Chipmunk constraints; each piece keeps its kind so the joint's
/// reaction can be summed from the right accumulated impulse.
enum class Piece {
    Pivot,
    Groove,
    Pin,
    Slide,
    Spring,
    RotarySpring,
    RotaryLimit,
    Gear,
    Motor,
    LinearMotor
};
using JointPieces = std::vector<std::pair<Piece, cpConstraint*>>;

/// Builds `joint` between `a` and `b` into `space`; notes what it approximates or maps.
[[nodiscard]] JointPieces makeChipmunkJoint(cpSpace* space, cpBody* a, cpBody* b,
                                            const JointDesc& joint, EngineNotes& notes);
/// The force and torque on body B from the pieces' impulses of the last step of length `dt`.
[[nodiscard]] JointState chipmunkReaction(const JointPieces& pieces, double dt);

} // namespace rigid2d::peers
