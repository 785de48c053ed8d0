#pragma once
// The automatic broad phase ("auto"): every built-in kind finds the same pairs, so the world may
// change kinds at any step without changing a single result. This one does so by measurement: it
// runs one kind, and every so often builds another beside it, feeds it the same moves for a few
// frames ("shadowing") and times both; the candidate takes over when it is clearly cheaper.
//
// The opening kind is guessed from the proxies at the first pair search (first_kind.hpp), so a
// short run, or a world too big for many probes, starts on a good kind. A candidate is built a
// slice per pair search (inserts worth half a frame of the active kind), so no frame pays for a
// whole build. Each proxy goes in with its box of that moment and the moves meanwhile are not
// passed on: at the build's end those that moved are moved in one batch. The candidate's first
// search lays out its memory and is not compared; the next two are.
// What is timed: update and the pair searches, one move in 16 while a candidate is compared (one
// in 256 otherwise: the clock costs more than a move), and then one query in 16 on both kinds
// (the step's continuous collision and the pair search by queries are queries, and a kind can be
// cheap to search and dear to query). Probes come early, then ever less often; a candidate 4 times
// dearer is dropped after its first search, 1.5 times after its next. There are none while the
// active kind costs under a tenth of a millisecond a frame. A build that costs more than a few
// of the active kind's frames in all is abandoned (at once when its pace says it will), and that
// kind is not built again until the frames cost enough to pay for it. Ids are this class's own:
// each inner kind's ids are mapped to them, so a switch changes no id. The boxes are the active
// kind's: a move stores its box once.

#include <algorithm>
#include <array>
#include <atomic>
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
    void moveMany(std::span<const ProxyId> proxies, std::span<const AABB> boxes) override;
    void remove(ProxyId proxy) override;
    void collectPairs(std::vector<ProxyPair>& out) override;
    /// The built-in search, then this frame's probe bookkeeping.
    void collectPairsOf(std::span<const ProxyId> moved, std::vector<ProxyPair>& out) override;
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
    /// Its own and every inner kind's.
    void setWorkers(const WorldDef* def) noexcept override;

    /// The kind doing the work now.
    [[nodiscard]] BroadPhaseType active() const noexcept { return m_active.type; }
    /// Hands the work to `type` at once (the probes do this; tests force it).
    void switchTo(BroadPhaseType type);
    /// Whether a candidate is being built, a slice per search (tests).
    [[nodiscard]] bool buildingCandidate() const noexcept { return m_building; }
    /// Builds every candidate `slots` proxy slots a search, whatever the clock says: no slice cut
    /// short, no build abandoned (tests: on a loaded machine the clock would otherwise decide
    /// whether a build spans searches, or happens at all).
    void capBuildSlice(std::uint32_t slots) noexcept {
        m_sliceSlots = std::max(slots, 1u);
        m_buildByClock = false;
        m_probeFloorMs = 0;
    }
    /// No probe while the active kind costs less than this a frame (tests move it either way).
    void setProbeFloor(double ms) noexcept { m_probeFloorMs = ms; }
    /// Candidates built so far (tests).
    [[nodiscard]] std::size_t probesStarted() const noexcept { return m_probesStarted; }
    /// Full searches a candidate answered in the active kind's place (tests).
    [[nodiscard]] std::size_t candidateAnswers() const noexcept { return m_candidateAnswers; }

private:
    /// One inner broad phase, with its ids mapped to ours, and what it has cost.
    struct Inner {
        BroadPhaseType type = BroadPhaseType::SpatialHash;
        std::unique_ptr<BroadPhase> impl;
        std::vector<std::uint32_t> innerOf; ///< by our id
        std::vector<std::uint32_t> ourOf;   ///< by its id
        double searchMs = 0; ///< update and findPairs, summed over the measured frames
        double moveMs = 0;   ///< sampled moves, scaled to all moves
        /// Every id is ours (ids are handed out by one rule: a kind built empty, or from ids
        /// without holes, keeps ours), so its pairs need no mapping.
        bool sameIds = true;
    };

    /// `type` holding every proxy, built at once.
    [[nodiscard]] Inner build(BroadPhaseType type) const;
    void insertInto(Inner& inner, std::uint32_t id, const AABB& box) const;
    /// Our live proxy `id`'s box, as the active kind holds it: the only current copy (ours keeps
    /// the box given at insert, so that a move writes one box, not two).
    [[nodiscard]] const AABB& currentBox(std::uint32_t id) const {
        return builtIn(m_active).proxies().box(ProxyId{m_active.innerOf[id]});
    }
    /// Whether `inner` holds our id `id` (a candidate being built holds only some).
    [[nodiscard]] static bool holds(const Inner& inner, std::uint32_t id) noexcept {
        return id < inner.innerOf.size() && inner.innerOf[id] != kNoId;
    }
    void moveIn(Inner& inner, std::uint32_t id, const AABB& box, bool sample);
    /// moveMany's checked moves into `inner` (which holds every proxy), timed whole.
    void moveManyIn(Inner& inner, std::span<const ProxyId> proxies, std::span<const AABB> boxes);
    [[nodiscard]] static BuiltInBroadPhase& builtIn(const Inner& inner);
    /// Runs inner's collectPairs, timed, with the pairs in our ids (a < b); returns its ms.
    double searchIn(Inner& inner, std::vector<ProxyPair>& out);
    /// Ends or starts a probe when due; called once per pair search.
    void afterSearch();
    [[nodiscard]] double cost(const Inner& inner, int slot) const;
    void startProbe();
    /// Inserts the next slice of proxies into the candidate being built; when all are in, the
    /// shadowing starts (or, over budget, the build is abandoned).
    void buildSlice();
    /// At the build's end: the proxies that moved since they went in get their current boxes.
    void catchUp();
    /// A built candidate is being compared with the active kind: it is told every move.
    [[nodiscard]] bool comparing() const noexcept { return m_probe.impl && !m_building; }
    /// Both kinds' costs from zero: they are compared over the same searches (the active kind's
    /// full searches at the rate it measured before, m_activeSearchMs).
    void restartTiming();
    /// At the first pair search with enough proxies: the opening kind (firstKind).
    void chooseOpening();
    /// What building the grid would cost, until it has been built once.
    [[nodiscard]] double gridLayoutGuessMs() const;
    void endProbe();

    static constexpr std::uint32_t kNoId = 0xFFFFFFFFu;

    BroadPhaseConfig m_config;
    Inner m_active;
    Inner m_probe;               ///< the candidate being shadowed, when impl is set
    std::size_t m_frame = 0;     ///< pair searches so far
    std::size_t m_nextProbeAt;   ///< the pair search that starts the next probe
    std::size_t m_probeGap;      ///< searches between probes, doubling up to a bound
    std::size_t m_nextProbe = 0; ///< index into kCandidates
    std::size_t m_switches = 0;
    std::size_t m_probesStarted = 0;
    std::size_t m_candidateAnswers = 0;
    double m_probeFloorMs;             ///< kProbeFloorMs unless a test says otherwise
    std::uint32_t m_moveSample;        ///< one move in this many is timed
    std::uint32_t m_movesToSample = 1; ///< moves until the next timed one
    std::vector<ProxyPair> m_inner;    ///< an inner kind's pairs, before mapping
    std::vector<ProxyId> m_innerMoved; ///< moveMany's proxies in an inner kind's ids...
    std::vector<AABB> m_innerBoxes;    ///< ...and their boxes
    std::vector<ProxyPair> m_shadow;   ///< the probe's pairs, thrown away
    int m_probeFrames = 0;             ///< pair searches of the probe since its build ended
    bool m_chosen = false;             ///< the opening kind is picked (chooseOpening or switchTo)
    bool m_building = false;           ///< the probe is being built, a slice per search
    std::uint32_t m_buildCursor = 0;   ///< the next id the build inserts
    double m_buildSpentMs = 0;         ///< the build's time so far
    double m_buildBudgetMs = 0;        ///< past this in all, the build is abandoned
    double m_sliceMs = 0;              ///< what one slice may take
    std::uint32_t m_sliceSlots = 0xFFFFFFFFu; ///< and how many slots, at most
    bool m_buildByClock = true;               ///< slices and budget timed (else capBuildSlice)
    bool m_inPairsOf = false;                 ///< collectPairs is being called by collectPairsOf
    double m_activeFrameMs = 0;     ///< the active kind's cost per search, at the last probe's end
    std::size_t m_activeSince = 0;  ///< the search from which the active kind's costs are summed
    double m_queriedMs = 0;         ///< searches by queries since then (not in searchMs)
    std::size_t m_searches = 0;     ///< collectPairs calls (a full search ran, by either kind)
    double m_activeSearchSumMs = 0; ///< the active kind's full searches since then...
    std::size_t m_activeSearches = 0; ///< ...and their number
    /// The active kind's full search, per search, as measured up to the candidate's build end:
    /// what it is charged for each search the candidate answers (0: none measured).
    double m_activeSearchMs = 0;
    std::array<double, std::size(kAllBroadPhaseTypes)>
        m_buildMs{};          ///< by kind, what its last build cost (0: never built)
    bool m_gridBuilt = false; ///< the grid was built once: its layout is no longer guessed
    /// Sampled queries' time (ns) on the active kind [0] and the probe [1], from any thread.
    mutable std::array<std::atomic<std::int64_t>, 2> m_queryNs{};
    mutable std::atomic<std::uint32_t> m_queryCount{0};
};

} // namespace rigid2d::detail
