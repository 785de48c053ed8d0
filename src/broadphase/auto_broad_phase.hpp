#pragma once
// The automatic broad phase ("auto"): every built-in kind finds the same pairs, so the world may
// change kinds at any step without changing a single result. This one does so by measurement: it
// runs one kind, and every so often builds another beside it, feeds it the same moves for a few
// frames ("shadowing") and times both; the candidate takes over when it is clearly cheaper.
// Probes come early, then ever less often; a candidate clearly worse is dropped after one search,
// so a probe costs about one extra search. Ids
// are this class's own: each inner kind's ids are mapped to them, so a switch changes no id.

#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "broadphase/built_in_broad_phase.hpp"
#include "rigid2d/broad_phase.hpp"

namespace rigid2d::detail {

class AutoBroadPhase final : public BuiltInBroadPhase {
public:
    explicit AutoBroadPhase(const BroadPhaseConfig& config);

    ProxyId insert(const AABB& box, std::uint64_t userData) override;
    void move(ProxyId proxy, const AABB& box) override;
    void remove(ProxyId proxy) override;
    void collectPairs(std::vector<ProxyPair>& out) override;
    void query(const AABB& region, FunctionRef<bool(ProxyId)> visit) const override;
    void rayCast(Vec2 origin, Vec2 translation, float maxFraction,
                 FunctionRef<float(ProxyId)> visit) const override;
    [[nodiscard]] std::size_t size() const override { return m_proxies.size(); }
    [[nodiscard]] std::string_view name() const override { return "auto"; }
    [[nodiscard]] BroadPhaseStats stats() const override;
    [[nodiscard]] AABB box(ProxyId proxy) const override;
    [[nodiscard]] std::uint64_t userData(ProxyId proxy) const override;
    void validate() const override;
    void debugDraw(DebugDraw& draw) const override;
    /// Brings the active kind (and the probe) up to date.
    void update() override;
    /// The active kind's.
    [[nodiscard]] std::size_t fullSearchFrom() const override;

    /// The kind doing the work now.
    [[nodiscard]] BroadPhaseType active() const noexcept { return m_active.type; }
    /// Hands the work to `type` at once (the probes do this; tests force it).
    void switchTo(BroadPhaseType type);

private:
    /// One inner broad phase, with its ids mapped to ours, and what it has cost.
    struct Inner {
        BroadPhaseType type = BroadPhaseType::SpatialHash;
        std::unique_ptr<BroadPhase> impl;
        std::vector<std::uint32_t> innerOf; ///< by our id
        std::vector<std::uint32_t> ourOf;   ///< by its id
        double searchMs = 0;                ///< findPairs, summed over the measured frames
        double moveMs = 0;                  ///< sampled moves, scaled to all moves
        int frames = 0;
    };

    [[nodiscard]] Inner build(BroadPhaseType type) const;
    void insertInto(Inner& inner, std::uint32_t id, const AABB& box) const;
    void moveIn(Inner& inner, std::uint32_t id, const AABB& box, bool sample);
    [[nodiscard]] static BuiltInBroadPhase& builtIn(const Inner& inner);
    /// Runs inner's collectPairs, timed, with the pairs in our ids (a < b).
    void searchIn(Inner& inner, std::vector<ProxyPair>& out);
    void startProbe();
    void endProbe();

    BroadPhaseConfig m_config;
    Inner m_active;
    Inner m_probe;               ///< the candidate being shadowed, when impl is set
    std::size_t m_frame = 0;     ///< pair searches so far
    std::size_t m_nextProbeAt;   ///< the pair search that starts the next probe
    std::size_t m_probeGap;      ///< searches between probes, doubling up to a bound
    std::size_t m_nextProbe = 0; ///< index into kCandidates
    std::size_t m_switches = 0;
    std::uint32_t m_moveCount = 0; ///< moves since the last findPairs, for the sampling
    std::vector<ProxyPair> m_inner;
};

} // namespace rigid2d::detail
