// Stage 5: fat boxes refreshed where a shape left its box; the broad phase is told and updated.
#include <cmath>

#include "core/parallel_for.hpp"
#include "core/prefetch.hpp"
#include "step/stages.hpp"

namespace rigid2d::detail {

namespace {
// Per shape: what renewing its box did.
enum Refit : std::uint8_t {
    kKept,        ///< the tight box is still inside the fat box
    kRenewed,     ///< a new fat box; the shape was already on the moved list
    kRenewedNewly ///< a new fat box, and the shape joins the moved list
};
// Per awake body: how the calling thread tells the broad phase of its renewed boxes.
enum Told : std::uint8_t {
    kNothing, ///< no box renewed
    kOneMove, ///< one: its move is in scratch.moves, read in order without a look at the shapes
    kWalk     ///< several: walk the body's shapes
};
constexpr float kMaxStretch = 8.0f;

// `box` grown along `reach` on the side it points to.
[[nodiscard]] AABB stretched(AABB box, Vec2 reach) noexcept {
    (reach.x > 0.0f ? box.upper.x : box.lower.x) += reach.x;
    (reach.y > 0.0f ? box.upper.y : box.lower.y) += reach.y;
    return box;
}
} // namespace

// A shape's fat box is its tight box grown by the speculative distance and the margin, and
// stretched along one step of its velocity. It is renewed as soon as it no longer holds the tight
// box grown by the speculative distance and stretched so: every pair whose shapes the next step
// may bring within the speculative distance is then found at that step's start, and its
// speculative contact can stop them at the surface. (Renewed only once the tight box left it, a
// box with its slack used up found such pairs a step late: the circles of circle_rain_10000 and
// gather overlapped by up to 0.098 and 0.21 m with a 0.05 m margin, 0.072 and 0.114 this way.)
// The stretch is at most kMaxStretch margins long (0.4 m at the default margin). A body flung much
// faster through a crowd (the blade of v3_spinner keeps a fifth of its shapes above 24 m/s, some
// above 100) otherwise drags a box up to metres long through its neighbours, renewed almost every
// step: pairs came and went by the thousand (with a 0.1 m margin, 6,569 new pairs per step, against
// 3,382 with a 0.4 m cap), and so did their contacts. Beyond the cap, the narrow phase's
// speculative margin (which grows with the closing speed) and the sweep against static shapes
// hold it. With the margin halved to 0.05 m the cap stayed 0.4 m: at four margins (0.2 m) the
// ragdolls of v3_rain, falling onto the pile, met it later and took longer to fall asleep.
//
// The new boxes are computed in pieces (each piece writes only the shapes of its bodies, their
// moved flags included); the broad phase is then told on the calling thread, in awake-body order
// as before. That loop is the stage's serial part: a body with one renewed box leaves its move in
// a dense array, so that the loop does not fetch the body and shape records again.
void refitProxies(WorldState& state, float dt) {
    RefitStageScratch& scratch = state.refitStage;
    scratch.shapeRefits.resize(state.shapes.size());
    scratch.bodyRefits.resize(state.awakeBodies.size());
    scratch.moves.resize(state.awakeBodies.size());
    const auto count = static_cast<std::int32_t>(state.awakeBodies.size());
    // A store through a byte pointer may alias anything: the loop reads plain pointers copied
    // into its closure, so that each flag it stores does not reload them.
    std::uint8_t* const shapeRefits = scratch.shapeRefits.data();
    std::uint8_t* const bodyRefits = scratch.bodyRefits.data();
    RefitStageScratch::ShapeMove* const moves = scratch.moves.data();
    Shape* const shapes = state.shapes.data();
    const Body* const bodies = state.bodies.data();
    const std::uint32_t* const awake = state.awakeBodies.data();
    const float margin = state.def.aabbMargin;
    const float maxStretch = kMaxStretch * margin;
    const float speculative = state.def.speculativeDistance;
    const float fatMargin = state.fatMargin();
    constexpr std::int32_t kAhead = 8;
    parallelFor(state.def, count, 128, [=](std::int32_t begin, std::int32_t end, std::int32_t) {
        for (std::int32_t i = begin; i < end; ++i) {
            // The awake bodies lie anywhere in the body array, their shapes anywhere in the
            // shape array: fetched ahead in three steps, each reading what the last brought.
            // The body's hot fields; its first shape's first line (all that a circle or box
            // reads); the polygon's lines too if it is polygonal. Every shape fetched whole (five
            // lines where a circle reads one) kept the loop waiting on memory: v3_joint_grid's
            // refit stage (10,000 circles, the grid's filing included) took 0.405 ms a step, 0.361
            // this way.
            if (i + 2 * kAhead < end) prefetchBytes(&bodies[awake[i + 2 * kAhead]], kBodyHotBytes);
            if (i + kAhead < end) {
                const std::uint32_t first = bodies[awake[i + kAhead]].firstShape;
                if (first != kNullIndex) __builtin_prefetch(&shapes[first], 1);
            }
            if (i + kAhead / 2 < end) {
                const std::uint32_t first = bodies[awake[i + kAhead / 2]].firstShape;
                if (first != kNullIndex && isPolygonal(shapes[first].type))
                    prefetchBytes(&shapes[first], kShapeReadBytes);
            }
            const Body& body = bodies[awake[i]];
            std::uint32_t renewed = 0;
            for (std::uint32_t s = body.firstShape; s != kNullIndex; s = shapes[s].nextInBody) {
                Shape& shape = shapes[s];
                const AABB tight = shapeBounds(shape, body);
                shape.tightBox = tight;
                Vec2 reach = dt * body.linearVelocity;
                const float reachSq = reach.x * reach.x + reach.y * reach.y;
                if (reachSq > maxStretch * maxStretch)
                    reach = (maxStretch / std::sqrt(reachSq)) * reach;
                if (contains(shape.fatBox, stretched(fatten(tight, speculative), reach))) {
                    shapeRefits[s] = kKept;
                    continue;
                }
                const AABB fat = stretched(fatten(tight, fatMargin), reach);
                shape.fatBox = fat;
                const bool newly = !shape.moved;
                shape.moved = true;
                shapeRefits[s] = newly ? kRenewedNewly : kRenewed;
                moves[i] = {fat, shape.proxy, s, newly};
                ++renewed;
            }
            bodyRefits[i] = renewed == 0 ? kNothing : renewed == 1 ? kOneMove : kWalk;
        }
    });
    BroadPhase& broadPhase = *state.broadPhase;
    for (std::size_t i = nextMarked(scratch.bodyRefits, 0); i < scratch.bodyRefits.size();
         i = nextMarked(scratch.bodyRefits, i + 1)) {
        if (scratch.bodyRefits[i] == kOneMove) {
            const RefitStageScratch::ShapeMove& move = scratch.moves[i];
            broadPhase.move(move.proxy, move.box);
            if (move.newlyMoved) state.movedShapes.push_back(move.shape);
            continue;
        }
        const Body& body = state.bodies[state.awakeBodies[i]];
        for (std::uint32_t s = body.firstShape; s != kNullIndex; s = state.shapes[s].nextInBody) {
            if (scratch.shapeRefits[s] == kKept) continue;
            broadPhase.move(state.shapes[s].proxy, state.shapes[s].fatBox);
            if (scratch.shapeRefits[s] == kRenewedNewly) state.movedShapes.push_back(s);
        }
    }
}

} // namespace rigid2d::detail
