#pragma once
// Searches shared by the cell-based broad phases: the pairs inside one cell, a box against one
// cell, the cells a ray crosses, and visiting query/ray candidates in id order.
//
// Query and ray results are visited in ascending id order, the order brute_force uses, so a
// visitor that stops early or clips the ray sees exactly what it would see with brute_force.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "broadphase/cell_coords.hpp"
#include "broadphase/cell_lists.hpp"
#include "broadphase/geometry.hpp"
#include "broadphase/pair_sort.hpp"
#include "broadphase/proxy_table.hpp"
#include "rigid2d/broad_phase.hpp"

namespace rigid2d::detail {

/// A proxy's box and id side by side, so that a cell's pair search reads contiguous memory.
struct CellEntry {
    AABB box;
    std::uint32_t id;
};

/// Appends to `out` the pairs of the cell's entries whose boxes overlap and whose intersection's
/// lower-left corner lies in cell (x, y) (CellMapping::ownsPair: each pair once over all cells).
/// May reorder the entries. Returns the box tests done.
std::size_t pairsInCell(CellEntry* entries, std::size_t count, std::int32_t x, std::int32_t y,
                        const CellMapping& mapping, std::vector<ProxyPair>& out);

/// Appends the pairs between proxy `id` (box `box`, not among the entries) and the entries of
/// cell (x, y), with the same ownership rule. Returns the box tests done.
std::size_t boxAgainstEntries(const CellEntry* entries, std::size_t count, std::int32_t x,
                              std::int32_t y, const CellMapping& mapping, std::uint32_t id,
                              const AABB& box, std::vector<ProxyPair>& out);

/// pairsInCell for a bucket of ids: gathers the boxes into reused storage first.
class CellPairSearch {
public:
    std::size_t cellPairs(const IdChunkPool& pool, const CellBucket& bucket, std::int32_t x,
                          std::int32_t y, const CellMapping& mapping,
                          const std::vector<AABB>& boxes, std::vector<ProxyPair>& out);

private:
    std::vector<CellEntry> m_entries;
};

/// Appends the pairs between proxy `id` (box `box`) and the proxies of a bucket at cell (x, y),
/// with the same ownership rule; `id` itself is skipped. Returns the box tests done.
std::size_t boxAgainstCell(const IdChunkPool& pool, const CellBucket& bucket, std::int32_t x,
                           std::int32_t y, const CellMapping& mapping,
                           const std::vector<AABB>& boxes, std::uint32_t id, const AABB& box,
                           std::vector<ProxyPair>& out);

/// A thread's reusable id buffer for const queries: no allocation once warmed up, safe when a
/// visitor runs another query (the nested one gets its own buffer).
class ScratchIds {
public:
    ScratchIds();
    ~ScratchIds();
    ScratchIds(const ScratchIds&) = delete;
    ScratchIds& operator=(const ScratchIds&) = delete;
    std::vector<std::uint32_t> ids;
};

/// Sorts `candidates` (ids of boxes that overlap the region), drops repeats and calls visit in
/// ascending id order until it returns false.
void visitInIdOrder(std::vector<std::uint32_t>& candidates, FunctionRef<bool(ProxyId)> visit);

/// Sorts and dedups `candidates`, then calls visit in ascending id order for those whose box
/// the segment touches with the current maxFraction (the exact test of brute_force).
void visitRayInIdOrder(std::vector<std::uint32_t>& candidates, const std::vector<AABB>& boxes,
                       Vec2 origin, Vec2 translation, float maxFraction,
                       FunctionRef<float(ProxyId)> visit);

/// Brute-force fallbacks for queries that would visit more cells than there are proxies: every
/// live proxy in id order with the exact test, as brute_force does.
void scanQuery(const ProxyTable& proxies, const AABB& region, FunctionRef<bool(ProxyId)> visit);
void scanRayCast(const ProxyTable& proxies, Vec2 origin, Vec2 translation, float maxFraction,
                 FunctionRef<float(ProxyId)> visit);
/// The argument checks of rayCast (naming `function`).
void checkRayArguments(std::string_view function, Vec2 origin, Vec2 translation, float maxFraction);

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
            const float tA = std::clamp((slabLo - ray.pad - o) / d[major], 0.0f, 1.0f);
            const float tB = std::clamp((slabHi + ray.pad - o) / d[major], 0.0f, 1.0f);
            const float a = om + tA * d[minor];
            const float b = om + tB * d[minor];
            lo = std::max(lo, mapping.cellOn(minor, std::min(a, b) - ray.pad));
            hi = std::min(hi, mapping.cellOn(minor, std::max(a, b) + ray.pad));
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
