// Stage 2: contact update and narrow phase, in two passes.
//
//   pass 1 (in pieces, any thread): each live contact whose bodies are not both asleep gets its
//          new manifold (or sensor overlap) written into its own slot; what the second pass
//          needs is kept per contact in contactStage.updates
//   pass 2 (calling thread, contact order): contacts whose fat boxes parted are destroyed; begin,
//          end and sensor events; sleeping partners of touching contacts are woken
//
// Pass 1 writes nothing but the contact it works on, and pass 2 runs in contact order as the one
// loop it replaces did, so the result is the same bits for any split. A contact between two
// sleeping bodies that an earlier contact of pass 2 woke is updated in pass 2, as that loop did:
// the wake marks it; pass 2 never looks at the others. While few bodies are awake, pass 1 visits
// only the contacts of awake bodies, and the others keep the heads they had: a world at rest
// costs next to nothing.
#include <algorithm>
#include <cmath>

#include "core/parallel_for.hpp"
#include "core/prefetch.hpp"
#include "narrowphase/collide_polygons.hpp"
#include "narrowphase/collide_shapes.hpp"
#include "narrowphase/manifold_cache.hpp"
#include "step/stages.hpp"

namespace rigid2d::detail {

namespace {

// Stored per contact by pass 1; 0 (kNotLive, and kBothAsleep and the two kSame* values, stored as
// 0) means pass 2 has nothing to do there, so it skips eight quiet contacts at a time
// (nextMarked). A wake in pass 2 marks the contacts it makes kBothAsleep no longer true.
enum ContactUpdate : std::uint8_t {
    kNotLive,      ///< a free slot
    kBothAsleep,   ///< not updated: neither body moves
    kParted,       ///< the fat boxes no longer overlap: the contact goes
    kWasApart,     ///< updated; it was not touching before
    kWasTouching,  ///< updated; it was touching before
    kSameTouching, ///< updated, touching as before, nobody to wake: counted in pass 1
    kSameApart     ///< updated, apart (or a sensor) as before: nothing to do
};

[[nodiscard]] bool apartBeyond(const AABB& a, const AABB& b, float gap) noexcept {
    return a.lower.x - b.upper.x > gap || b.lower.x - a.upper.x > gap ||
           a.lower.y - b.upper.y > gap || b.lower.y - a.upper.y > gap;
}

[[nodiscard]] bool mayWake(const Body& body) noexcept {
    return !body.awake && body.type != BodyType::Static;
}

// The narrow phase of one contact; writes only that contact.
ContactUpdate collideContact(const WorldState& state, Contact& contact, float dt,
                             std::size_t& reused) {
    const Shape& shapeA = state.shapes[contact.shapeA];
    const Shape& shapeB = state.shapes[contact.shapeB];
    // The bodies from the contact's own edges (those of shapes A and B), not from the shapes:
    // their records are fetched without waiting for the shapes'.
    const Body& bodyA = state.bodies[contact.edges[0].body];
    const Body& bodyB = state.bodies[contact.edges[1].body];
    // Sleeping (and static) bodies do not move: their contacts cannot change.
    if (!bodyA.awake && !bodyB.awake) return kBothAsleep;
    if (!overlaps(shapeA.fatBox, shapeB.fatBox)) return kParted;
    const ContactUpdate update = contact.touching ? kWasTouching : kWasApart;
    // Circles and axis-aligned boxes keep their placed-shape routines (the fast path);
    // a pair with a polygonal shape goes through the ShapeGeometry table.
    const bool polygonal = contact.polygonal;
    // Two turning polygons (boxes, capsules, a segment) meet the polygons stored in the shapes,
    // not copies of them: the most common pair of a scene of turning boxes.
    const bool twoPolygons = collidesAsPolygon(shapeA.type) && collidesAsPolygon(shapeB.type) &&
                             !(hasNoArea(shapeA.type) && hasNoArea(shapeB.type));
    // A circle and such a polygon: the circle's routine, called straight (as the table would).
    const bool circleA = shapeA.type == ShapeType::Circle && collidesAsPolygon(shapeB.type);
    const bool circleB = shapeB.type == ShapeType::Circle && collidesAsPolygon(shapeA.type);
    // An axis-aligned box and such a polygon (ground boxes under ragdolls): the box made a polygon,
    // as the table would, but with the distance an axis found, so that the cache keeps the pair
    // apart instead of colliding it again every step.
    const bool boxA = shapeA.type == ShapeType::Box && collidesAsPolygon(shapeB.type);
    const bool boxB = shapeB.type == ShapeType::Box && collidesAsPolygon(shapeA.type);
    // Shapes found apart by an axis: how far (the cache keeps it).
    float apart = 0.0f;
    const auto collideAt = [&](float speculative) {
        if (!polygonal)
            return collide(placeShape(shapeA, bodyA), placeShape(shapeB, bodyB), speculative);
        if (twoPolygons)
            return collidePolygons(shapeA.polygon, transformOf(shapeA, bodyA), shapeB.polygon,
                                   transformOf(shapeB, bodyB), speculative, &apart);
        if (circleA)
            return collideCirclePolygon(Circle{shapeA.center, shapeA.radius},
                                        transformOf(shapeA, bodyA), shapeB.polygon,
                                        transformOf(shapeB, bodyB), speculative, &apart);
        if (circleB)
            return collidePolygonCircle(shapeA.polygon, transformOf(shapeA, bodyA),
                                        Circle{shapeB.center, shapeB.radius},
                                        transformOf(shapeB, bodyB), speculative, &apart);
        if (boxA)
            return collidePolygons(boxPolygonOf(shapeA), transformOf(shapeA, bodyA), shapeB.polygon,
                                   transformOf(shapeB, bodyB), speculative, &apart);
        if (boxB)
            return collidePolygons(shapeA.polygon, transformOf(shapeA, bodyA), boxPolygonOf(shapeB),
                                   transformOf(shapeB, bodyB), speculative, &apart);
        return collideShapes(geometryOf(shapeA), transformOf(shapeA, bodyA), geometryOf(shapeB),
                             transformOf(shapeB, bodyB), speculative);
    };
    if (contact.sensor) {
        contact.touching = collideAt(0.0f).pointCount > 0;
        return (update == kWasTouching) == contact.touching ? kSameApart : update;
    }
    const float margin =
        contactMargin(state.def, closingSpeed(bodyB.linearVelocity - bodyA.linearVelocity), dt);
    Manifold& manifold = contact.manifold;
    // Bounds farther apart than the margin on an axis: the shapes are at least that far apart,
    // and no point a collision could keep would be within the margin. Most contacts in a moving
    // pile are such neighbours of neighbours, whose fat boxes overlap.
    if (polygonal && apartBeyond(shapeA.tightBox, shapeB.tightBox, margin)) {
        manifold.pointCount = 0;
        contact.cache.valid = false;
        contact.touching = false;
        return update == kWasTouching ? update : kSameApart;
    }
    // A tenth of the slop: what a reused point may be off is far below what the solver lets a
    // resting contact sink. (Capped so a cache's margin stays within restore's bound.)
    const float tolerance = std::min(0.1f * state.def.linearSlop, 1e-3f * kMaxShapeSize);
    const Transform a = transformOf(shapeA, bodyA), b = transformOf(shapeB, bodyB);
    // Circles and axis-aligned boxes are cheaper to collide than to cache.
    if (polygonal && reuseManifold(contact.cache, a, b, margin, tolerance, manifold)) {
        ++reused;
    } else {
        const float wider = polygonal ? cacheMargin(margin, tolerance) : margin;
        Manifold fresh = collideAt(wider);
        if (polygonal) {
            const auto reachOfB = [&] {
                if (shapeB.type == ShapeType::Circle)
                    return reachOf(Circle{shapeB.center, shapeB.radius});
                return boxB ? reachOf(boxPolygonOf(shapeB)) : reachOf(shapeB.polygon);
            };
            contact.cache = apart > wider ? rememberApart(a, b, apart, reachOfB())
                                          : rememberManifold(fresh, a, b, wider);
            dropBeyond(fresh, margin);
        }
        carryImpulses(fresh, manifold);
        manifold = fresh;
    }
    for (int i = 0; i < manifold.pointCount; ++i) {
        ManifoldPoint& p = manifold.points[i];
        p.anchorA = p.point - bodyA.center;
        p.anchorB = p.point - bodyB.center;
    }
    contact.touching = manifold.pointCount > 0;
    // Most contacts of a running scene change nothing pass 2 acts on: it then skips them.
    if ((update == kWasTouching) != contact.touching) return update;
    if (!contact.touching) return kSameApart;
    return mayWake(bodyA) || mayWake(bodyB) ? update : kSameTouching;
}

// Pass 1 waits on memory more than it computes: the contacts lie in slot order, but their shapes
// and bodies anywhere. So the contact kAhead slots on is fetched (whole: a polygonal pair reads
// its manifold and cache too), and the shapes and bodies of the one half as far on, whose record
// has arrived by then: the shapes' first lines, or the four a polygonal pair reads.
constexpr std::uint32_t kAhead = 16;

[[gnu::always_inline]] inline void prefetchAhead(const WorldState& state, std::uint32_t c,
                                                 std::uint32_t end) noexcept {
    if (c + kAhead < end) prefetchRecord(state.contacts[c + kAhead]);
    if (c + kAhead / 2 >= end) return;
    const Contact& ahead = state.contacts[c + kAhead / 2];
    if (!ahead.live) return;
    for (const std::uint32_t s : {ahead.shapeA, ahead.shapeB}) {
        if (ahead.polygonal)
            prefetchBytes(&state.shapes[s], kShapeReadBytes);
        else
            __builtin_prefetch(&state.shapes[s]); // a circle's or box's fields: the first line
    }
    for (const ContactEdge& edge : ahead.edges)
        prefetchBytes(&state.bodies[edge.body], kBodyHotBytes);
}

// Pass 2 for an updated contact: events, and a touching contact wakes its sleeping partner.
void reportContact(WorldState& state, const Contact& contact, bool wasTouching) {
    const Shape& shapeA = state.shapes[contact.shapeA];
    const Shape& shapeB = state.shapes[contact.shapeB];
    if (contact.sensor) {
        if (contact.touching == wasTouching) return;
        const ShapeId idA = state.shapeId(contact.shapeA), idB = state.shapeId(contact.shapeB);
        const ShapeId sensor = shapeA.isSensor ? idA : idB;
        const ShapeId visitor = shapeA.isSensor ? idB : idA;
        if (contact.touching)
            state.sensorBeginEvents.push_back({sensor, visitor});
        else
            state.sensorEndEvents.push_back({sensor, visitor});
        return;
    }
    if (contact.touching) {
        // A touching contact joins the bodies' islands: a sleeping partner wakes up.
        if (!state.bodies[shapeA.body].awake) state.wake(shapeA.body);
        if (!state.bodies[shapeB.body].awake) state.wake(shapeB.body);
        if (!wasTouching && contact.reportContactEvents)
            state.beginEvents.push_back(
                {state.shapeId(contact.shapeA), state.shapeId(contact.shapeB)});
    } else if (wasTouching && contact.reportContactEvents) {
        state.endEvents.push_back({state.shapeId(contact.shapeA), state.shapeId(contact.shapeB)});
    }
}

// The contacts of the bodies pass 2 has just woken (awakeBodies from `woken` on): those that come
// later in contact order and were kBothAsleep in pass 1 (their other body is asleep, static, or
// woken in this pass: awake slots from `awakeBefore` on were not there in pass 1) are marked for
// pass 2. A sparse stage counts them all as visited, so that the gather sees them.
void markWokenContacts(WorldState& state, std::size_t woken, std::size_t awakeBefore,
                       std::size_t current) {
    ContactStageScratch& stage = state.contactStage;
    for (std::size_t i = woken; i < state.awakeBodies.size(); ++i) {
        state.forEachContactOf(state.awakeBodies[i], [&](std::uint32_t c, std::uint32_t other) {
            const Body& body = state.bodies[other];
            if (c > current && !(body.awake && body.awakeIndex < awakeBefore))
                stage.updates[c] = kBothAsleep;
            if (stage.sparse) stage.visited[c] = 1;
        });
    }
}

// Returns how the contact's head changed the count of solvable heads (-1, 0 or 1).
int writeHead(const Contact& contact, ContactStageScratch::Head& head) noexcept {
    const int before = static_cast<int>(head.solvable);
    head.bodyA = contact.edges[0].body;
    head.bodyB = contact.edges[1].body;
    head.solvable = isSolvable(contact) ? 1 : 0;
    head.bouncy = ContactStageScratch::bouncyFlag(head.solvable, contact.restitution);
    head.thinShape = contact.thinShape;
    return static_cast<int>(head.solvable) - before;
}

// Whether the stage updates only the contacts of awake bodies, found through their contact lists.
// Following a list costs a dependent load per contact, and a sleeping pair's head must already be
// right: worth it while few bodies are awake (a world at rest then costs nearly nothing).
bool updatesSparsely(const WorldState& state) noexcept {
    return state.contactStage.headsCurrent && 4 * state.awakeBodies.size() < state.bodyCount;
}

} // namespace

void updateContacts(WorldState& state, float dt) {
    ContactStageScratch& stage = state.contactStage;
    const std::size_t count = state.contacts.size();
    // New slots: no solvable contact yet (a contact is created apart).
    stage.heads.resize(count);
    stage.sparse = updatesSparsely(state);
    if (stage.sparse) {
        stage.updates.assign(count, kNotLive);
        stage.visited.assign(count, 0);
        for (const std::uint32_t body : state.awakeBodies)
            state.forEachContactOf(body,
                                   [&](std::uint32_t c, std::uint32_t) { stage.visited[c] = 1; });
    } else {
        stage.updates.resize(count);
    }
    auto& counts = stage.workerCounts;
    counts.assign(counts.size(), {});
    parallelFor(
        state.def, static_cast<std::int32_t>(count), 64,
        [&](std::int32_t begin, std::int32_t end, std::int32_t worker) {
            ContactStageScratch::Counts piece;
            const auto last = static_cast<std::uint32_t>(end);
            for (std::uint32_t c = stage.nextUpdated(static_cast<std::uint32_t>(begin), last);
                 c < last; c = stage.nextUpdated(c + 1, last)) {
                if (!stage.sparse) prefetchAhead(state, c, last);
                Contact& contact = state.contacts[c];
                const ContactUpdate update =
                    contact.live ? collideContact(state, contact, dt, piece.reused) : kNotLive;
                const bool quiet =
                    update == kSameTouching || update == kSameApart || update == kBothAsleep;
                stage.updates[c] = quiet ? kNotLive : update;
                piece.solvable += writeHead(contact, stage.heads[c]);
            }
            counts[static_cast<std::size_t>(worker)].solvable += piece.solvable;
            counts[static_cast<std::size_t>(worker)].reused += piece.reused;
        });
    std::size_t reusedCount = 0;
    for (const ContactStageScratch::Counts& piece : counts) {
        stage.solvable += static_cast<std::size_t>(piece.solvable); // modulo 2^64: nets out
        reusedCount += piece.reused;
    }
    const std::size_t awakeBefore = state.awakeBodies.size();
    for (std::size_t c = nextMarked(stage.updates, 0); c < stage.updates.size();
         c = nextMarked(stage.updates, c + 1)) {
        auto update = static_cast<ContactUpdate>(stage.updates[c]);
        Contact& contact = state.contacts[c];
        if (update == kBothAsleep) {
            // Marked by a wake earlier in this pass.
            update = collideContact(state, contact, dt, reusedCount);
            stage.solvable += static_cast<std::size_t>(writeHead(contact, stage.heads[c]));
            R2D_ASSERT(update != kBothAsleep, "a marked contact has a body woken in this pass");
        }
        if (update == kParted) {
            state.destroyContact(static_cast<std::uint32_t>(c), false);
        } else if (update != kSameTouching && update != kSameApart) {
            const std::size_t woken = state.awakeBodies.size();
            reportContact(state, contact, update == kWasTouching);
            if (state.awakeBodies.size() != woken) markWokenContacts(state, woken, awakeBefore, c);
        }
    }
    stage.headsCurrent = true;
    state.stats.reusedManifolds = reusedCount;
    state.stats.touchingContacts = stage.solvable;
}

} // namespace rigid2d::detail
