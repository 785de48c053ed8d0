#pragma once
// World definitions the world tests share.

#include "rigid2d/world.hpp"

namespace rigid2d::testing {

/// A world on the reference broad phase, so that a test of the world does not depend on any
/// other broad phase (those are proven against it in tests/broadphase).
[[nodiscard]] inline WorldDef bruteForceDef() {
    WorldDef def;
    def.broadPhase = BroadPhaseType::BruteForce;
    return def;
}

} // namespace rigid2d::testing
