#include "island/sleep_islands.hpp"

#include <atomic>
#include <utility>

#include "core/parallel_for.hpp"

namespace rigid2d::detail {

namespace {
// Items per piece: a body or a link is a few nanoseconds of work (a union a cache miss or two).
constexpr std::int32_t kBodiesPerPiece = 2048;
constexpr std::int32_t kLinksPerPiece = 2048;

/// A value that workers share (kShared) is read and written through relaxed atomics: every
/// result below is the same whatever order the writes land in.
template <bool kShared, class T>
[[nodiscard]] T loadShared(T& value) noexcept {
    if constexpr (kShared)
        return std::atomic_ref<T>(value).load(std::memory_order_relaxed);
    else
        return value;
}

template <bool kShared, class T>
void storeShared(T& value, T newValue) noexcept {
    if constexpr (kShared)
        std::atomic_ref<T>(value).store(newValue, std::memory_order_relaxed);
    else
        value = newValue;
}

/// The parent array, read and written through atomics when workers share it (kShared). A
/// non-root's parent only ever moves to another of its ancestors (path halving), so a worker that
/// reads an older parent still climbs its own tree; parent[i] <= i always, so every climb ends.
template <bool kShared>
struct Forest {
    std::uint32_t* parent;

    [[nodiscard]] std::uint32_t load(std::uint32_t i) const noexcept {
        return loadShared<kShared>(parent[i]);
    }
    void store(std::uint32_t i, std::uint32_t value) const noexcept {
        storeShared<kShared>(parent[i], value);
    }
    /// Puts root `child` under `root` (< child); false if child stopped being a root first.
    [[nodiscard]] bool link(std::uint32_t child, std::uint32_t root) const noexcept {
        if constexpr (kShared) {
            std::uint32_t expected = child;
            return std::atomic_ref<std::uint32_t>(parent[child])
                .compare_exchange_strong(expected, root, std::memory_order_relaxed);
        } else {
            parent[child] = root;
            return true;
        }
    }
    [[nodiscard]] std::uint32_t findRoot(std::uint32_t i) const noexcept {
        for (;;) {
            const std::uint32_t p = load(i);
            if (p == i) return i;
            const std::uint32_t grandparent = load(p);
            if (grandparent != p) store(i, grandparent);
            i = grandparent;
        }
    }
    /// findRoot without writing: others may set their own slot's parent meanwhile.
    [[nodiscard]] std::uint32_t peekRoot(std::uint32_t i) const noexcept {
        for (std::uint32_t p = load(i); p != i; p = load(i)) i = p;
        return i;
    }
    void unite(std::uint32_t a, std::uint32_t b) const noexcept {
        for (;;) {
            a = findRoot(a);
            b = findRoot(b);
            if (a == b) return;
            if (a < b) std::swap(a, b);
            if (link(a, b)) return;
        }
    }
};

/// A flag only ever set to 1, so the order of the writes does not matter.
template <bool kShared>
void raise(std::uint8_t& flag) noexcept {
    storeShared<kShared>(flag, std::uint8_t{1});
}

template <bool kShared>
std::size_t findIslands(const WorldDef& def, std::span<const float> sleepTimes,
                        std::span<const std::uint32_t> links, float timeToSleep,
                        std::uint32_t* parent, std::uint8_t* rested, std::uint8_t* awake,
                        std::uint8_t* sleeps) {
    const Forest<kShared> forest{parent};
    const auto count = static_cast<std::int32_t>(sleepTimes.size());
    parallelFor(def, count, kBodiesPerPiece,
                [&](std::int32_t begin, std::int32_t end, std::int32_t) {
                    for (auto i = static_cast<std::uint32_t>(begin);
                         i < static_cast<std::uint32_t>(end); ++i) {
                        parent[i] = i;
                        const bool hasRested = !(sleepTimes[i] < timeToSleep);
                        rested[i] = hasRested ? 1 : 0;
                        awake[i] = hasRested ? 0 : 1;
                    }
                });
    parallelFor(def, static_cast<std::int32_t>(links.size() / 2), kLinksPerPiece,
                [&](std::int32_t begin, std::int32_t end, std::int32_t) {
                    for (auto k = static_cast<std::size_t>(begin);
                         k < static_cast<std::size_t>(end); ++k) {
                        const std::uint32_t a = links[2 * k], b = links[2 * k + 1];
                        if (rested[a] != 0 && rested[b] != 0)
                            forest.unite(a, b);
                        else if (rested[a] != 0)
                            raise<kShared>(awake[a]);
                        else if (rested[b] != 0)
                            raise<kShared>(awake[b]);
                    }
                });
    // Each slot's own parent becomes its root, and a body that keeps its island awake tells the
    // root. Only roots are raised here, and a root raising itself changes nothing.
    std::atomic<std::size_t> islands{0};
    parallelFor(def, count, kBodiesPerPiece,
                [&](std::int32_t begin, std::int32_t end, std::int32_t) {
                    std::size_t roots = 0;
                    for (auto i = static_cast<std::uint32_t>(begin);
                         i < static_cast<std::uint32_t>(end); ++i) {
                        const std::uint32_t root = forest.peekRoot(i);
                        forest.store(i, root);
                        roots += root == i && rested[i] != 0 ? 1 : 0;
                        if (root != i && loadShared<kShared>(awake[i]) != 0)
                            raise<kShared>(awake[root]);
                    }
                    islands.fetch_add(roots, std::memory_order_relaxed);
                });
    parallelFor(
        def, count, kBodiesPerPiece, [&](std::int32_t begin, std::int32_t end, std::int32_t) {
            for (auto i = static_cast<std::size_t>(begin); i < static_cast<std::size_t>(end); ++i)
                sleeps[i] = static_cast<std::uint8_t>(awake[parent[i]] ^ 1u);
        });
    return islands.load(std::memory_order_relaxed);
}
} // namespace

std::size_t findSleepingIslands(const WorldDef& def, std::span<const float> sleepTimes,
                                std::span<const std::uint32_t> links, float timeToSleep,
                                SleepIslands& out) {
    const std::size_t count = sleepTimes.size();
    out.parent.resize(count);
    out.rested.resize(count);
    out.awake.resize(count);
    out.sleeps.resize(count);
    return runsInParallel(def)
               ? findIslands<true>(def, sleepTimes, links, timeToSleep, out.parent.data(),
                                   out.rested.data(), out.awake.data(), out.sleeps.data())
               : findIslands<false>(def, sleepTimes, links, timeToSleep, out.parent.data(),
                                    out.rested.data(), out.awake.data(), out.sleeps.data());
}

} // namespace rigid2d::detail
