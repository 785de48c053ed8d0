#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>

#include "core/zeroed_vector.hpp"

using rigid2d::detail::assignZeros;
using rigid2d::detail::ZeroedVector;

TEST_CASE("assignZeros gives zeros of the size asked, whatever the vector held") {
    ZeroedVector<std::uint32_t> values;
    // Small blocks come from the heap, blocks of megabytes from the system: both, each after a
    // use that left other values in the vector, larger and smaller.
    for (const std::size_t count : {std::size_t{1000}, std::size_t{3} << 20, std::size_t{64},
                                    std::size_t{5} << 20, std::size_t{1000}}) {
        std::fill(values.begin(), values.end(), 0xDEADBEEFu);
        assignZeros(values, count);
        REQUIRE(values.size() == count);
        CHECK(std::all_of(values.begin(), values.end(), [](std::uint32_t v) { return v == 0; }));
        for (std::size_t i = 0; i < count; i += 4099) values[i] = static_cast<std::uint32_t>(i + 1);
    }
}

TEST_CASE("a ZeroedVector keeps its values when it grows") {
    ZeroedVector<std::uint32_t> values;
    assignZeros(values, 3);
    values = {7, 8, 9};
    values.push_back(10);
    values.resize(values.capacity() + 1); // reallocates: the new slots come from calloc
    CHECK(values[0] == 7);
    CHECK(values[3] == 10);
    CHECK(values.back() == 0);
}
