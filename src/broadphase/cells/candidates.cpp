#include "broadphase/cells/candidates.hpp"

#include <algorithm>

#include "broadphase/geometry.hpp"

namespace rigid2d::detail {

namespace {
std::vector<std::uint32_t>& threadScratch() {
    thread_local std::vector<std::uint32_t> scratch;
    return scratch;
}
} // namespace

ScratchIds::ScratchIds() {
    ids.swap(threadScratch());
    ids.clear();
}

ScratchIds::~ScratchIds() { threadScratch().swap(ids); }

void visitInIdOrder(std::vector<std::uint32_t>& candidates, FunctionRef<bool(ProxyId)> visit) {
    std::sort(candidates.begin(), candidates.end());
    const auto end = std::unique(candidates.begin(), candidates.end());
    for (auto it = candidates.begin(); it != end; ++it) {
        if (!visit(ProxyId{*it})) return;
    }
}

void visitRayInIdOrder(std::vector<std::uint32_t>& candidates, const std::vector<AABB>& boxes,
                       Vec2 origin, Vec2 translation, float maxFraction,
                       FunctionRef<float(ProxyId)> visit) {
    std::sort(candidates.begin(), candidates.end());
    const auto end = std::unique(candidates.begin(), candidates.end());
    for (auto it = candidates.begin(); it != end; ++it) {
        if (!segmentTouchesBox(origin, translation, maxFraction, boxes[*it])) continue;
        maxFraction = visit(ProxyId{*it});
        if (maxFraction <= 0.0f) return;
    }
}

} // namespace rigid2d::detail
