#pragma once
// Little-endian byte streams for snapshots: the same bytes on every host, so a save made on one
// machine restores on another. Values are copied whole (memcpy of the bit pattern), never printed,
// so a float comes back with exactly its bits (NaN payloads and -0 included).

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/check.hpp"
#include "rigid2d/math.hpp"

namespace rigid2d::detail {

template <class T>
[[nodiscard]] constexpr T toLittleEndian(T value) noexcept {
    static_assert(std::is_unsigned_v<T>);
    if constexpr (std::endian::native == std::endian::little || sizeof(T) == 1) {
        return value;
    } else {
        T swapped = 0;
        for (std::size_t i = 0; i < sizeof(T); ++i) {
            swapped = static_cast<T>((swapped << 8) | (value & 0xFFu));
            value = static_cast<T>(value >> 8);
        }
        return swapped;
    }
}

/// The unsigned integer with the same size as T (the type bytes are stored as).
template <class T>
using StorageOf = std::conditional_t<
    sizeof(T) == 1, std::uint8_t,
    std::conditional_t<sizeof(T) == 2, std::uint16_t,
                       std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;

template <class T>
concept Scalar = std::is_arithmetic_v<T> || std::is_enum_v<T>;

/// Appends to `out` through a cursor: a value costs a bounds compare and a store; the vector grows
/// (doubling) only when the cursor reaches its end, and `finish` trims it to what was written.
class ByteWriter {
public:
    explicit ByteWriter(std::vector<std::uint8_t>& out) : m_out(out), m_at(out.size()) {
        m_out.resize(std::max(m_out.capacity(), m_at + 64));
        m_data = m_out.data();
        m_capacity = m_out.size();
    }

    template <Scalar T>
    void put(T value) {
        StorageOf<T> bits;
        std::memcpy(&bits, &value, sizeof(T));
        bits = toLittleEndian(bits);
        std::memcpy(room(sizeof(T)), &bits, sizeof(T));
    }
    void put(Vec2 v) {
        put(v.x);
        put(v.y);
    }
    void put(const AABB& box) {
        put(box.lower);
        put(box.upper);
    }
    void put(bool value) { put(static_cast<std::uint8_t>(value ? 1 : 0)); }
    void putBytes(std::span<const std::uint8_t> bytes) {
        if (!bytes.empty()) std::memcpy(room(bytes.size()), bytes.data(), bytes.size());
    }
    /// A count, written as u32 (the world's arrays are indexed by u32).
    void putCount(std::size_t count) { put(static_cast<std::uint32_t>(count)); }
    [[nodiscard]] std::size_t size() const noexcept { return m_at; }
    void finish() { m_out.resize(m_at); }

    /// The next `size` bytes, to be filled by the caller (a whole record at once).
    std::uint8_t* room(std::size_t size) {
        if (m_at + size > m_capacity) [[unlikely]]
            grow(size);
        std::uint8_t* at = m_data + m_at;
        m_at += size;
        return at;
    }

private:
    void grow(std::size_t size) {
        m_out.resize(std::max(2 * m_capacity, m_at + size));
        m_data = m_out.data();
        m_capacity = m_out.size();
    }
    // The vector's storage, cached: reading it back through the vector after every store would
    // cost loads (a byte store may alias anything).
    std::vector<std::uint8_t>& m_out;
    std::uint8_t* m_data = nullptr;
    std::size_t m_at;
    std::size_t m_capacity = 0;
};

/// A 64-bit checksum that catches corruption (not tampering): eight bytes per multiply in two
/// independent lanes. Taken piecewise: `upTo(end)` takes in the bytes before `end` in whole
/// 16-byte blocks, `finish` the rest; any split gives the same sum as `checksum(bytes)`. Restore
/// takes the bytes in as it reads them, so the lanes' chains of multiplies run beside the
/// reading instead of in a pass of their own.
class Checksum {
public:
    explicit Checksum(std::span<const std::uint8_t> bytes) noexcept
        : m_bytes(bytes), m_lane{kPrime1 ^ bytes.size(), kPrime2} {}

    /// `end` must not pass the end of the bytes.
    void upTo(std::size_t end) noexcept {
        for (; m_at + 16 <= end; m_at += 16) {
            std::uint64_t words[2];
            std::memcpy(words, m_bytes.data() + m_at, 16);
            m_lane[0] = mix(m_lane[0], toLittleEndian(words[0]));
            m_lane[1] = mix(m_lane[1], toLittleEndian(words[1]));
        }
    }

    [[nodiscard]] std::uint64_t finish() noexcept {
        upTo(m_bytes.size());
        std::size_t at = m_at;
        std::uint64_t lane0 = m_lane[0];
        if (at + 8 <= m_bytes.size()) { // the 8 to 15 bytes left: one more word, then under 8
            std::uint64_t word;
            std::memcpy(&word, m_bytes.data() + at, 8);
            lane0 = mix(lane0, toLittleEndian(word));
            at += 8;
        }
        std::uint64_t tail = 0;
        for (std::size_t shift = 0; at < m_bytes.size(); ++at, shift += 8)
            tail |= std::uint64_t{m_bytes[at]} << shift;
        std::uint64_t h = mix(lane0 ^ (m_lane[1] * kPrime1), tail);
        h ^= h >> 29;
        h *= kPrime2;
        return h ^ (h >> 32);
    }

private:
    static constexpr std::uint64_t kPrime1 = 0x9E3779B185EBCA87ull, kPrime2 = 0xC2B2AE3D27D4EB4Full;
    [[nodiscard]] static std::uint64_t mix(std::uint64_t h, std::uint64_t word) noexcept {
        h ^= word * kPrime2;
        h = (h << 31) | (h >> 33);
        return h * kPrime1;
    }
    std::span<const std::uint8_t> m_bytes;
    std::uint64_t m_lane[2];
    std::size_t m_at = 0;
};

/// The checksum of `bytes` in one go.
[[nodiscard]] inline std::uint64_t checksum(std::span<const std::uint8_t> bytes) noexcept {
    return Checksum(bytes).finish();
}

/// Reads what ByteWriter wrote; every read past the end refuses with `function`'s name, so a
/// truncated or lying input is an Error, never a read out of bounds.
class ByteReader {
public:
    ByteReader(std::span<const std::uint8_t> bytes, std::string_view function)
        : m_bytes(bytes), m_function(function) {}

    template <Scalar T>
    [[nodiscard]] T get() {
        need(sizeof(T));
        StorageOf<T> bits;
        std::memcpy(&bits, m_bytes.data() + m_at, sizeof(T));
        m_at += sizeof(T);
        sumRead();
        bits = toLittleEndian(bits);
        T value;
        std::memcpy(&value, &bits, sizeof(T));
        return value;
    }
    [[nodiscard]] Vec2 getVec2() {
        const float x = get<float>();
        return {x, get<float>()};
    }
    [[nodiscard]] AABB getAABB() {
        const Vec2 lower = getVec2();
        return {lower, getVec2()};
    }
    [[nodiscard]] bool getBool() {
        const auto value = get<std::uint8_t>();
        require(value <= 1, m_function, "bytes", "hold a flag that is neither 0 nor 1");
        return value == 1;
    }
    /// A count of items that each take at least `minItemBytes`: refused when the rest of the
    /// input could not hold them, so a corrupt count cannot make the reader allocate gigabytes.
    [[nodiscard]] std::size_t getCount(std::size_t minItemBytes) {
        const std::size_t count = get<std::uint32_t>();
        require(count <= remaining() / (minItemBytes == 0 ? 1 : minItemBytes), m_function, "bytes",
                "hold a count larger than the data that follows");
        return count;
    }
    /// The next `size` bytes (a whole record), refused when fewer remain.
    [[nodiscard]] const std::uint8_t* take(std::size_t size) {
        need(size);
        const std::uint8_t* at = m_bytes.data() + m_at;
        m_at += size;
        sumRead();
        return at;
    }
    [[nodiscard]] std::size_t remaining() const noexcept { return m_bytes.size() - m_at; }
    /// From now on every read also takes the bytes read so far into `sum` (a Checksum of the
    /// same bytes, which must outlive the reader).
    void sumWhileReading(Checksum& sum) noexcept {
        m_sum = &sum;
        sumRead();
    }
    [[nodiscard]] std::string_view function() const noexcept { return m_function; }

private:
    void need(std::size_t size) const {
        require(remaining() >= size, m_function, "bytes", "are truncated");
    }
    void sumRead() noexcept {
        if (m_sum != nullptr) m_sum->upTo(m_at);
    }
    std::span<const std::uint8_t> m_bytes;
    std::size_t m_at = 0;
    std::string_view m_function;
    Checksum* m_sum = nullptr;
};

} // namespace rigid2d::detail
