// churn on Chipmunk2D 7.0.3's spatial indexes used directly: cpBBTree, cpSpaceHash, cpSweep1D.
//
// Every box is inserted once; each frame one cpSpatialIndexReindexQuery re-reads every box's
// bounds through the bounds callback, updates the index and reports each candidate pair once,
// which is what cpSpaceStep does with its dynamic index.

#include <chipmunk/chipmunk.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "peer.hpp"

namespace rigid2d::peers {

namespace {

// Chipmunk's callbacks carry no user data: the boxes of the run and the sweep margin switch.
const bench::ChurnBoxes* g_boxes = nullptr;
bool g_touchMargin = true;

// An object is its box index + 1: cpBBTree treats a null object specially.
void* objectOf(std::size_t i) { return reinterpret_cast<void*>(static_cast<std::intptr_t>(i) + 1); }
std::size_t indexOf(void* object) {
    return static_cast<std::size_t>(reinterpret_cast<std::intptr_t>(object) - 1);
}

cpBB boundsOf(void* object) {
    const std::size_t i = indexOf(object);
    return cpBBNew(g_boxes->lowerX(i), g_boxes->lowerY(i), g_boxes->upperX(i), g_boxes->upperY(i));
}

// cpSweep1D reports a pair only while one box's left edge is strictly below the other's right
// edge, so boxes touching exactly in x (common with float coordinates) would be lost although the
// exact test counts them; one double ulp on the right edge keeps them.
cpBB sweepBoundsOf(void* object) {
    cpBB bounds = boundsOf(object);
    if (g_touchMargin) bounds.r = std::nextafter(bounds.r, INFINITY);
    return bounds;
}

// cpSpace gives its dynamic tree the bodies' velocities (per second); frames count as 1/60 s.
cpVect velocityOf(void* object) {
    const std::size_t i = indexOf(object);
    return cpv(double{g_boxes->velocityX(i)} * 60.0, double{g_boxes->velocityY(i)} * 60.0);
}

struct Tally {
    std::uint64_t candidates = 0, overlaps = 0;
};

cpCollisionID countPair(void* a, void* b, cpCollisionID id, void* data) {
    auto* tally = static_cast<Tally*>(data);
    ++tally->candidates;
    tally->overlaps += boxesOverlap(*g_boxes, indexOf(a), indexOf(b)) ? 1u : 0u;
    return id;
}

class ChipmunkChurn final : public ChurnIndex {
public:
    explicit ChipmunkChurn(ChurnOptions options) : m_options(std::move(options)) {
        if (m_options.index.empty()) m_options.index = "bbtree";
    }
    ~ChipmunkChurn() override {
        if (m_index != nullptr) cpSpatialIndexFree(m_index);
    }
    ChipmunkChurn(const ChipmunkChurn&) = delete;
    ChipmunkChurn& operator=(const ChipmunkChurn&) = delete;

    std::string engine() const override { return "chipmunk-7.0.3"; }
    std::string broadphase() const override { return m_options.index; }
    std::string settingsJson() const override {
        char text[200];
        if (m_options.index == "bbtree")
            std::snprintf(text, sizeof text, "\"velocity_func\": %s",
                          m_options.velocityFunc ? "true" : "false");
        else if (m_options.index == "spatial_hash")
            std::snprintf(text, sizeof text, "\"hash_dim\": %g, \"hash_cells\": %lld", m_hashDim,
                          m_hashCells);
        else
            std::snprintf(text, sizeof text, "\"touch_margin\": %s",
                          m_options.touchMargin ? "true" : "false");
        return text;
    }

    void setup(const bench::ChurnBoxes& boxes) override {
        g_boxes = &boxes;
        g_touchMargin = m_options.touchMargin;
        const auto count = static_cast<std::size_t>(boxes.count());
        if (m_options.index == "bbtree") {
            m_index = cpBBTreeNew(boundsOf, nullptr);
            if (m_options.velocityFunc) cpBBTreeSetVelocityFunc(m_index, velocityOf);
        } else if (m_options.index == "spatial_hash") {
            std::vector<float> sizes(count);
            for (std::size_t i = 0; i < count; ++i)
                sizes[i] = std::max(boxes.halfX(i), boxes.halfY(i));
            std::nth_element(sizes.begin(), sizes.begin() + static_cast<long>(count / 2),
                             sizes.end());
            m_hashDim = m_options.hashDim > 0 ? m_options.hashDim : 2.0 * double{sizes[count / 2]};
            m_hashCells = m_options.hashCells > 0 ? m_options.hashCells : 2LL * boxes.count();
            m_index = cpSpaceHashNew(m_hashDim, static_cast<int>(m_hashCells), boundsOf, nullptr);
        } else {
            m_index = cpSweep1DNew(sweepBoundsOf, nullptr);
        }
        for (std::size_t i = 0; i < count; ++i)
            cpSpatialIndexInsert(m_index, objectOf(i), static_cast<cpHashValue>(i));
    }

    void frame(const bench::ChurnBoxes&, std::uint64_t& candidates,
               std::uint64_t& overlaps) override {
        Tally tally;
        cpSpatialIndexReindexQuery(m_index, countPair, &tally);
        candidates += tally.candidates;
        overlaps += tally.overlaps;
    }

private:
    ChurnOptions m_options;
    cpSpatialIndex* m_index = nullptr;
    double m_hashDim = 0;
    long long m_hashCells = 0;
};

} // namespace

std::unique_ptr<ChurnIndex> makeChipmunkChurn(const ChurnOptions& options) {
    if (!options.index.empty() && options.index != "bbtree" && options.index != "spatial_hash" &&
        options.index != "sweep1d")
        throw UsageError("chipmunk --index must be bbtree, spatial_hash or sweep1d");
    return std::make_unique<ChipmunkChurn>(options);
}

} // namespace rigid2d::peers
