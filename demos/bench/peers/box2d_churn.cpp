// churn on Box2D 2.4.1's b2BroadPhase.
//
// b2BroadPhase keeps no pairs: UpdatePairs reports only pairs with a proxy whose fat box moved
// since the last call, and leaves tracking them to its client. In a Box2D world that client is
// b2ContactManager, which adds a reported pair unless it already has it and each step drops the
// pairs whose fat boxes stopped overlapping. `KnownPairs` plays that part, so each frame's
// candidates are all pairs whose fat boxes overlap, as in a world step.

#include <box2d/box2d.h>

#include <cstdio>
#include <vector>

#include "peer.hpp"

namespace rigid2d::peers {

namespace {

class KnownPairs {
public:
    explicit KnownPairs(std::size_t count) : m_partners(count) {}

    /// UpdatePairs' callback (b2ContactManager::AddPair's signature).
    void AddPair(void* userDataA, void* userDataB) {
        const auto a = static_cast<std::int32_t>(reinterpret_cast<std::intptr_t>(userDataA));
        const auto b = static_cast<std::int32_t>(reinterpret_cast<std::intptr_t>(userDataB));
        // Box2D looks for an existing contact in body B's list.
        for (const std::int32_t other : m_partners[static_cast<std::size_t>(b)])
            if (other == a) return;
        m_pairs.push_back({a, b});
        m_partners[static_cast<std::size_t>(a)].push_back(b);
        m_partners[static_cast<std::size_t>(b)].push_back(a);
    }

    /// Keeps the pairs `stillOverlapping` accepts, counts them and their exact overlaps.
    template <class Keep, class Overlaps>
    void sweep(Keep stillOverlapping, Overlaps overlaps, std::uint64_t& candidates,
               std::uint64_t& overlapCount) {
        for (std::size_t k = 0; k < m_pairs.size();) {
            const auto [a, b] = m_pairs[k];
            if (!stillOverlapping(a, b)) {
                forget(a, b);
                forget(b, a);
                m_pairs[k] = m_pairs.back();
                m_pairs.pop_back();
                continue;
            }
            ++candidates;
            overlapCount += overlaps(a, b) ? 1u : 0u;
            ++k;
        }
    }

private:
    void forget(std::int32_t from, std::int32_t other) {
        auto& list = m_partners[static_cast<std::size_t>(from)];
        for (auto& entry : list) {
            if (entry == other) {
                entry = list.back();
                list.pop_back();
                return;
            }
        }
    }

    struct Pair {
        std::int32_t a, b;
    };
    std::vector<Pair> m_pairs;
    std::vector<std::vector<std::int32_t>> m_partners;
};

b2AABB boundsOf(const bench::ChurnBoxes& boxes, std::size_t i) {
    b2AABB box;
    box.lowerBound.Set(boxes.lowerX(i), boxes.lowerY(i));
    box.upperBound.Set(boxes.upperX(i), boxes.upperY(i));
    return box;
}

class Box2dChurn final : public ChurnIndex {
public:
    std::string engine() const override { return "box2d-2.4.1"; }
    std::string broadphase() const override { return "dynamic_tree"; }
    std::string settingsJson() const override {
        char text[240];
        std::snprintf(text, sizeof text,
                      "\"aabb_extension\": %g, \"aabb_multiplier\": %g, \"final_tree_height\": %d, "
                      "\"final_tree_area_ratio\": %.3f",
                      double{b2_aabbExtension}, double{b2_aabbMultiplier},
                      m_broadPhase.GetTreeHeight(), double{m_broadPhase.GetTreeQuality()});
        return text;
    }

    void setup(const bench::ChurnBoxes& boxes) override {
        const auto count = static_cast<std::size_t>(boxes.count());
        m_pairs = std::make_unique<KnownPairs>(count);
        m_proxies.resize(count);
        for (std::size_t i = 0; i < count; ++i)
            m_proxies[i] = m_broadPhase.CreateProxy(
                boundsOf(boxes, i), reinterpret_cast<void*>(static_cast<std::intptr_t>(i)));
        m_broadPhase.UpdatePairs(m_pairs.get()); // a world's first step does it; not a frame
    }

    void frame(const bench::ChurnBoxes& boxes, std::uint64_t& candidates,
               std::uint64_t& overlaps) override {
        // b2Body::SynchronizeFixtures: every proxy learns its new box and displacement.
        for (std::size_t i = 0; i < m_proxies.size(); ++i)
            m_broadPhase.MoveProxy(m_proxies[i], boundsOf(boxes, i),
                                   b2Vec2(boxes.displacementX(i), boxes.displacementY(i)));
        m_broadPhase.UpdatePairs(m_pairs.get()); // b2ContactManager::FindNewContacts
        // b2ContactManager::Collide: drop pairs whose fat boxes parted, test the others.
        m_pairs->sweep(
            [&](std::int32_t a, std::int32_t b) {
                return m_broadPhase.TestOverlap(m_proxies[static_cast<std::size_t>(a)],
                                                m_proxies[static_cast<std::size_t>(b)]);
            },
            [&](std::int32_t a, std::int32_t b) {
                return boxesOverlap(boxes, static_cast<std::size_t>(a),
                                    static_cast<std::size_t>(b));
            },
            candidates, overlaps);
    }

private:
    b2BroadPhase m_broadPhase;
    std::vector<int32> m_proxies;
    std::unique_ptr<KnownPairs> m_pairs;
};

} // namespace

std::unique_ptr<ChurnIndex> makeBox2dChurn(const ChurnOptions&) {
    return std::make_unique<Box2dChurn>();
}

} // namespace rigid2d::peers
