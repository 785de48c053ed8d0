#pragma once
/// The pluggable broad phase: one small interface, eight implementations and an automatic choice
/// chosen at run time.

#include <compare>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "rigid2d/debug_draw.hpp"
#include "rigid2d/function_ref.hpp"
#include "rigid2d/math.hpp"

namespace rigid2d {

/// Names a box stored in a broad phase. Ids are dense: `insert` hands out the lowest id never
/// used when no id is free, else the most recently removed one (LIFO). Every built-in
/// implementation follows this rule, so the same calls give the same ids and the same pairs.
enum class ProxyId : std::uint32_t { Null = 0xFFFFFFFFu };

[[nodiscard]] constexpr std::uint32_t toIndex(ProxyId id) noexcept {
    return static_cast<std::uint32_t>(id);
}

/// An overlapping pair, always with a < b.
struct ProxyPair {
    ProxyId a = ProxyId::Null;
    ProxyId b = ProxyId::Null;
    friend constexpr bool operator==(ProxyPair, ProxyPair) noexcept = default;
    friend constexpr auto operator<=>(ProxyPair, ProxyPair) noexcept = default;
};

enum class BroadPhaseType : std::uint8_t {
    BruteForce,       ///< "brute_force": all pairs, the reference
    Grid,             ///< "grid": bounded dense uniform grid with an overflow list
    SpatialHash,      ///< "spatial_hash": unbounded sparse grid in an open-addressing table
    SweepAndPrune,    ///< "sap": persistent sorted endpoints, insertion sort across frames
    Tree,             ///< "tree": dynamic AABB tree, surface-area heuristic and rotations
    HierarchicalHash, ///< "hierarchical_hash": hash levels with cell sizes in powers of two
    Quadtree,   ///< "quadtree": loose quadtree, unbounded, each proxy at the depth of its size
    SortedGrid, ///< "sorted_grid": hashed cells counted and sorted into one dense array
    /// "auto": runs one of the others, opening on the kind the proxies suggest at the first pair
    /// search, and switches, live, to whichever measures cheapest on the current work (every
    /// kind finds the same pairs, so switching changes no result).
    Auto,
};

inline constexpr BroadPhaseType kAllBroadPhaseTypes[] = {
    BroadPhaseType::BruteForce,    BroadPhaseType::Grid,       BroadPhaseType::SpatialHash,
    BroadPhaseType::SweepAndPrune, BroadPhaseType::Tree,       BroadPhaseType::HierarchicalHash,
    BroadPhaseType::Quadtree,      BroadPhaseType::SortedGrid, BroadPhaseType::Auto};

/// The `name()` of each type ("brute_force", "grid", ...).
[[nodiscard]] std::string_view toString(BroadPhaseType type) noexcept;
/// Parses a name of `toString`; throws `rigid2d::Error` for an unknown name.
[[nodiscard]] BroadPhaseType broadPhaseTypeFromString(std::string_view name);

/// Tuning of the built-in broad phases. Every field has a working default.
struct BroadPhaseConfig {
    /// grid: the region covered by the dense cell array, metres. Proxies partly or wholly outside
    /// are outliers, kept in a list and still found; when more than an eighth of them are outside,
    /// the grid widens its region to hold them all (coarser cells if maxGridCells requires).
    /// Each axis must span at most FLT_MAX (a widened region is kept within that too).
    AABB worldBounds{{-1000.0f, -1000.0f}, {1000.0f, 1000.0f}};
    /// grid, spatial_hash, sorted_grid: cell edge in metres. 0 = automatic: about four (grid) or
    /// two (spatial_hash, sorted_grid) times the median proxy extent, re-derived when the sizes
    /// inserted drift by more than 2x (sorted_grid: at every pair search). Hand-set sizes are kept;
    /// at least kMinShapeSize.
    float cellSize = 0.0f;
    /// hierarchical_hash: edge of the finest level's cells in metres (0 = automatic, else at least
    /// kMinShapeSize); each coarser level doubles it.
    float finestCellSize = 0.0f;
    /// grid: upper bound on the number of cells (memory guard); the cell size grows to respect it.
    /// In [1, kMaxGridCells].
    std::size_t maxGridCells = std::size_t{1} << 22;
};

/// Largest accepted `BroadPhaseConfig::maxGridCells`: 2^26 cells, about 512 MB of cell arrays.
inline constexpr std::size_t kMaxGridCells = std::size_t{1} << 26;

/// Counters a broad phase reports; "tests" are box-box overlap tests done since the last
/// `findPairs` (or since creation).
struct BroadPhaseStats {
    std::size_t proxies = 0;
    std::size_t cells = 0;        ///< grid cells / hash buckets / tree nodes / endpoints in use
    std::size_t outliers = 0;     ///< grid, hashes, sorted_grid: proxies not filed in cells
    std::size_t overlapTests = 0; ///< box-box tests in the last findPairs
    std::size_t memoryBytes = 0;  ///< bytes held by the structure
    float cellSize = 0.0f;        ///< grid/hash: current cell edge (finest level for hierarchical)
    int levels = 0;               ///< hierarchical_hash: levels in use; tree: height
    /// The kind doing the work: the broad phase's own name, or for auto the kind it chose.
    std::string_view active{};
    std::size_t switches = 0; ///< auto: changes of kind so far
};

/// Stores axis-aligned boxes ("proxies") exactly as given — the world adds any margin before it
/// calls in — and answers which of them overlap (closed intervals).
///
/// Changes come in batches: any number of insert / move / remove, then one `update()`, which
/// brings whatever the structure keeps lazily up to date. From then until the next change, the
/// const functions only read, so they may run concurrently with each other (the step queries
/// from several threads when the world has a scheduler, WorldDef::enqueueTask). Queries between
/// a change and `update()` still give the right answer, only possibly more slowly. The non-const
/// functions are not thread-safe.
class BroadPhase {
public:
    virtual ~BroadPhase() = default;

    /// Stores `box` and returns its id. Throws `Error` for a NaN/infinite coordinate or a lower
    /// corner above the upper one.
    virtual ProxyId insert(const AABB& box, std::uint64_t userData) = 0;
    /// Replaces the box of `proxy`. Throws `Error` for a bad box or an unknown/removed id.
    virtual void move(ProxyId proxy, const AABB& box) = 0;
    /// Replaces the boxes of many proxies in one call: `move(proxies[i], boxes[i])` for each i in
    /// order (an id listed twice keeps its last box), without a call per proxy. Throws `Error`
    /// for spans of different sizes, an unknown/removed id or a bad box, before anything changes.
    /// The default checks every argument (ids by `box`), then calls `move` for each.
    virtual void moveMany(std::span<const ProxyId> proxies, std::span<const AABB> boxes);
    /// Forgets `proxy`; its id may be handed out again. Throws `Error` for an unknown/removed id.
    virtual void remove(ProxyId proxy) = 0;
    /// Ends a batch of insert / move / remove: afterwards the const functions read only (see
    /// the class comment). Cheap when nothing changed. The default does nothing, which suits a
    /// structure that is always up to date.
    virtual void update() {}

    /// Every pair of stored proxies whose boxes overlap, exactly once, as (a, b) with a < b,
    /// sorted by (a, b): the same set and order from every implementation. `out` is cleared first.
    virtual void findPairs(std::vector<ProxyPair>& out) = 0;
    /// The pairs of `findPairs` that involve at least one proxy of `moved` (live ids, each once,
    /// in any order), in the same form: once each, a < b, sorted by (a, b). `out` is cleared
    /// first. Throws `Error` for an unknown id or one listed twice, before anything changes.
    /// The default runs one `query` per moved proxy; a structure may do better, for instance one
    /// `findPairs` when most proxies moved.
    virtual void findPairsOf(std::span<const ProxyId> moved, std::vector<ProxyPair>& out);
    /// Calls visit once for each proxy whose box overlaps `region`; visit returns false to stop.
    virtual void query(const AABB& region, FunctionRef<bool(ProxyId)> visit) const = 0;
    /// Calls visit for proxies whose box the segment origin + t * translation, t in
    /// [0, maxFraction], touches; visit returns the new maxFraction (0 stops, the same continues).
    virtual void rayCast(Vec2 origin, Vec2 translation, float maxFraction,
                         FunctionRef<float(ProxyId)> visit) const = 0;

    [[nodiscard]] virtual std::size_t size() const = 0;
    [[nodiscard]] virtual std::string_view name() const = 0;
    [[nodiscard]] virtual BroadPhaseStats stats() const = 0;

    /// The box stored for `proxy` (throws `Error` for an unknown id).
    [[nodiscard]] virtual AABB box(ProxyId proxy) const = 0;
    /// The user data given to `insert` (throws `Error` for an unknown id).
    [[nodiscard]] virtual std::uint64_t userData(ProxyId proxy) const = 0;

    /// Checks every internal invariant, calling the assert handler on the first broken one.
    /// Expensive; the tests call it after every batch of operations.
    virtual void validate() const {}
    /// Draws the structure (cells, buckets, intervals, nodes) that overlaps the draw's cull region.
    virtual void debugDraw(DebugDraw& /*draw*/) const {}
};

/// Creates a built-in broad phase. Throws `Error` for a bad config (non-positive bounds, NaN).
[[nodiscard]] std::unique_ptr<BroadPhase> makeBroadPhase(BroadPhaseType type,
                                                         const BroadPhaseConfig& config = {});

} // namespace rigid2d
