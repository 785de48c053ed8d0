#include "broadphase/cells/cell_ray.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "core/float_range.hpp"

namespace rigid2d::detail {

RaySpan raySpan(Vec2 origin, Vec2 translation, float maxFraction, float cellSize) {
    const Vec2 end = origin + translation * maxFraction;
    // The exact test works in floats; its rounding is relative to the coordinates and the
    // translation, so widen by that much beyond one cell.
    const float scale =
        std::max({std::abs(origin.x), std::abs(origin.y), std::abs(end.x), std::abs(end.y),
                  std::abs(translation.x) * maxFraction, std::abs(translation.y) * maxFraction});
    // In double, each sum clamped to the float's range: a ray near the float's reach over big
    // cells would overflow.
    const double pad = double{cellSize} + double{scale} * 1e-5;
    const auto lower = [&](float a, float b) { return clampToFloat(double{std::min(a, b)} - pad); };
    const auto upper = [&](float a, float b) { return clampToFloat(double{std::max(a, b)} + pad); };
    const AABB bounds{{lower(origin.x, end.x), lower(origin.y, end.y)},
                      {upper(origin.x, end.x), upper(origin.y, end.y)}};
    return {origin, translation, maxFraction, bounds, clampToFloat(pad)};
}

std::int64_t rayCellEstimate(const CellMapping& mapping, const RaySpan& ray) {
    const CellRange all = mapping.rangeOf(ray.bounds);
    const std::int64_t w = all.width();
    const std::int64_t h = all.height();
    // Along the major axis about (2 pads + 1 cell + slope) minor cells per step.
    // Written so that an infinite or NaN ratio (a ray whose end overflows) also gives the cap.
    const double ratio = 2.0 * double{ray.pad} / double{mapping.size()}; // a float pad may be huge
    const double padRatio = ratio < 1e9 ? ratio : 1e9;
    const std::int64_t padCells = static_cast<std::int64_t>(padRatio) + 2;
    return std::min(w * h, std::max(w, h) * (padCells + 1) + std::min(w, h));
}

} // namespace rigid2d::detail
