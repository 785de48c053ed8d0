#pragma once
// The bookkeeping every built-in broad phase shares: id allocation by the contract's rule (lowest
// never-used id, else the most recently removed one), the stored boxes and user data, the
// argument checks of insert/move/remove/rayCast, and the exhaustive query and ray cast (brute
// force's, and the fallback of structures when a query would visit more cells than there are
// proxies). Implementations keep their own acceleration data.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "rigid2d/broad_phase.hpp"
#include "rigid2d/function_ref.hpp"

namespace rigid2d::detail {

class ProxyTable {
public:
    /// Checks `box` (naming `function`), then stores it. Returns the new id.
    ProxyId insert(std::string_view function, const AABB& box, std::uint64_t userData);
    /// Room for ids below `proxies` without growing.
    void reserve(std::size_t proxies) {
        m_boxes.reserve(proxies);
        m_userData.reserve(proxies);
        m_live.reserve(proxies);
    }
    /// Checks that `proxy` is live and `box` valid, both before anything changes. Inline: it
    /// runs on every move of every proxy; the refusals are out of line.
    void checkMove(std::string_view function, ProxyId proxy, const AABB& box) const {
        checkLive(function, proxy);
        if (!isValidBox(box)) [[unlikely]]
            refuseBox(function, box);
    }
    /// The move of every kind: checkMove, then the box stored. Returns the stored box, which
    /// the caller reads from then on rather than `box`; `previous`, if given, receives the box
    /// it replaced (once the proxy is known live, before anything changes).
    ///
    /// It reads `box` one float at a time. A caller often writes the box it passes just before
    /// the call, and a compiler that does not vectorise the temporary (GCC 12 at -O2) writes it
    /// one float at a time; one 16-byte load of four 4-byte stores still on their way to the
    /// cache cannot take its bytes from them and waits until they arrive. 100,000 moves a frame
    /// from churn's loop built at -O2 took 0.87 ms so and take 0.34 ms by fields; from the same
    /// loop built at -O3 (it then stores the box whole, as rigid2d-bench's does), 0.235 and 0.26.
    const AABB& move(std::string_view function, ProxyId proxy, const AABB& box,
                     AABB* previous = nullptr) {
        checkLive(function, proxy);
        AABB& stored = m_boxes[toIndex(proxy)];
        if (previous != nullptr) *previous = stored;
#if defined(__SSE2__)
        const __m128 fields = loadByField(box);
        if (!isValidBox(fields)) [[unlikely]]
            refuseBox(function, box);
        _mm_storeu_ps(&stored.lower.x, fields);
#else
        if (!isValid(box)) [[unlikely]]
            refuseBox(function, box);
        stored = box;
#endif
        return stored;
    }
#if defined(__SSE2__)
    /// The four floats of `box` in lanes 0 to 3 (lower x, lower y, upper x, upper y), by four
    /// scalar loads that the compiler does not merge into one (see move).
    [[nodiscard]] static __m128 loadByField(const AABB& box) noexcept {
        static_assert(sizeof(AABB) == 4 * sizeof(float));
        const __m128 lower = _mm_unpacklo_ps(_mm_load_ss(&box.lower.x), _mm_load_ss(&box.lower.y));
        const __m128 upper = _mm_unpacklo_ps(_mm_load_ss(&box.upper.x), _mm_load_ss(&box.upper.y));
        return _mm_movelh_ps(lower, upper);
    }
    /// isValid(box) in a few vector instructions (it runs for every move). Like isValid, it
    /// tests the exponent bits first, so that a NaN never reaches a float comparison.
    [[nodiscard]] static bool isValidBox(__m128 fields) noexcept {
        const __m128i bits = _mm_castps_si128(fields);
        const __m128i exponent = _mm_set1_epi32(0x7f800000);
        if (_mm_movemask_epi8(_mm_cmpeq_epi32(_mm_and_si128(bits, exponent), exponent)) != 0)
            return false;
        // lower <= upper in lanes 0 and 1
        return (_mm_movemask_ps(_mm_cmple_ps(fields, _mm_movehl_ps(fields, fields))) & 3) == 3;
    }
    [[nodiscard]] static bool isValidBox(const AABB& box) noexcept {
        return isValidBox(loadByField(box));
    }
#else
    [[nodiscard]] static bool isValidBox(const AABB& box) noexcept { return isValid(box); }
#endif
    /// moveMany's checks (naming `function`): spans of one size, every id live, every box
    /// valid, all before anything changes.
    void checkMoveMany(std::string_view function, std::span<const ProxyId> proxies,
                       std::span<const AABB> boxes) const {
        if (proxies.size() != boxes.size()) [[unlikely]]
            refuseSizes(function, proxies.size(), boxes.size());
        if (!allLiveAndValid(proxies, boxes)) [[unlikely]]
            refuseMoveMany(function, proxies, boxes);
    }
    /// moveMany's refusal of spans of different sizes (also the interface's default's).
    [[noreturn]] static void refuseSizes(std::string_view function, std::size_t proxies,
                                         std::size_t boxes);
    /// Stores the box of a live proxy, both checked by the caller (checkMoveMany).
    void setCheckedBox(ProxyId proxy, const AABB& box) noexcept { m_boxes[toIndex(proxy)] = box; }
    /// setCheckedBox for each pair in order (the last box of an id listed twice stays).
    void setCheckedBoxes(std::span<const ProxyId> proxies, std::span<const AABB> boxes) noexcept {
        for (std::size_t i = 0; i < proxies.size(); ++i) setCheckedBox(proxies[i], boxes[i]);
    }
    void checkLive(std::string_view function, ProxyId proxy) const {
        if (!isLive(proxy)) [[unlikely]]
            refuseNotLive(function, proxy);
    }
    /// Frees a live id (checked by the caller with checkLive).
    void remove(ProxyId proxy);

    [[nodiscard]] bool isLive(ProxyId proxy) const noexcept {
        const auto index = toIndex(proxy);
        return index < m_live.size() && m_live[index] != 0;
    }
    [[nodiscard]] const AABB& box(ProxyId proxy) const { return m_boxes[toIndex(proxy)]; }
    [[nodiscard]] std::uint64_t userData(ProxyId proxy) const { return m_userData[toIndex(proxy)]; }
    /// Live proxies.
    [[nodiscard]] std::size_t size() const noexcept { return m_size; }
    /// Ids handed out so far (live or free): every live id is below this.
    [[nodiscard]] std::uint32_t capacity() const noexcept {
        return static_cast<std::uint32_t>(m_boxes.size());
    }
    [[nodiscard]] const std::vector<AABB>& boxes() const noexcept { return m_boxes; }
    [[nodiscard]] const std::vector<std::uint8_t>& liveFlags() const noexcept { return m_live; }
    [[nodiscard]] std::size_t memoryBytes() const noexcept;
    /// The argument checks of rayCast (naming `function`).
    static void checkRay(std::string_view function, Vec2 origin, Vec2 translation,
                         float maxFraction);
    /// The exhaustive query: every live proxy whose box overlaps `region`, in id order (the
    /// caller has checked the region).
    void queryAll(const AABB& region, FunctionRef<bool(ProxyId)> visit) const;
    /// The exhaustive ray cast: every live proxy's box against the segment, in id order, with
    /// the contract's maxFraction updates (the caller has checked the arguments).
    void rayCastAll(Vec2 origin, Vec2 translation, float maxFraction,
                    FunctionRef<float(ProxyId)> visit) const;
    /// Checks the free list against the live flags.
    void validate() const;

private:
    /// Why `proxy` is not live, as a refusal's text.
    [[nodiscard]] std::string notLiveReason(ProxyId proxy) const;
    [[noreturn]] void refuseNotLive(std::string_view function, ProxyId proxy) const;
    [[noreturn]] static void refuseBox(std::string_view function, const AABB& box);
    /// Whether every id is live and every box valid (spans of one size), in one pass without
    /// a branch per proxy.
    [[nodiscard]] bool allLiveAndValid(std::span<const ProxyId> proxies,
                                       std::span<const AABB> boxes) const noexcept;
    /// Refuses moveMany for its first id that is not live or box that is invalid.
    [[noreturn]] void refuseMoveMany(std::string_view function, std::span<const ProxyId> proxies,
                                     std::span<const AABB> boxes) const;

    std::vector<AABB> m_boxes;
    std::vector<std::uint64_t> m_userData;
    std::vector<std::uint8_t> m_live;
    std::vector<std::uint32_t> m_free; // LIFO
    std::size_t m_size = 0;
};

} // namespace rigid2d::detail
