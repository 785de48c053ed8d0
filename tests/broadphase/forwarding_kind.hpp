#pragma once
// A user-written broad phase for tests: brute force behind the public interface, overriding none
// of the interface's defaults (moveMany, findPairsOf, update, validate, debugDraw), so that
// tests reach them. Tests derive from it to count calls or to fail them on purpose.

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "rigid2d/broad_phase.hpp"

namespace rigid2d::test {

class BruteForceBehind : public BroadPhase {
public:
    ProxyId insert(const AABB& box, std::uint64_t userData) override {
        return m_inner->insert(box, userData);
    }
    void move(ProxyId proxy, const AABB& box) override { m_inner->move(proxy, box); }
    void remove(ProxyId proxy) override { m_inner->remove(proxy); }
    void findPairs(std::vector<ProxyPair>& out) override { m_inner->findPairs(out); }
    void query(const AABB& region, FunctionRef<bool(ProxyId)> visit) const override {
        m_inner->query(region, visit);
    }
    void rayCast(Vec2 origin, Vec2 translation, float maxFraction,
                 FunctionRef<float(ProxyId)> visit) const override {
        m_inner->rayCast(origin, translation, maxFraction, visit);
    }
    std::size_t size() const override { return m_inner->size(); }
    std::string_view name() const override { return "brute force behind"; }
    BroadPhaseStats stats() const override { return m_inner->stats(); }
    AABB box(ProxyId proxy) const override { return m_inner->box(proxy); }
    std::uint64_t userData(ProxyId proxy) const override { return m_inner->userData(proxy); }

protected:
    std::unique_ptr<BroadPhase> m_inner = makeBroadPhase(BroadPhaseType::BruteForce);
};

} // namespace rigid2d::test
