#pragma once
/// Helpers for unit tests of game physics, with no test-framework dependency.

#include <cstdint>

#include "rigid2d/world.hpp"

namespace rigid2d::testing {

inline constexpr float kDefaultTimeStep = 1.0f / 60.0f;

/// A world with a static floor whose top surface is at y = `floorY`, 2 * `halfWidth` m wide.
[[nodiscard]] World makeWorldWithFloor(const WorldDef& def = {}, float floorY = 0.0f,
                                       float halfWidth = 100.0f);
/// A static box body whose top is at y = `topY` (a floor or a ledge).
BodyId createFloor(World& world, float topY = 0.0f, float halfWidth = 100.0f);
/// A body with one circle centred on it; dynamic by default.
BodyId createCircle(World& world, Vec2 position, float radius, const ShapeDef& shape = {},
                    BodyType type = BodyType::Dynamic);
/// A fixed-rotation body with one axis-aligned box centred on it; dynamic by default. (A box
/// that turns: World::createBox on a body without fixedRotation.)
BodyId createBox(World& world, Vec2 position, Vec2 halfExtents, const ShapeDef& shape = {},
                 BodyType type = BodyType::Dynamic);

/// Steps the world in steps of `dt` until `seconds` have passed; returns the steps taken.
int stepFor(World& world, float seconds, float dt = kDefaultTimeStep);
/// Steps until no dynamic body is awake or `maxSeconds` pass; returns the seconds it took, or a
/// negative number when the world was still awake at the end.
float stepUntilAsleep(World& world, float maxSeconds, float dt = kDefaultTimeStep);

/// FNV-1a over the exact bits of every live body's position, angle and velocities, in slot order:
/// equal hashes mean bit-identical states.
[[nodiscard]] std::uint64_t stateHash(const World& world);
/// Every live body's position, angle and velocities are finite.
[[nodiscard]] bool allFinite(const World& world);
/// Sum of m v over dynamic bodies, kg m/s.
[[nodiscard]] Vec2 totalMomentum(const World& world);
/// Sum of ½ m v² + ½ I ω² over dynamic bodies, joules.
[[nodiscard]] float kineticEnergy(const World& world);
/// Dynamic bodies currently awake.
[[nodiscard]] std::size_t awakeBodyCount(const World& world);

} // namespace rigid2d::testing
