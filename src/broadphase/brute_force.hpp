#pragma once
// The reference broad phase: every pair, every query, by exhaustive test. Slow and obviously
// right; every other implementation is tested against it.

#include "broadphase/built_in_broad_phase.hpp"
#include "rigid2d/broad_phase.hpp"

namespace rigid2d::detail {

class BruteForce final : public BuiltInBroadPhase {
public:
    ProxyId insert(const AABB& box, std::uint64_t userData) override;
    void move(ProxyId proxy, const AABB& box) override;
    void moveChecked(std::span<const ProxyId> proxies, std::span<const AABB> boxes) override;
    void remove(ProxyId proxy) override;
    void collectPairs(std::vector<ProxyPair>& out) override;
    void query(const AABB& region, FunctionRef<bool(ProxyId)> visit) const override;
    void rayCast(Vec2 origin, Vec2 translation, float maxFraction,
                 FunctionRef<float(ProxyId)> visit) const override;
    [[nodiscard]] std::size_t size() const override { return m_proxies.size(); }
    [[nodiscard]] std::string_view name() const override { return "brute_force"; }
    /// k queries cost k * N tests, findPairs N² / 2.
    [[nodiscard]] std::size_t fullSearchFrom() const override { return size() / 2 + 1; }
    [[nodiscard]] BroadPhaseStats stats() const override;
    [[nodiscard]] AABB box(ProxyId proxy) const override;
    [[nodiscard]] std::uint64_t userData(ProxyId proxy) const override;
    void validate() const override { m_proxies.validate(); }

private:
    std::size_t m_overlapTests = 0;
};

} // namespace rigid2d::detail
