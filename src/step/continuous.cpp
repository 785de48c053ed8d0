// Continuous collision (stage 6). After the solve a body's shapes are swept along the body's
// translation of this step against static shapes found by a broad-phase query of the swept box;
// the body goes back to the earliest time of impact, stopping linearSlop short of the surface. Its
// velocity is kept: next step the (speculative) contact takes over.
//
// Bullets are always swept. Other bodies only when a shape's path left the fat box its pairs were
// found with at the start of the step (the box is renewed only once the shape leaves it, so a fast
// body's box misses its next step every other step): inside the box every static shape on the path
// had a contact, whose speculative point already stopped the body; outside, a body at the speed
// clamp would pass a 1 m wall. A body in steady fast motion is swept every other step; resting
// and slow bodies almost never.
//
// A shape that starts the step already touching a static shape (time of impact 0) is left to
// the contact solver: stopping it there would pin a bullet to every wall it slides along or rests
// against. What must still not happen is its centre passing through, so against such a shape the
// sweep uses the shape's core instead, a circle of half its smallest extent about its centre.
//
// First, whatever its speed, a body touching a segment or chain link does not take its centre
// through it (stopCentresAtThinWalls).
//
//   for each dynamic body with a contact point on a static segment or chain link, or that moved
//   farther than speculativeDistance:
//       for each static segment or link a shape's centre path crossed: move the body back to
//       just short of the earliest such line
//   for each awake dynamic body that moved, a bullet or with a path outside its fat box:
//       t = 1
//       for each non-sensor shape: for each static shape in query(swept box):
//           t = min(t, timeOfImpact(shape at start, translation, static shape, linearSlop))
//       if t < 1: centre = start + t * translation
#include <algorithm>
#include <cmath>

#include "core/parallel_for.hpp"
#include "geometry/shape_cast.hpp"
#include "geometry/time_of_impact.hpp"
#include "step/stages.hpp"

namespace rigid2d::detail {

namespace {
WorldShape toWorldShape(const PlacedShape& shape) {
    WorldShape out;
    out.isCircle = shape.type == ShapeType::Circle;
    out.center = shape.center;
    out.radius = shape.radius;
    out.halfExtents = shape.halfExtents;
    return out;
}

float bulletTimeOfImpact(const WorldShape& moving, Vec2 translation, const WorldShape& fixed,
                         float linearSlop) {
    const float t = timeOfImpact(moving, translation, fixed, linearSlop);
    if (t > 0.0f) return t;
    WorldShape core;
    core.center = moving.center;
    core.radius = 0.5f * (moving.isCircle ? moving.radius
                                          : std::fmin(moving.halfExtents.x, moving.halfExtents.y));
    const float coreT = timeOfImpact(core, translation, fixed, 0.0f);
    return coreT > 0.0f ? coreT : 1.0f; // a core already inside: nothing a sweep can save
}

// The same for a pair with a polygonal shape, by conservative advancement (castShape): the shape
// at `start` moves by `translation` without turning.
float polygonalTimeOfImpact(const Shape& moving, const Transform& start, Vec2 translation,
                            const Shape& fixed, const Transform& fixedXf, float linearSlop) {
    const DistanceProxy target = makeProxy(geometryOf(fixed));
    const DistanceProxy mover = makeProxy(geometryOf(moving));
    const float length = std::sqrt(dot(translation, translation));
    SegmentHit hit;
    if (castShape(target, fixedXf, mover, start, translation, 1.0f, hit))
        return std::max(hit.fraction - linearSlop / length, 0.0f);
    if (!shapesOverlap(target, fixedXf, mover, start)) return 1.0f;
    DistanceProxy core;
    core.count = 1;
    core.points[0] = moving.center;
    core.radius = 0.5f * shapeInnerExtent(moving);
    if (castShape(target, fixedXf, core, start, translation, 1.0f, hit)) return hit.fraction;
    return 1.0f; // a core already inside: nothing a sweep can save
}

// A chain link is one-sided for the sweep as for its contacts: a shape whose centre starts
// behind its line passes through.
bool behindChainLink(const Shape& moving, const Transform& start, const Shape& link,
                     const Transform& linkXf) {
    const Vec2 local = moving.type == ShapeType::Circle || moving.type == ShapeType::Box
                           ? moving.center
                           : moving.polygon.centroid;
    const Vec2 centre = transformPoint(start, local);
    const Vec2 p1 = transformPoint(linkXf, link.polygon.vertices[0]);
    return dot(rotate(linkXf.q, link.polygon.normals[0]), centre - p1) < 0.0f;
}
} // namespace

bool pathLeavesFatBoxes(const WorldState& state, const Body& body, Vec2 translation) noexcept {
    for (std::uint32_t s = body.firstShape; s != kNullIndex; s = state.shapes[s].nextInBody) {
        const Shape& shape = state.shapes[s];
        const AABB end = shapeBounds(shape, body);
        const AABB& fat = shape.fatBox;
        // How far the path (the end box together with the start box, the end box moved back)
        // reaches beyond the fat box.
        const Vec2 pathLower{std::min(end.lower.x, end.lower.x - translation.x),
                             std::min(end.lower.y, end.lower.y - translation.y)};
        const Vec2 pathUpper{std::max(end.upper.x, end.upper.x - translation.x),
                             std::max(end.upper.y, end.upper.y - translation.y)};
        const float excess =
            std::max(std::max(pathUpper.x - fat.upper.x, fat.lower.x - pathLower.x),
                     std::max(pathUpper.y - fat.upper.y, fat.lower.y - pathLower.y));
        // Up to the shape's smallest extent, an unseen static shape is overlapped but its centre
        // does not pass the surface: next step's contact pushes it back out.
        if (excess > shapeInnerExtent(shape)) return true;
    }
    return false;
}

namespace {
// Whether the awake body at index i of awakeBodies may need a sweep, by the cheap tests.
bool maySweep(const WorldState& state, std::uint32_t i) {
    // The fat boxes held the shapes at the start of the step, so the path leaves them by at
    // most the translation: a body moving less than its smallest extent needs no check.
    const Vec2 translation = state.solverBodies[i + 1].dp;
    return (translation.x != 0.0f || translation.y != 0.0f) &&
           std::max(std::fabs(translation.x), std::fabs(translation.y)) >
               state.continuousStage.sweepAbove[i + 1];
}

// A body maySweep let through: reads the static shapes, writes only this body.
void sweepBody(WorldState& state, std::uint32_t i) {
    Body& body = state.bodies[state.awakeBodies[i]];
    const Vec2 translation = state.solverBodies[i + 1].dp;
    if (!body.bullet && !pathLeavesFatBoxes(state, body, translation)) return;
    float earliest = 1.0f;
    for (std::uint32_t s = body.firstShape; s != kNullIndex; s = state.shapes[s].nextInBody) {
        const Shape& shape = state.shapes[s];
        if (shape.isSensor) continue;
        PlacedShape start = placeShape(shape, body);
        start.center -= translation;
        Transform startXf = transformOf(shape, body);
        startXf.p -= translation;
        AABB startBox = shapeBounds(shape, body);
        startBox.lower -= translation;
        startBox.upper -= translation;
        const AABB swept{{std::min(startBox.lower.x, startBox.lower.x + translation.x),
                          std::min(startBox.lower.y, startBox.lower.y + translation.y)},
                         {std::max(startBox.upper.x, startBox.upper.x + translation.x),
                          std::max(startBox.upper.y, startBox.upper.y + translation.y)}};
        const WorldShape moving = toWorldShape(start);
        state.staticShapes.query(swept, [&](ProxyId proxy) {
            const auto other = static_cast<std::uint32_t>(state.staticShapes.userData(proxy));
            const Shape& fixed = state.shapes[other];
            if (!state.shouldCollide(s, other)) return true;
            const Transform fixedXf = transformOf(fixed, state.bodies[fixed.body]);
            if (fixed.type == ShapeType::ChainSegment &&
                behindChainLink(shape, startXf, fixed, fixedXf))
                return true;
            const float t =
                isPolygonal(shape.type) || isPolygonal(fixed.type)
                    ? polygonalTimeOfImpact(shape, startXf, translation, fixed, fixedXf,
                                            state.def.linearSlop)
                    : bulletTimeOfImpact(moving, translation, toWorldShape(state.placed(other)),
                                         state.def.linearSlop);
            earliest = std::min(earliest, t);
            return true;
        });
    }
    if (earliest < 1.0f) {
        body.center -= (1.0f - earliest) * translation;
        body.position = body.center - rotate(body.rot, body.localCenter);
    }
}
} // namespace

namespace {
// The centre of a shape, world frame.
Vec2 shapeCentre(const Shape& shape, const Body& body) {
    if (shape.type == ShapeType::Circle || shape.type == ShapeType::Box)
        return placeShape(shape, body).center;
    return transformPoint(transformOf(shape, body), shape.polygon.centroid);
}

// The fraction of `translation` after which the centre of a shape that moved from `start` is
// linearSlop short of the line through p1 and p2 (unit normal n), if its path crossed that
// segment (between its ends) from the side n faces (`frontOnly`, as a chain link is seen) or from
// either side; otherwise 1.
float centreCrossing(Vec2 start, Vec2 translation, Vec2 p1, Vec2 p2, Vec2 n, bool frontOnly,
                     float linearSlop) {
    const float side0 = dot(n, start - p1);
    const float side1 = dot(n, start + translation - p1);
    if (side0 == 0.0f || (frontOnly && side0 < 0.0f)) return 1.0f;
    if ((side0 > 0.0f) == (side1 > 0.0f) && side1 != 0.0f) return 1.0f;
    const float t = side0 / (side0 - side1);
    const Vec2 e = p2 - p1;
    const float along = dot(start + t * translation - p1, e);
    if (along < 0.0f || along > dot(e, e)) return 1.0f; // passed beside an end
    return std::max((std::fabs(side0) - linearSlop) / std::fabs(side0 - side1), 0.0f);
}

// A body touching a segment or chain link, with a shape's centre going through one: sent back to
// just short of the line. A segment has no inside, so a centre past it is pushed on out by the
// next contact: a body squeezed against a thin wall by a pile (v3_spinner's blade drives 6,000
// bodies into its ring) would leave through it, too slowly for the sweep below (which needs a step
// longer than the body's smallest extent), or already touching it, where the sweep is left to the
// contact. A body that moved farther than the margin, pushed by the pile, may cross a wall that
// was out of reach at the start of the step (the centre may pass the next link of the ring, whose
// contact had no point within the margin): every wall its centres' paths cross is found in the
// static-shape index. One that moved less can only cross the walls it has a point on: any other
// was farther from each of its shapes, and so from their centres, than the margin. Those walls
// are tested alone, without a query: a pile resting on a segment ground (v3_many_pyramids) had a
// query per body on the ground every step, 3% of the step. So are the walls of a body that moved
// farther, but less than the margin its contacts on static shapes had (contactMargin: wider by
// its speed), and whose centre paths stayed inside their shapes' fat boxes: every wall such a path
// crosses overlaps the fat box, so has a contact, and a wall without a point was farther than
// that margin. Most bodies stirred by v3_spinner's blade are such, and their queries were 3% of
// its step. The body goes back to the earliest crossing; its translation of the step is
// shortened alike, so the sweep starts from the same place.
void stopCentresAtThinWalls(WorldState& state, float dt) {
    if (state.staticWallCount == 0) return;
    std::vector<std::pair<std::uint32_t, std::uint32_t>>& touches =
        state.continuousStage.wallTouches;
    touches.clear();
    const std::span<const ConstraintBodies> slots(state.solverScratch.summary.bodies);
    const ContactStageScratch::Head* const heads = state.contactStage.heads.data();
    for (std::size_t i = 0; i < slots.size(); ++i) {
        // Static bodies share slot 0: most contacts are between two moving bodies.
        if (slots[i].a != 0 && slots[i].b != 0) continue;
        // From the contact's head, not the contact and its shapes: three records far apart.
        const std::uint32_t wall = heads[state.activeConstraints[i].contact].thinShape;
        if (wall == kNullIndex || state.bodies[state.shapes[wall].body].type != BodyType::Static)
            continue;
        // The wall's static body is in slot 0, so the sum is the other body's slot.
        touches.emplace_back(slots[i].a + slots[i].b, wall);
    }
    std::sort(touches.begin(), touches.end());
    const float reach = state.def.speculativeDistance;
    // The solver's compact arrays first: most bodies are let go without a read of their record.
    std::size_t next = 0; // the first touch of the slot below or of a later one
    while (next < touches.size() && touches[next].first == 0) ++next; // bodies not in the solve
    for (std::size_t slot = 1; slot < state.solverBodies.size(); ++slot) {
        const std::size_t first = next;
        while (next < touches.size() && touches[next].first == slot) ++next;
        const std::span<const std::pair<std::uint32_t, std::uint32_t>> touched(
            touches.data() + first, next - first);
        Vec2& translation = state.solverBodies[slot].dp;
        if (translation.x == 0.0f && translation.y == 0.0f) continue;
        const float movedSq = dot(translation, translation);
        const bool far = movedSq > reach * reach;
        if (touched.empty() && !far) continue;
        Body& body = state.bodies[state.awakeBodies[slot - 1]];
        if (body.type != BodyType::Dynamic) continue;
        // A hair short of the contact stage's margin, which rounding may have left smaller.
        const float margin =
            0.999f *
            contactMargin(state.def, std::sqrt(state.continuousStage.startSpeedSq[slot]), dt);
        const bool withinMargin = movedSq <= margin * margin;
        // The earliest crossing of any shape's centre path, each against the translation as the
        // solver left it, so the order the walls come in does not matter.
        float earliest = 1.0f;
        for (std::uint32_t s = body.firstShape; s != kNullIndex; s = state.shapes[s].nextInBody) {
            const Shape& moving = state.shapes[s];
            if (moving.isSensor) continue;
            const Vec2 end = shapeCentre(moving, body);
            const Vec2 start = end - translation;
            // Where the centre's path crosses `wall`, as a fraction of it (1: it does not).
            const auto crossing = [&](std::uint32_t wall) {
                const Shape& wallShape = state.shapes[wall];
                if (!hasNoArea(wallShape.type) || !state.shouldCollide(s, wall)) return 1.0f;
                const Transform wallXf = transformOf(wallShape, state.bodies[wallShape.body]);
                return centreCrossing(
                    start, translation, transformPoint(wallXf, wallShape.polygon.vertices[0]),
                    transformPoint(wallXf, wallShape.polygon.vertices[1]),
                    rotate(wallXf.q, wallShape.polygon.normals[0]),
                    wallShape.type == ShapeType::ChainSegment, state.def.linearSlop);
            };
            const AABB path{{std::min(start.x, end.x), std::min(start.y, end.y)},
                            {std::max(start.x, end.x), std::max(start.y, end.y)}};
            const auto earliestOfQuery = [&] {
                float t = 1.0f;
                state.staticShapes.query(path, [&](ProxyId proxy) {
                    t = std::min(t, crossing(static_cast<std::uint32_t>(
                                        state.staticShapes.userData(proxy))));
                    return true;
                });
                return t;
            };
            if (far && !(withinMargin && contains(moving.fatBox, path))) {
                earliest = std::min(earliest, earliestOfQuery());
                continue;
            }
            float t = 1.0f;
            for (const auto& touch : touched) t = std::min(t, crossing(touch.second));
            R2D_ASSERT(t == earliestOfQuery(),
                       "a body that moved less than its margin crossed a wall it had no point on");
            earliest = std::min(earliest, t);
        }
        if (earliest >= 1.0f) continue;
        body.center -= (1.0f - earliest) * translation;
        body.position = body.center - rotate(body.rot, body.localCenter);
        translation *= earliest;
    }
}
} // namespace

// The cheap tests on the calling thread (a few nanoseconds a body: not worth a hand-over), then
// the bodies they let through in pieces; each sweep moves only its own body and reads only static
// ones.
void solveContinuous(WorldState& state, float dt) {
    if (!state.def.enableContinuous) return;
    stopCentresAtThinWalls(state, dt);
    state.continuousStage.candidates.clear();
    for (std::uint32_t i = 0; i < state.awakeBodies.size(); ++i)
        if (maySweep(state, i)) state.continuousStage.candidates.push_back(i);
    const auto count = static_cast<std::int32_t>(state.continuousStage.candidates.size());
    parallelFor(state.def, count, 32, [&](std::int32_t begin, std::int32_t end, std::int32_t) {
        for (std::int32_t i = begin; i < end; ++i)
            sweepBody(state, state.continuousStage.candidates[static_cast<std::size_t>(i)]);
    });
}

} // namespace rigid2d::detail
