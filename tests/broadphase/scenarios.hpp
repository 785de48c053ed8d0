#pragma once
// Deterministic box scenes for the broad-phase tests: a splitmix64 generator and the scene shapes
// the conformance suite runs every implementation through (uniform, clustered, 1:10000 sizes,
// cell borders, degenerate boxes, far-away coordinates).

#include <cmath>
#include <cstdint>
#include <vector>

#include "rigid2d/math.hpp"

namespace rigid2d::test {

/// splitmix64: tiny, fast, and the same sequence on every platform.
class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) : m_state(seed) {}

    std::uint64_t next() {
        m_state += 0x9E3779B97F4A7C15ull;
        std::uint64_t z = m_state;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    /// Uniform in [0, 1) with 24 bits, exact in float.
    float unit() { return static_cast<float>(next() >> 40) * (1.0f / 16777216.0f); }
    float uniform(float lo, float hi) { return lo + (hi - lo) * unit(); }
    /// Uniform integer in [0, n).
    std::uint32_t below(std::uint32_t n) {
        return static_cast<std::uint32_t>((next() >> 32) * n >> 32);
    }
    bool chance(float p) { return unit() < p; }
    /// Log-uniform in [lo, hi], lo > 0: every order of magnitude equally likely.
    float logUniform(float lo, float hi) { return std::exp(uniform(std::log(lo), std::log(hi))); }

private:
    std::uint64_t m_state;
};

inline AABB boxAround(Vec2 c, Vec2 half) { return {c - half, c + half}; }

/// A box with its centre uniform in `region` and half extents uniform in [minHalf, maxHalf].
inline AABB randomBox(SplitMix64& rng, const AABB& region, float minHalf, float maxHalf) {
    const Vec2 c{rng.uniform(region.lower.x, region.upper.x),
                 rng.uniform(region.lower.y, region.upper.y)};
    return boxAround(c, {rng.uniform(minHalf, maxHalf), rng.uniform(minHalf, maxHalf)});
}

/// `count` boxes uniform over [0, 100]^2, half extents 0.25..2.
inline std::vector<AABB> uniformScene(SplitMix64& rng, int count) {
    std::vector<AABB> boxes;
    for (int i = 0; i < count; ++i)
        boxes.push_back(randomBox(rng, {{0, 0}, {100, 100}}, 0.25f, 2.0f));
    return boxes;
}

/// Everything inside one unit cell: nearly all pairs overlap.
inline std::vector<AABB> clusteredScene(SplitMix64& rng, int count) {
    std::vector<AABB> boxes;
    for (int i = 0; i < count; ++i)
        boxes.push_back(randomBox(rng, {{10.2f, 10.2f}, {10.8f, 10.8f}}, 0.01f, 0.2f));
    return boxes;
}

/// Half extents log-uniform over 0.01..100 (1:10000), centres over [-500, 500]^2.
inline std::vector<AABB> sizeSpanScene(SplitMix64& rng, int count) {
    std::vector<AABB> boxes;
    for (int i = 0; i < count; ++i) {
        const Vec2 c{rng.uniform(-500, 500), rng.uniform(-500, 500)};
        boxes.push_back(boxAround(c, {rng.logUniform(0.01f, 100), rng.logUniform(0.01f, 100)}));
    }
    return boxes;
}

/// Corners on integer and power-of-two coordinates, so edges lie exactly on the borders of any
/// cell size that is a power of two (0.25 .. 64): touching pairs across cell borders abound.
inline std::vector<AABB> cellBorderScene(SplitMix64& rng, int count) {
    static constexpr float kSteps[] = {0.25f, 0.5f, 1.0f, 2.0f, 4.0f, 8.0f, 16.0f};
    std::vector<AABB> boxes;
    for (int i = 0; i < count; ++i) {
        const float step = kSteps[rng.below(7)];
        const Vec2 lower{step * static_cast<float>(static_cast<int>(rng.below(40)) - 20),
                         step * static_cast<float>(static_cast<int>(rng.below(40)) - 20)};
        const Vec2 size{step * static_cast<float>(rng.below(3)),
                        step * static_cast<float>(rng.below(3))};
        boxes.push_back({lower, lower + size});
    }
    return boxes;
}

/// Points, horizontal and vertical segments and thin boxes on a coarse lattice, so degenerate
/// boxes touch each other and ordinary ones.
inline std::vector<AABB> degenerateScene(SplitMix64& rng, int count) {
    std::vector<AABB> boxes;
    for (int i = 0; i < count; ++i) {
        const Vec2 p{static_cast<float>(rng.below(30)) * 0.5f,
                     static_cast<float>(rng.below(30)) * 0.5f};
        const float len = static_cast<float>(1 + rng.below(6)) * 0.5f;
        switch (rng.below(4)) {
        case 0: boxes.push_back({p, p}); break;                       // point
        case 1: boxes.push_back({p, {p.x + len, p.y}}); break;        // zero height
        case 2: boxes.push_back({p, {p.x, p.y + len}}); break;        // zero width
        default: boxes.push_back({p, {p.x + len, p.y + len}}); break; // ordinary
        }
    }
    return boxes;
}

/// Negative and +-1e6 coordinates: clusters near both corners of [-1e6, 1e6]^2, some boxes
/// around the origin, and a few that span the whole range.
inline std::vector<AABB> farScene(SplitMix64& rng, int count) {
    std::vector<AABB> boxes;
    for (int i = 0; i < count; ++i) {
        switch (rng.below(8)) {
        case 0:
            boxes.push_back({{-1e6f, rng.uniform(-1e6f, 0)}, {1e6f, rng.uniform(0, 1e6f)}});
            break;
        case 1:
        case 2:
            boxes.push_back(randomBox(rng, {{-1e6f, -1e6f}, {-1e6f + 50, -1e6f + 50}}, 0.5f, 3));
            break;
        case 3:
        case 4:
            boxes.push_back(randomBox(rng, {{1e6f - 50, 1e6f - 50}, {1e6f, 1e6f}}, 0.5f, 3));
            break;
        default: boxes.push_back(randomBox(rng, {{-60, -60}, {0, 0}}, 0.5f, 5)); break;
        }
    }
    return boxes;
}

/// Boxes straddling and leaving a small region [-10, 10]^2 (the tests give the grid exactly these
/// world bounds): inside, across the border, and far outside.
inline std::vector<AABB> outsideBoundsScene(SplitMix64& rng, int count) {
    std::vector<AABB> boxes;
    for (int i = 0; i < count; ++i) {
        switch (rng.below(3)) {
        case 0: boxes.push_back(randomBox(rng, {{-10, -10}, {10, 10}}, 0.2f, 1.5f)); break;
        case 1: boxes.push_back(randomBox(rng, {{-12, -12}, {12, 12}}, 1.0f, 4.0f)); break;
        default: boxes.push_back(randomBox(rng, {{-60, -60}, {60, 60}}, 0.2f, 8.0f)); break;
        }
    }
    return boxes;
}

} // namespace rigid2d::test
