#pragma once
// Turns libFuzzer's bytes into the values the fuzz targets feed the library. Shared by every
// target (api_ops_fuzz, and snapshot_fuzz once World::snapshot exists) so that a byte string means
// the same operations in each of them.

#include <cfloat>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

#include "rigid2d/math.hpp"

namespace rigid2d::fuzz {

class FuzzInput {
public:
    FuzzInput(const std::uint8_t* data, std::size_t size) : m_data(data), m_size(size) {}

    // Past the end every read gives zeros, so a truncated input still decodes to something and
    // libFuzzer's mutations of the length stay meaningful.
    [[nodiscard]] bool empty() const noexcept { return m_pos >= m_size; }

    std::uint8_t byte() noexcept { return m_pos < m_size ? m_data[m_pos++] : 0; }
    std::uint16_t u16() noexcept {
        const auto lo = byte();
        return static_cast<std::uint16_t>(lo | (byte() << 8));
    }
    std::uint32_t u32() noexcept {
        const std::uint32_t lo = u16();
        return lo | (std::uint32_t{u16()} << 16);
    }
    bool flag() noexcept { return (byte() & 1u) != 0; }
    /// A number in [0, n); n > 0.
    std::size_t below(std::size_t n) noexcept { return byte() % n; }

    /// A float that is usually ordinary and often one of the values where limits and overflow
    /// live: a fuzzer mutating raw bits would rarely land exactly on a boundary.
    float number() noexcept {
        const std::uint8_t kind = byte();
        switch (kind & 3u) {
        case 0: {
            // Everyday magnitudes: [-64, 64) in 1/512 steps.
            const auto raw = static_cast<std::int16_t>(u16());
            return static_cast<float>(raw) / 512.0f;
        }
        case 1: return special(kind >> 2);
        case 2: {
            // A power of ten with a sign: walks the whole exponent range.
            const std::uint8_t e = byte();
            const float magnitude = powerOfTen(static_cast<int>(e % 80) - 45);
            return (e & 0x80u) != 0 ? -magnitude : magnitude;
        }
        default: {
            // Raw bits: NaN payloads, denormals, anything.
            const std::uint32_t bits = u32();
            float f;
            std::memcpy(&f, &bits, sizeof f);
            return f;
        }
        }
    }
    /// A float in [0, 1] mostly, sometimes anything.
    float unit() noexcept {
        const std::uint8_t b = byte();
        return b < 240 ? static_cast<float>(b) / 239.0f : number();
    }
    Vec2 vec2() noexcept {
        const float x = number();
        return {x, number()};
    }

private:
    static float special(unsigned i) noexcept {
        constexpr float kInf = std::numeric_limits<float>::infinity();
        constexpr float kValues[] = {0.0f,
                                     -0.0f,
                                     1.0f,
                                     -1.0f,
                                     1e-6f,
                                     9.99e-7f,
                                     1e8f,
                                     1.0001e8f,
                                     1e18f,
                                     1e20f,
                                     1e30f,
                                     3e38f,
                                     FLT_MAX,
                                     -FLT_MAX,
                                     kInf,
                                     -kInf,
                                     std::numeric_limits<float>::quiet_NaN(),
                                     std::numeric_limits<float>::denorm_min(),
                                     FLT_MIN,
                                     FLT_EPSILON,
                                     1e6f,
                                     -1e6f,
                                     1.0000001e6f,
                                     1e-15f,
                                     1.0f / 60.0f,
                                     0.5f,
                                     1.6e38f,
                                     -1.6e38f,
                                     3.14159265f,
                                     1e-3f,
                                     100.0f,
                                     -100.0f};
        return kValues[i % (sizeof kValues / sizeof kValues[0])];
    }
    static float powerOfTen(int e) noexcept {
        float f = 1.0f;
        for (; e > 0; --e) f *= 10.0f;
        for (; e < 0; ++e) f /= 10.0f;
        return f;
    }

    const std::uint8_t* m_data;
    std::size_t m_size;
    std::size_t m_pos = 0;
};

} // namespace rigid2d::fuzz
