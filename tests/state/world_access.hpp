#pragma once
// White-box tests reach a world's private state through this friend of World (world.hpp).

#include "rigid2d/world.hpp"
#include "state/world_state.hpp"

namespace rigid2d::detail {
struct WorldAccess {
    static WorldState& state(World& world) { return *world.m_state; }
};
} // namespace rigid2d::detail
