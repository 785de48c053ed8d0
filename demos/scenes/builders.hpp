#pragma once
/// Small helpers the scene files share: a deterministic random source and one-shape bodies.

#include <cstdint>

#include "rigid2d/world.hpp"

namespace rigid2d::demos {

/// xorshift64*: the same sequence on every platform, so scenes are reproducible.
class Random {
public:
    explicit Random(std::uint64_t seed) : m_state(seed ? seed : 0x9E3779B97F4A7C15ull) {}
    std::uint64_t next() noexcept {
        m_state ^= m_state >> 12;
        m_state ^= m_state << 25;
        m_state ^= m_state >> 27;
        return m_state * 0x2545F4914F6CDD1Dull;
    }
    /// Uniform in [lo, hi).
    float uniform(float lo, float hi) noexcept {
        const float unit = static_cast<float>(next() >> 40) * (1.0f / 16777216.0f);
        return lo + (hi - lo) * unit;
    }
    /// Uniform integer in [0, n).
    int below(int n) noexcept { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }

private:
    std::uint64_t m_state;
};

BodyId addBox(World& world, BodyType type, Vec2 position, Vec2 halfExtents,
              const ShapeDef& shape = {}, Vec2 velocity = {0.0f, 0.0f});
BodyId addCircle(World& world, BodyType type, Vec2 position, float radius,
                 const ShapeDef& shape = {}, Vec2 velocity = {0.0f, 0.0f});
/// A free hinge between `a` and `b` at the world point `anchor`.
JointId addHinge(World& world, BodyId a, BodyId b, Vec2 anchor);
/// A static open box: a floor whose top is at `region.lower.y` and two walls up to
/// `region.upper.y`, `thickness` thick, outside `region`.
void addContainer(World& world, const AABB& region, float thickness = 1.0f);

} // namespace rigid2d::demos
