// The snapshot byte streams: the checksum taken piecewise (as restore reads) equals the checksum
// taken in one go for every length and split, and a reader that sums while reading ends with it.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "core/byte_io.hpp"

using namespace rigid2d::detail;

namespace {

std::vector<std::uint8_t> randomBytes(std::size_t size, unsigned seed) {
    std::mt19937 random(seed);
    std::vector<std::uint8_t> bytes(size);
    for (std::uint8_t& b : bytes) b = static_cast<std::uint8_t>(random());
    return bytes;
}

} // namespace

TEST_CASE("a checksum taken piecewise equals the one taken in one go") {
    for (std::size_t size = 0; size < 80; ++size) {
        const std::vector<std::uint8_t> bytes = randomBytes(size, static_cast<unsigned>(size));
        const std::uint64_t whole = checksum(bytes);
        for (std::size_t split = 0; split <= size; ++split) {
            Checksum sum(bytes);
            sum.upTo(split);
            sum.upTo(split); // taking in the same bytes again changes nothing
            CHECK(sum.finish() == whole);
        }
    }
}

TEST_CASE("the checksum sees every byte, its position and the length") {
    const std::vector<std::uint8_t> bytes = randomBytes(45, 3);
    const std::uint64_t whole = checksum(bytes);
    for (std::size_t at = 0; at < bytes.size(); ++at) {
        std::vector<std::uint8_t> flipped = bytes;
        flipped[at] ^= 0x10;
        CHECK(checksum(flipped) != whole);
    }
    const std::vector<std::uint8_t> shorter(bytes.begin(), bytes.end() - 1);
    CHECK(checksum(shorter) != whole);
}

TEST_CASE("a reader that sums while reading has taken in everything it read") {
    std::vector<std::uint8_t> bytes;
    ByteWriter writer(bytes);
    for (std::uint32_t i = 0; i < 30; ++i) writer.put(i * 2654435761u);
    writer.put(1.5f);
    writer.put(true);
    writer.finish();
    Checksum sum(bytes);
    ByteReader reader(bytes, "test");
    reader.sumWhileReading(sum);
    for (std::uint32_t i = 0; i < 30; ++i) CHECK(reader.get<std::uint32_t>() == i * 2654435761u);
    CHECK(reader.get<float>() == 1.5f);
    CHECK(reader.getBool());
    CHECK(reader.remaining() == 0);
    CHECK(sum.finish() == checksum(bytes));
}
