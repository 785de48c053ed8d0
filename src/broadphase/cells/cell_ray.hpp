#pragma once
// The cells a ray may touch, for the grid and the hash levels: a conservative set (widened by the
// float rounding of the exact segment-box test, so no box the exact test accepts is missed), and
// an estimate of its size, so that a ray crossing more cells than there are proxies scans the
// proxies instead.

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>

#include "broadphase/cells/cell_coords.hpp"
#include "core/float_range.hpp"
#include "rigid2d/math.hpp"

namespace rigid2d::detail {

/// The segment origin + t * translation, t in [0, maxFraction], widened by a margin that covers
/// the float rounding of the exact test (at least one cell).
struct RaySpan {
    Vec2 origin, translation;
    float maxFraction;
    AABB bounds; ///< the widened segment's bounding box
    float pad;   ///< the widening, metres
};
[[nodiscard]] RaySpan raySpan(Vec2 origin, Vec2 translation, float maxFraction, float cellSize);

/// About how many cells `forEachRayCell` visits (to choose a brute-force scan instead).
[[nodiscard]] std::int64_t rayCellEstimate(const CellMapping& mapping, const RaySpan& ray);

/// Calls f(x, y) for a conservative set of cells around the ray: cell by cell along its major
/// axis, the minor-axis cells the widened segment spans there. Cells may repeat across calls of
/// different rays but not within one.
template <class F>
void forEachRayCell(const CellMapping& mapping, const RaySpan& ray, F&& f) {
    const CellRange all = mapping.rangeOf(ray.bounds);
    const Vec2 d = ray.translation * ray.maxFraction;
    const int major = std::abs(d.x) >= std::abs(d.y) ? 0 : 1;
    const int minor = 1 - major;
    const std::int32_t m0 = major == 0 ? all.x0 : all.y0;
    const std::int32_t m1 = major == 0 ? all.x1 : all.y1;
    const std::int32_t n0 = major == 0 ? all.y0 : all.x0;
    const std::int32_t n1 = major == 0 ? all.y1 : all.x1;
    const CellRange& clampRange = mapping.clampRange();
    const std::int32_t clampLo = major == 0 ? clampRange.x0 : clampRange.y0;
    const std::int32_t clampHi = major == 0 ? clampRange.x1 : clampRange.y1;
    const float o = ray.origin[major];
    const float om = ray.origin[minor];
    for (std::int32_t m = m0; m <= m1; ++m) {
        std::int32_t lo = n0, hi = n1;
        // Border cells of a clamped mapping extend to infinity: keep the full minor span there.
        if (d[major] != 0.0f && m != clampLo && m != clampHi) {
            const float slabLo = mapping.origin()[major] + static_cast<float>(m) * mapping.size();
            const float slabHi = slabLo + mapping.size();
            // In double: a denormal d[major], or an origin far across the grid, would overflow
            // a float quotient (which is clamped to [0, 1] anyway).
            const auto fraction = [&](double edge) {
                return static_cast<float>(
                    std::clamp((edge - double{o}) / double{d[major]}, 0.0, 1.0));
            };
            const float tA = fraction(double{slabLo} - double{ray.pad});
            const float tB = fraction(double{slabHi} + double{ray.pad});
            const float a = om + tA * d[minor];
            const float b = om + tB * d[minor];
            // The pad may be near the float's largest value (a huge cell): widened in double.
            lo = std::max(
                lo, mapping.cellOn(minor, clampToFloat(double{std::min(a, b)} - double{ray.pad})));
            hi = std::min(
                hi, mapping.cellOn(minor, clampToFloat(double{std::max(a, b)} + double{ray.pad})));
        }
        for (std::int32_t n = lo; n <= hi; ++n) {
            if (major == 0)
                f(m, n);
            else
                f(n, m);
        }
    }
}

} // namespace rigid2d::detail
