#pragma once
// The conformance harness of the broad-phase tests: a subject broad phase run in lockstep with
// brute_force, compared after every batch (pairs, queries, ray casts, validate(), debug draw),
// and the static-scene driver every test case uses.

#include "broadphase/built_in_broad_phase.hpp"
#include "broadphase/geometry.hpp"
#include "broadphase/scenarios.hpp"
#include "rigid2d/broad_phase.hpp"
#include "rigid2d/error.hpp"
#include <algorithm>
#include <cstdint>
#include <doctest/doctest.h>
#include <initializer_list>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace rigid2d::test {

inline std::string nameOf(BroadPhaseType type) { return std::string(toString(type)); }

/// The segment's entry fraction into `box` when it touches it (same arithmetic as
/// detail::segmentTouchesBox), else a negative value.
inline float entryFraction(Vec2 origin, Vec2 translation, float maxFraction, const AABB& box) {
    float tEnter = 0.0f;
    float tExit = maxFraction;
    for (int axis = 0; axis < 2; ++axis) {
        const float p = origin[axis];
        const float d = translation[axis];
        if (d == 0.0f) {
            if (p < box.lower[axis] || p > box.upper[axis]) return -1.0f;
            continue;
        }
        float t1 = detail::slabFraction(box.lower[axis], p, d);
        float t2 = detail::slabFraction(box.upper[axis], p, d);
        if (t1 > t2) std::swap(t1, t2);
        tEnter = std::max(tEnter, t1);
        tExit = std::min(tExit, t2);
        if (tEnter > tExit) return -1.0f;
    }
    return tEnter;
}

/// Counts what a broad phase draws and checks that every box it draws is valid.
class CheckingDraw final : public DebugDraw {
public:
    void drawCircle(Vec2, float, float, Color, Color) override { ++calls; }
    void drawBox(const AABB& box, Color, Color) override { check(box); }
    void drawAABB(const AABB& box, Color) override { check(box); }
    void drawSegment(Vec2 a, Vec2 b, Color) override {
        CHECK((isFinite(a) && isFinite(b)));
        ++calls;
    }
    void drawPoint(Vec2 p, float, Color) override {
        CHECK(isFinite(p));
        ++calls;
    }
    int calls = 0;

private:
    void check(const AABB& box) {
        CHECK(isValid(box));
        ++calls;
    }
};

struct Ray {
    Vec2 origin;
    Vec2 translation;
    float maxFraction;
};

/// Drives a broad phase under test and brute_force with the same calls and compares them.
class Harness {
public:
    Harness(std::unique_ptr<BroadPhase> subject, std::uint64_t seed)
        : m_subject(std::move(subject)), m_reference(makeBroadPhase(BroadPhaseType::BruteForce)),
          m_rng(seed) {}

    BroadPhase& subject() { return *m_subject; }
    const std::vector<ProxyId>& live() const { return m_live; }

    ProxyId insert(const AABB& box) {
        const std::uint64_t data = m_nextUserData++;
        const ProxyId id = m_subject->insert(box, data);
        const ProxyId expected = m_reference->insert(box, data);
        REQUIRE(id == expected); // the contract's id rule: lowest unused, else last removed
        m_live.push_back(id);
        noteMoved(id);
        return id;
    }
    void move(ProxyId id, const AABB& box) {
        m_subject->move(id, box);
        m_reference->move(id, box);
        noteMoved(id);
    }
    /// One moveMany on the subject, one move each on the reference: a batch must equal its
    /// moves made in order (an id listed twice keeps its last box).
    void moveMany(const std::vector<ProxyId>& ids, const std::vector<AABB>& boxes) {
        m_subject->moveMany(ids, boxes);
        for (std::size_t i = 0; i < ids.size(); ++i) {
            m_reference->move(ids[i], boxes[i]);
            noteMoved(ids[i]);
        }
    }
    void removeAt(std::size_t liveIndex) {
        const ProxyId id = m_live[liveIndex];
        m_subject->remove(id);
        m_reference->remove(id);
        m_live[liveIndex] = m_live.back();
        m_live.pop_back();
        std::erase(m_moved, id);
    }
    void insertAll(const std::vector<AABB>& boxes) {
        for (const auto& box : boxes) insert(box);
    }

    /// Compares everything observable; false (after failing checks) when they differ.
    bool matches() {
        m_subject->validate();
        m_reference->validate();
        bool ok = sameProxies();
        // Queries right after the changes (before update(): right, if maybe slower), after
        // update(), and after findPairs, since a broad phase may catch up lazily in either.
        const AABB bounds = sceneBounds();
        for (int i = 0; i < 4 && ok; ++i) ok = sameQuery(randomRegion(bounds));
        for (int i = 0; i < 4 && ok; ++i) ok = sameRayCast(randomRay(bounds));
        m_subject->update();
        m_subject->validate();
        for (int i = 0; i < 4 && ok; ++i) ok = sameQuery(randomRegion(bounds));
        for (int i = 0; i < 4 && ok; ++i) ok = sameRayCast(randomRay(bounds));
        // The pairs of: what changed in this batch, a few proxies (a query each), every proxy
        // (a full search, for a structure that chooses one), none.
        ok = ok && samePairsOf(m_moved);
        std::vector<ProxyId> few;
        for (int i = 0; i < 3 && !m_live.empty(); ++i) {
            const ProxyId id = m_live[m_rng.below(static_cast<std::uint32_t>(m_live.size()))];
            if (std::find(few.begin(), few.end(), id) == few.end()) few.push_back(id);
        }
        ok = ok && samePairsOf(few) && samePairsOf(m_live) && samePairsOf({});
        m_moved.clear();
        m_subject->validate();
        ok = ok && samePairs();
        m_subject->validate();
        for (int i = 0; i < 10 && ok; ++i) ok = sameQuery(randomRegion(bounds));
        for (int i = 0; i < 10 && ok; ++i) ok = sameRayCast(randomRay(bounds));
        CheckingDraw draw;
        m_subject->debugDraw(draw);
        const BroadPhaseStats stats = m_subject->stats();
        CHECK(stats.proxies == m_reference->size());
        return ok;
    }

    /// Every pair, in order, for bad-input checks that the structure did not change.
    std::vector<ProxyPair> pairs() {
        std::vector<ProxyPair> out;
        m_subject->findPairs(out);
        return out;
    }
    std::vector<ProxyId> queryIds(const AABB& region) {
        std::vector<ProxyId> ids;
        m_subject->query(region, [&](ProxyId id) {
            ids.push_back(id);
            return true;
        });
        std::sort(ids.begin(), ids.end());
        return ids;
    }
    AABB sceneBounds() const {
        if (m_live.empty()) return {{-1, -1}, {1, 1}};
        AABB bounds = m_reference->box(m_live.front());
        for (ProxyId id : m_live) bounds = combine(bounds, m_reference->box(id));
        return bounds;
    }
    SplitMix64& rng() { return m_rng; }

private:
    void noteMoved(ProxyId id) {
        if (std::find(m_moved.begin(), m_moved.end(), id) == m_moved.end()) m_moved.push_back(id);
    }

    /// findPairsOf(moved) against brute force's findPairs kept to the pairs with a moved proxy;
    /// for a built-in kind, collectPairsOf(moved) sorted too (the world's unsorted search).
    bool samePairsOf(const std::vector<ProxyId>& moved) {
        std::vector<ProxyPair> got{{ProxyId{1}, ProxyId{2}}}; // must be cleared
        m_subject->findPairsOf(moved, got);
        m_reference->findPairs(m_expectedPairs);
        std::vector<std::uint8_t> isMoved;
        for (const ProxyId id : moved) {
            if (toIndex(id) >= isMoved.size()) isMoved.resize(toIndex(id) + 1, 0);
            isMoved[toIndex(id)] = 1;
        }
        const auto movedAt = [&](ProxyId id) {
            return toIndex(id) < isMoved.size() && isMoved[toIndex(id)] != 0;
        };
        std::vector<ProxyPair> expected;
        for (const ProxyPair& pair : m_expectedPairs)
            if (movedAt(pair.a) || movedAt(pair.b)) expected.push_back(pair);
        if (got != expected) {
            FAIL_CHECK("findPairsOf " << moved.size() << " proxies differs (" << got.size()
                                      << " vs " << expected.size() << " pairs)");
            return false;
        }
        auto* builtIn = dynamic_cast<detail::BuiltInBroadPhase*>(m_subject.get());
        if (builtIn == nullptr) return true;
        builtIn->collectPairsOf(moved, got);
        std::sort(got.begin(), got.end());
        if (got == expected) return true;
        FAIL_CHECK("collectPairsOf " << moved.size() << " proxies differs (" << got.size() << " vs "
                                     << expected.size() << " pairs)");
        return false;
    }

    bool sameProxies() {
        CHECK(m_subject->size() == m_reference->size());
        for (ProxyId id : m_live) {
            const AABB a = m_subject->box(id);
            const AABB b = m_reference->box(id);
            if (!(a == b) || m_subject->userData(id) != m_reference->userData(id)) {
                FAIL_CHECK("box or userData of proxy " << toIndex(id) << " differs");
                return false;
            }
        }
        return m_subject->size() == m_reference->size();
    }

    bool samePairs() {
        m_subject->findPairs(m_pairs);
        m_reference->findPairs(m_expectedPairs);
        if (m_pairs == m_expectedPairs) return true;
        std::size_t i = 0;
        while (i < m_pairs.size() && i < m_expectedPairs.size() && m_pairs[i] == m_expectedPairs[i])
            ++i;
        // A stream, not string concatenation: GCC 12 at -O3 warns falsely (-Wrestrict) on
        // "literal" + std::string&&.
        auto describe = [this](const std::vector<ProxyPair>& pairs, std::size_t at) {
            std::ostringstream text;
            if (at < pairs.size())
                text << '(' << toIndex(pairs[at].a) << ',' << toIndex(pairs[at].b) << ')';
            else
                text << "end";
            return text.str();
        };
        std::ostringstream where;
        where << "pair #" << i << ": got " << describe(m_pairs, i) << ", expected "
              << describe(m_expectedPairs, i);
        FAIL_CHECK("findPairs differs (" << m_pairs.size() << " vs " << m_expectedPairs.size()
                                         << " pairs), first difference at " << where.str());
        return false;
    }

    /// Regions from a point to the whole scene, some exactly equal to a stored box (edges touch).
    AABB randomRegion(const AABB& bounds) {
        const Vec2 size = bounds.upper - bounds.lower;
        switch (m_rng.below(4)) {
        case 0:
            if (!m_live.empty())
                return m_reference->box(
                    m_live[m_rng.below(static_cast<std::uint32_t>(m_live.size()))]);
            [[fallthrough]];
        case 1: {
            const Vec2 p{m_rng.uniform(bounds.lower.x, bounds.upper.x),
                         m_rng.uniform(bounds.lower.y, bounds.upper.y)};
            return {p, p};
        }
        default: {
            const float scale = m_rng.logUniform(1e-3f, 1.2f);
            const Vec2 half = 0.5f * scale * size;
            const Vec2 c{m_rng.uniform(bounds.lower.x, bounds.upper.x),
                         m_rng.uniform(bounds.lower.y, bounds.upper.y)};
            return {c - half, c + half};
        }
        }
    }

    /// Oblique rays, axis-aligned rays along stored edges, and zero-length ones.
    Ray randomRay(const AABB& bounds) {
        const auto point = [&] {
            const Vec2 margin = 0.1f * (bounds.upper - bounds.lower);
            return Vec2{m_rng.uniform(bounds.lower.x - margin.x, bounds.upper.x + margin.x),
                        m_rng.uniform(bounds.lower.y - margin.y, bounds.upper.y + margin.y)};
        };
        const float maxFraction = m_rng.chance(0.5f) ? 1.0f : m_rng.uniform(0.0f, 1.5f);
        const Vec2 a = point();
        switch (m_rng.below(5)) {
        case 0:
            if (!m_live.empty()) {
                // Along the bottom edge of a stored box, from left of the scene to its right.
                const AABB box = m_reference->box(
                    m_live[m_rng.below(static_cast<std::uint32_t>(m_live.size()))]);
                const float x0 = bounds.lower.x - 1.0f;
                return {{x0, box.lower.y}, {bounds.upper.x + 1.0f - x0, 0.0f}, maxFraction};
            }
            [[fallthrough]];
        case 1:
            if (!m_live.empty()) {
                const AABB box = m_reference->box(
                    m_live[m_rng.below(static_cast<std::uint32_t>(m_live.size()))]);
                const float y0 = bounds.upper.y + 1.0f;
                return {{box.upper.x, y0}, {0.0f, bounds.lower.y - 1.0f - y0}, maxFraction};
            }
            [[fallthrough]];
        case 2: return {a, {0.0f, 0.0f}, maxFraction};
        default: return {a, point() - a, maxFraction};
        }
    }

    bool sameQuery(const AABB& region) {
        const std::vector<ProxyId> got = queryIds(region);
        std::vector<ProxyId> expected;
        m_reference->query(region, [&](ProxyId id) {
            expected.push_back(id);
            return true;
        });
        if (got != expected) {
            FAIL_CHECK("query differs: " << got.size() << " vs " << expected.size() << " proxies");
            return false;
        }
        // Early stop: visit returns false on the k-th proxy, so exactly k are visited.
        if (expected.empty()) return true;
        const std::size_t k = 1 + m_rng.below(static_cast<std::uint32_t>(expected.size()));
        std::size_t visits = 0;
        m_subject->query(region, [&](ProxyId) { return ++visits < k; });
        if (visits != k) {
            FAIL_CHECK("query went on after visit returned false: " << visits
                                                                    << " visits, expected " << k);
            return false;
        }
        return true;
    }

    bool sameRayCast(const Ray& ray) {
        // 1. Every touched proxy, once, when visit keeps maxFraction.
        std::vector<ProxyId> got;
        std::vector<ProxyId> expected;
        m_subject->rayCast(ray.origin, ray.translation, ray.maxFraction, [&](ProxyId id) {
            got.push_back(id);
            return ray.maxFraction;
        });
        m_reference->rayCast(ray.origin, ray.translation, ray.maxFraction, [&](ProxyId id) {
            expected.push_back(id);
            return ray.maxFraction;
        });
        std::sort(got.begin(), got.end());
        if (got != expected) {
            FAIL_CHECK("rayCast differs: " << got.size() << " vs " << expected.size()
                                           << " proxies");
            return false;
        }
        // 2. Closest hit with clipping: visit returns the best entry fraction so far (ties to the
        //    lower id, which stays reachable because the clip is closed).
        ProxyId closest = ProxyId::Null;
        float best = ray.maxFraction;
        bool visitedUntouched = false;
        m_subject->rayCast(ray.origin, ray.translation, ray.maxFraction, [&](ProxyId id) {
            const float t = entryFraction(ray.origin, ray.translation, best, m_reference->box(id));
            if (t < 0.0f) {
                visitedUntouched = true;
                return best;
            }
            if (t < best || (t == best && id < closest) || closest == ProxyId::Null) {
                best = t;
                closest = id;
            }
            return best;
        });
        ProxyId expectedClosest = ProxyId::Null;
        float expectedBest = ray.maxFraction;
        for (ProxyId id : expected) {
            const float t =
                entryFraction(ray.origin, ray.translation, ray.maxFraction, m_reference->box(id));
            if (expectedClosest == ProxyId::Null || t < expectedBest ||
                (t == expectedBest && id < expectedClosest)) {
                expectedBest = t;
                expectedClosest = id;
            }
        }
        // A hit at fraction 0 returns 0, which stops the cast: then any proxy the origin touches
        // may come first, and only the fraction is compared.
        const bool sameProxy =
            closest == expectedClosest ||
            (best == 0.0f && closest != ProxyId::Null &&
             entryFraction(ray.origin, ray.translation, 0.0f, m_reference->box(closest)) == 0.0f);
        if (visitedUntouched || !sameProxy || best != expectedBest) {
            FAIL_CHECK("closest ray hit differs: proxy "
                       << toIndex(closest) << " at " << best << ", expected "
                       << toIndex(expectedClosest) << " at " << expectedBest);
            return false;
        }
        // 3. visit returning 0 stops the cast.
        std::size_t visits = 0;
        m_subject->rayCast(ray.origin, ray.translation, ray.maxFraction, [&](ProxyId) {
            ++visits;
            return 0.0f;
        });
        if (visits != std::min<std::size_t>(1, expected.size())) {
            FAIL_CHECK("rayCast went on after visit returned 0: " << visits << " visits");
            return false;
        }
        return true;
    }

    std::unique_ptr<BroadPhase> m_subject;
    std::unique_ptr<BroadPhase> m_reference;
    SplitMix64 m_rng;
    std::vector<ProxyId> m_live;
    std::vector<ProxyId> m_moved; ///< inserted or moved since the last matches(), live
    std::vector<ProxyPair> m_pairs;
    std::vector<ProxyPair> m_expectedPairs;
    std::uint64_t m_nextUserData = 1000;
};

inline BroadPhaseConfig fixedCellConfig() {
    BroadPhaseConfig config;
    config.cellSize = 1.0f;
    config.finestCellSize = 0.25f;
    return config;
}

inline BroadPhaseConfig smallBoundsConfig() {
    BroadPhaseConfig config;
    config.worldBounds = {{-10, -10}, {10, 10}};
    config.maxGridCells = 256;
    return config;
}

/// Inserts `boxes`, compares; then three batches that move a third of the proxies (jitter,
/// teleport to another box of the scene, or resize), remove a few and insert a few, comparing
/// after each batch; then four batches of such moves alone (which a grid refreshes in place,
/// proxies changing cells batch after batch).
inline void runStaticScene(BroadPhaseType type, const BroadPhaseConfig& config,
                           const std::vector<AABB>& boxes, std::uint64_t seed) {
    auto subject = makeBroadPhase(type, config);
    INFO("broad phase: " << nameOf(type));
    CHECK(std::string(subject->name()) == nameOf(type));
    Harness h(std::move(subject), seed);
    h.insertAll(boxes);
    if (!h.matches()) return;
    SplitMix64& rng = h.rng();
    // A third of the proxies moved: the middle batch of each run through one moveMany (ids may
    // repeat), the others one move each.
    const auto moveSome = [&](bool many) {
        const std::size_t count = h.live().size();
        std::vector<ProxyId> batchIds;
        std::vector<AABB> batchBoxes;
        for (std::size_t i = 0; i < count / 3; ++i) {
            const ProxyId id = h.live()[rng.below(static_cast<std::uint32_t>(count))];
            const AABB other = boxes[rng.below(static_cast<std::uint32_t>(boxes.size()))];
            AABB box = h.subject().box(id);
            switch (rng.below(3)) {
            case 0: {
                const Vec2 d = 0.05f * (box.upper - box.lower) + Vec2{0.01f, 0.01f};
                const Vec2 shift{rng.uniform(-d.x, d.x), rng.uniform(-d.y, d.y)};
                box = {box.lower + shift, box.upper + shift};
                break;
            }
            case 1: box = other; break;
            default: box = {box.lower, box.lower + (other.upper - other.lower)}; break;
            }
            if (!isValid(box)) continue;
            if (many) {
                batchIds.push_back(id);
                batchBoxes.push_back(box);
            } else {
                h.move(id, box);
            }
        }
        h.moveMany(batchIds, batchBoxes);
    };
    for (int batch = 0; batch < 3; ++batch) {
        moveSome(batch == 1);
        for (int i = 0; i < 3 && !h.live().empty(); ++i)
            h.removeAt(rng.below(static_cast<std::uint32_t>(h.live().size())));
        for (int i = 0; i < 3; ++i)
            h.insert(boxes[rng.below(static_cast<std::uint32_t>(boxes.size()))]);
        if (!h.matches()) return;
    }
    for (int batch = 0; batch < 4; ++batch) {
        moveSome(batch == 1);
        if (!h.matches()) return;
    }
}

template <class MakeScene>
inline void runSceneForAllTypes(MakeScene makeScene,
                                std::initializer_list<BroadPhaseConfig> configs) {
    for (BroadPhaseType type : kAllBroadPhaseTypes) {
        std::uint64_t seed = 17;
        for (const BroadPhaseConfig& config : configs) {
            SplitMix64 rng(seed++);
            runStaticScene(type, config, makeScene(rng), seed * 977);
        }
    }
}

} // namespace rigid2d::test
