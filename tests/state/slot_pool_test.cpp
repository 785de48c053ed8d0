// SlotPool: the id rules every kind of world object shares (lowest never used, else the most
// recently freed; generations only grow, 0 is never issued, a wrapped slot is retired).
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "state/slot_pool.hpp"

using rigid2d::detail::SlotPool;

namespace {
struct Slot {
    std::uint32_t generation = 0;
    int value = 0;
};
} // namespace

TEST_CASE("slot pool: new slots in order, then the most recently freed first") {
    SlotPool pool;
    std::vector<Slot> slots;
    for (std::uint32_t i = 0; i < 4; ++i) CHECK(pool.take(slots) == i);
    CHECK(slots.size() == 4);
    slots[1].value = 7;
    pool.release(slots, 1);
    pool.release(slots, 3);
    CHECK(slots[1].value == 0); // emptied
    CHECK(pool.freeList() == std::vector<std::uint32_t>{1, 3});
    CHECK(pool.peek(slots.size()) == 3);
    CHECK(pool.take(slots) == 3);
    CHECK(pool.take(slots) == 1);
    CHECK(pool.take(slots) == 4); // none free: the lowest never used
    CHECK(slots.size() == 5);
}

TEST_CASE("slot pool: generations start at 1, grow on every release, and retire at the wrap") {
    SlotPool pool;
    std::vector<Slot> slots;
    const std::uint32_t first = pool.take(slots);
    CHECK(SlotPool::generationFor(slots[first].generation) == 1);
    slots[first].generation = 1;
    pool.release(slots, first);
    CHECK(SlotPool::generationFor(slots[first].generation) == 2);
    // The last generation a slot can issue: its release would wrap to 0, so it is retired.
    CHECK(pool.take(slots) == first);
    slots[first].generation = std::numeric_limits<std::uint32_t>::max();
    pool.release(slots, first);
    CHECK(slots[first].generation == 0);
    CHECK(pool.freeList().empty());
    CHECK(pool.take(slots) == 1);
}

TEST_CASE("slot pool: peek then claim, with the caller appending the new slot itself") {
    SlotPool pool;
    std::vector<Slot> slots;
    const std::uint32_t index = pool.peek(slots.size());
    CHECK(index == 0);
    slots.emplace_back(); // as createShape does, before anything that may throw
    pool.claim(index, slots);
    CHECK(slots.size() == 1);
    pool.release(slots, 0);
    const std::uint32_t again = pool.peek(slots.size());
    CHECK(again == 0);
    pool.claim(again, slots);
    CHECK(pool.freeList().empty());
    CHECK(slots.size() == 1);
}
