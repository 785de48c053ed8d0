// churn without a broad phase: every pair, every frame, the reference count of candidates.

#include "peer.hpp"

namespace rigid2d::peers {

namespace {

class BruteChurn final : public ChurnIndex {
public:
    std::string engine() const override { return "brute"; }
    std::string broadphase() const override { return "all_pairs"; }
    std::string settingsJson() const override { return {}; }
    void setup(const bench::ChurnBoxes&) override {}
    void frame(const bench::ChurnBoxes& boxes, std::uint64_t& candidates,
               std::uint64_t& overlaps) override {
        const auto count = static_cast<std::size_t>(boxes.count());
        for (std::size_t a = 0; a < count; ++a)
            for (std::size_t b = a + 1; b < count; ++b)
                overlaps += boxesOverlap(boxes, a, b) ? 1u : 0u;
        candidates += count * (count - 1) / 2;
    }
};

} // namespace

std::unique_ptr<ChurnIndex> makeBruteChurn() { return std::make_unique<BruteChurn>(); }

} // namespace rigid2d::peers
