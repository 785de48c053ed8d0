// Stage 2: contact update and narrow phase.
#include <cmath>

#include "narrowphase/collide_shapes.hpp"
#include "step/stages.hpp"

namespace rigid2d::detail {

namespace {
[[nodiscard]] inline float lengthOf(Vec2 v) noexcept { return std::sqrt(v.x * v.x + v.y * v.y); }
} // namespace

void updateContacts(WorldState& state, float dt) {
    std::size_t touchingCount = 0;
    for (std::uint32_t c = 0; c < state.contacts.size(); ++c) {
        Contact& contact = state.contacts[c];
        if (!contact.live) continue;
        const Shape& shapeA = state.shapes[contact.shapeA];
        const Shape& shapeB = state.shapes[contact.shapeB];
        const Body& bodyA = state.bodies[shapeA.body];
        const Body& bodyB = state.bodies[shapeB.body];
        // Sleeping (and static) bodies do not move: their contacts cannot change.
        if (!bodyA.awake && !bodyB.awake) {
            touchingCount += contact.touching ? 1 : 0;
            continue;
        }
        if (!overlaps(shapeA.fatBox, shapeB.fatBox)) {
            state.destroyContact(c, false);
            continue;
        }
        const bool wasTouching = contact.touching;
        // Circles and axis-aligned boxes keep their placed-shape routines (the fast path);
        // a pair with a polygonal shape goes through the ShapeGeometry table.
        const bool polygonal = isPolygonal(shapeA.type) || isPolygonal(shapeB.type);
        const auto collideAt = [&](float speculative) {
            if (!polygonal)
                return collide(placeShape(shapeA, bodyA), placeShape(shapeB, bodyB), speculative);
            return collideShapes(geometryOf(shapeA), transformOf(shapeA, bodyA), geometryOf(shapeB),
                                 transformOf(shapeB, bodyB), speculative);
        };
        if (contact.sensor) {
            contact.touching = collideAt(0.0f).pointCount > 0;
            if (contact.touching != wasTouching) {
                const ShapeId idA = state.shapeId(contact.shapeA),
                              idB = state.shapeId(contact.shapeB);
                const ShapeId sensor = shapeA.isSensor ? idA : idB;
                const ShapeId visitor = shapeA.isSensor ? idB : idA;
                if (contact.touching)
                    state.sensorBeginEvents.push_back({sensor, visitor});
                else
                    state.sensorEndEvents.push_back({sensor, visitor});
            }
            continue;
        }
        // Bodies closing fast get a proportionally wider speculative margin, so they are stopped
        // at the surface instead of overlapping first.
        const float closing = lengthOf(bodyB.linearVelocity - bodyA.linearVelocity) * dt;
        Manifold manifold = collideAt(state.def.speculativeDistance + closing);
        const Manifold& old = contact.manifold;
        for (int i = 0; i < manifold.pointCount; ++i) {
            ManifoldPoint& p = manifold.points[i];
            p.anchorA = p.point - bodyA.center;
            p.anchorB = p.point - bodyB.center;
            for (int j = 0; j < old.pointCount; ++j) {
                if (old.points[j].id != p.id) continue;
                p.normalImpulse = old.points[j].normalImpulse;
                p.tangentImpulse = old.points[j].tangentImpulse;
                break;
            }
        }
        contact.manifold = manifold;
        contact.touching = manifold.pointCount > 0;
        if (contact.touching) {
            ++touchingCount;
            // A touching contact joins the bodies' islands: a sleeping partner wakes up.
            if (!bodyA.awake) state.wake(shapeA.body);
            if (!bodyB.awake) state.wake(shapeB.body);
            if (!wasTouching && contact.reportContactEvents)
                state.beginEvents.push_back(
                    {state.shapeId(contact.shapeA), state.shapeId(contact.shapeB)});
        } else if (wasTouching && contact.reportContactEvents) {
            state.endEvents.push_back(
                {state.shapeId(contact.shapeA), state.shapeId(contact.shapeB)});
        }
    }
    state.stats.touchingContacts = touchingCount;
}

} // namespace rigid2d::detail
