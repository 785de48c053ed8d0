#pragma once
// Sweep and prune: the min and max endpoints of every proxy on one axis, in one persistent array
// kept sorted across frames by insertion sort (boxes move little per frame, so the array is
// nearly sorted and the sort is close to linear). findPairs sweeps that array once, keeping the
// set of open intervals; each new interval is tested on the other axis against the open ones.
// The sweep axis is the one along which the box centres spread most; it is re-chosen now and
// then, and a switch re-sorts the array from scratch.
//
// insert/move/remove only record what changed; the array catches up in update() (or findPairs).
// Queries and ray casts use the sorted array when it is up to date and scan every proxy
// otherwise.

#include <cstdint>
#include <vector>

#include "broadphase/built_in_broad_phase.hpp"
#include "rigid2d/broad_phase.hpp"

namespace rigid2d::detail {

class SweepAndPrune final : public BuiltInBroadPhase {
public:
    ProxyId insert(const AABB& box, std::uint64_t userData) override;
    void reserve(std::size_t proxies) override;
    void move(ProxyId proxy, const AABB& box) override;
    void moveChecked(std::span<const ProxyId> proxies, std::span<const AABB> boxes) override;
    void remove(ProxyId proxy) override;
    void collectPairs(std::vector<ProxyPair>& out) override;
    void query(const AABB& region, FunctionRef<bool(ProxyId)> visit) const override;
    void rayCast(Vec2 origin, Vec2 translation, float maxFraction,
                 FunctionRef<float(ProxyId)> visit) const override;
    [[nodiscard]] std::size_t size() const override { return m_proxies.size(); }
    [[nodiscard]] std::string_view name() const override { return "sap"; }
    /// Brings the endpoint array up to date: drops removed proxies, adds inserted ones,
    /// refreshes the values, re-chooses the axis now and then, and sorts (close to linear on
    /// coherent motion).
    void update() override;
    /// A query walks every endpoint within the widest interval of its box, the sweep about
    /// every endpoint once: a few moved proxies already make the sweep the cheaper.
    [[nodiscard]] std::size_t fullSearchFrom() const override { return 8; }
    [[nodiscard]] BroadPhaseStats stats() const override;
    [[nodiscard]] AABB box(ProxyId proxy) const override;
    [[nodiscard]] std::uint64_t userData(ProxyId proxy) const override;
    void validate() const override;
    void debugDraw(DebugDraw& draw) const override;

private:
    /// One end of a proxy's interval on the sweep axis. At equal values a min sorts before a
    /// max, so intervals that only touch are open together and reported (closed intervals).
    struct Endpoint {
        float value;
        std::uint32_t tag; // proxy index << 1 | 1 for a max

        [[nodiscard]] std::uint32_t proxy() const noexcept { return tag >> 1; }
        [[nodiscard]] bool isMax() const noexcept { return (tag & 1u) != 0; }
        [[nodiscard]] bool operator<(const Endpoint& other) const noexcept {
            return value < other.value || (value == other.value && (tag & 1u) < (other.tag & 1u));
        }
    };
    /// Per-proxy bookkeeping of what the endpoint array still has to catch up on.
    enum : std::uint8_t { kPendingInsert = 1, kStale = 2 };

    void chooseAxis();
    void refreshValues();
    void sortEndpoints(std::size_t sortedPrefix, bool fromScratch);
    void sweep(std::vector<ProxyPair>& out);
    /// Calls visit with every live proxy whose sweep-axis interval may overlap [lo, hi]; stops
    /// when visit returns false.
    template <class Visit>
    void forCandidates(float lo, float hi, Visit&& visit) const;

    std::vector<Endpoint> m_endpoints; // sorted when !m_dirty
    std::vector<Endpoint> m_scratch;
    // The sweep's open intervals: their other-axis extent and proxy, and per proxy its slot.
    std::vector<float> m_openLower;
    std::vector<float> m_openUpper;
    std::vector<std::uint32_t> m_openProxy;
    std::vector<std::uint32_t> m_openSlot;
    std::vector<std::uint32_t> m_hits;    // open slots that overlap the interval being opened
    std::vector<std::uint8_t> m_flags;    // per proxy: kPendingInsert | kStale
    std::vector<std::uint32_t> m_pending; // proxies inserted since the last update
    std::vector<std::uint32_t> m_stale;   // proxies whose endpoints must be dropped
    int m_axis = 0;
    bool m_dirty = false;            // boxes changed since the array was last brought up to date
    double m_maxWidth = 0.0;         // widest interval on the sweep axis at the last update
    std::uint32_t m_updateCount = 0; // updates so far, to re-choose the axis now and then
    std::size_t m_sizeAtAxisChoice = 0;
    std::size_t m_overlapTests = 0;
};

} // namespace rigid2d::detail
