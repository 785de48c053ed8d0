#pragma once
// The broad-phase workload `churn` (demos/bench/BROADPHASE.md, version 1): N boxes drawn with
// splitmix64 in double precision and rounded to float, moving and bouncing in [0, L]^2 in float
// arithmetic. rigid2d-bench and the peer programs (demos/bench/peers) share this code, so every
// engine sees the same boxes bit for bit and the overlap totals agree.

#include <cmath>
#include <cstdint>
#include <vector>

namespace rigid2d::bench {

class ChurnBoxes {
public:
    ChurnBoxes(int count, std::uint64_t seed) : m_count(count) {
        const double side = std::sqrt(static_cast<double>(count)) * 3.0;
        m_side = static_cast<float>(side);
        for (auto* v : {&m_cx, &m_cy, &m_hx, &m_hy, &m_vx, &m_vy, &m_dx, &m_dy})
            v->resize(static_cast<std::size_t>(count));
        std::uint64_t state = seed;
        // uniform(lo, hi) = lo + (hi - lo) * (top 24 bits / 2^24), in double, then to float.
        const auto uniform = [&](double lo, double hi) {
            state += 0x9E3779B97F4A7C15ull;
            std::uint64_t z = state;
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
            z ^= z >> 31;
            return static_cast<float>(lo + (hi - lo) * (static_cast<double>(z >> 40) / 16777216.0));
        };
        for (std::size_t i = 0; i < m_cx.size(); ++i) {
            m_cx[i] = uniform(0.0, side);
            m_cy[i] = uniform(0.0, side);
            m_hx[i] = uniform(0.25, 1.0);
            m_hy[i] = uniform(0.25, 1.0);
            m_vx[i] = uniform(-0.1, 0.1);
            m_vy[i] = uniform(-0.1, 0.1);
        }
    }

    /// One frame of motion: step, and on leaving [0, L] reverse and clamp (float arithmetic).
    void move() {
        for (std::size_t i = 0; i < m_cx.size(); ++i) {
            const float x = m_cx[i], y = m_cy[i];
            step(m_cx[i], m_vx[i]);
            step(m_cy[i], m_vy[i]);
            m_dx[i] = m_cx[i] - x;
            m_dy[i] = m_cy[i] - y;
        }
    }

    [[nodiscard]] int count() const { return m_count; }
    [[nodiscard]] float lowerX(std::size_t i) const { return m_cx[i] - m_hx[i]; }
    [[nodiscard]] float upperX(std::size_t i) const { return m_cx[i] + m_hx[i]; }
    [[nodiscard]] float lowerY(std::size_t i) const { return m_cy[i] - m_hy[i]; }
    [[nodiscard]] float upperY(std::size_t i) const { return m_cy[i] + m_hy[i]; }
    [[nodiscard]] float halfX(std::size_t i) const { return m_hx[i]; }
    [[nodiscard]] float halfY(std::size_t i) const { return m_hy[i]; }
    /// Velocity (m per frame) and the last frame's displacement, for peers that predict motion.
    [[nodiscard]] float velocityX(std::size_t i) const { return m_vx[i]; }
    [[nodiscard]] float velocityY(std::size_t i) const { return m_vy[i]; }
    [[nodiscard]] float displacementX(std::size_t i) const { return m_dx[i]; }
    [[nodiscard]] float displacementY(std::size_t i) const { return m_dy[i]; }

private:
    void step(float& c, float& v) const {
        float x = c + v;
        if (x < 0.0f || x > m_side) {
            v = -v;
            x = x < 0.0f ? 0.0f : m_side;
        }
        c = x;
    }

    int m_count;
    float m_side;
    std::vector<float> m_cx, m_cy, m_hx, m_hy, m_vx, m_vy, m_dx, m_dy;
};

} // namespace rigid2d::bench
