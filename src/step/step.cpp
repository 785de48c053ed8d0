// World::step, stage by stage (DESIGN.md "One step, as data flows"). The stages run in this order
// so that after step() returns every proxy holds its shape (queries are exact between steps):
//
//   pairs      new pairs of proxies that moved since the last search -> contacts (canonical order)
//   contacts   drop contacts whose fat boxes parted; narrow phase; begin/end/sensor events
//   integrate  gather awake bodies into the dense solver array (velocities are integrated per
//              substep inside the solver)
//   solve      soft step; impulses back into manifolds; hit events; write bodies back
//   continuous bullets swept against static shapes
//   broadphase fat boxes of awake shapes that left them, proxies moved
//   sleep      islands at rest fall asleep
#include <algorithm>
#include <chrono>
#include <cmath>

#include "island/sleep_islands.hpp"
#include "narrowphase/collide_shapes.hpp"
#include "world/world_state.hpp"

namespace rigid2d::detail {

namespace {
using Clock = std::chrono::steady_clock;
float millisecondsSince(Clock::time_point start) {
    return std::chrono::duration<float, std::milli>(Clock::now() - start).count();
}
[[nodiscard]] inline float lengthOf(Vec2 v) noexcept { return std::sqrt(v.x * v.x + v.y * v.y); }

// inverseMass * force (or torque) plus the gravity term, for a body with a force: the product may
// be beyond a float (a light body, a huge force), so it is taken in double and bounded far above
// anything the speed clamps let through.
[[nodiscard]] float boundedAcceleration(float gravityTerm, float inverseMass, float force) {
    constexpr double kBound = 1e18;
    const double a = double{gravityTerm} + double{inverseMass} * double{force};
    return static_cast<float>(std::clamp(a, -kBound, kBound));
}

} // namespace

void WorldState::step(float dt) {
    const auto stepStart = Clock::now();
    beginEvents.clear();
    endEvents.clear();
    hitEvents.clear();
    sensorBeginEvents.clear();
    sensorEndEvents.clear();
    endEvents.swap(pendingEndEvents);
    sensorEndEvents.swap(pendingSensorEndEvents);

    auto t = Clock::now();
    findNewPairs();
    stats.pairsMs = millisecondsSince(t);

    t = Clock::now();
    updateContacts(dt);
    stats.contactsMs = millisecondsSince(t);

    solve(dt); // sets integrateMs and solveMs

    t = Clock::now();
    solveContinuous();
    stats.continuousMs = millisecondsSince(t);

    t = Clock::now();
    updateBroadPhase(dt);
    stats.broadPhaseMs = millisecondsSince(t);

    t = Clock::now();
    sleepAndFinish(dt);
    stats.sleepMs = millisecondsSince(t);

    stats.bodies = bodyCount;
    stats.shapes = shapeCount;
    stats.awakeBodies = awakeBodies.size();
    stats.proxies = broadPhase->size();
    stats.contacts = contactCount;
    stats.broadPhase = broadPhase->stats();
    stats.totalMs = millisecondsSince(stepStart);
}

// New pairs come only from proxies that moved: either from one query per moved proxy with its
// fat box, or, when many moved (or the broad phase's queries are slow), from one findPairs
// filtered to the pairs that involve a moved proxy. Both give the same set. Pairs that already
// have a contact are skipped. The pairs are sorted by (shapeA, shapeB) before contacts are
// created, so contact ids, and hence the solver order, are the same whichever broad phase
// answered and whichever path it took.
void WorldState::findNewPairs() {
    newPairs.clear();
    std::size_t moved = 0;
    for (const std::uint32_t s : movedShapes) {
        Shape& shape = shapes[s];
        if (!shape.live || !shape.moved) {
            shape.moved = false;
            continue;
        }
        ++moved;
    }
    auto consider = [&](std::uint32_t s, std::uint32_t other) {
        if (!shouldCollide(s, other)) return;
        const std::uint64_t key = s < other ? pairKey(s, other) : pairKey(other, s);
        if (pairs.find(key) == PairMap::kMissing) newPairs.push_back(key);
    };
    if (moved > 0 && moved >= broadPhase->pairSearchThreshold()) {
        broadPhase->findPairs(allPairs);
        for (const ProxyPair& pair : allPairs) {
            const std::uint32_t a = proxyShape[toIndex(pair.a)];
            const std::uint32_t b = proxyShape[toIndex(pair.b)];
            if (shapes[a].moved || shapes[b].moved) consider(a, b);
        }
    } else {
        for (const std::uint32_t s : movedShapes) {
            const Shape& shape = shapes[s];
            if (!shape.moved) continue;
            broadPhase->query(shape.fatBox, [&](ProxyId proxy) {
                const std::uint32_t other = proxyShape[toIndex(proxy)];
                // A pair of two moved shapes is taken from the lower one's query only.
                if (other != s && !(shapes[other].moved && other < s)) consider(s, other);
                return true;
            });
        }
    }
    stats.movedProxies = moved;
    for (const std::uint32_t s : movedShapes) shapes[s].moved = false;
    movedShapes.clear();
    std::sort(newPairs.begin(), newPairs.end());
    newPairs.erase(std::unique(newPairs.begin(), newPairs.end()), newPairs.end());
    for (const std::uint64_t key : newPairs)
        createContact(static_cast<std::uint32_t>(key >> 32), static_cast<std::uint32_t>(key));
    stats.newPairs = newPairs.size();
}

void WorldState::updateContacts(float dt) {
    std::size_t touchingCount = 0;
    for (std::uint32_t c = 0; c < contacts.size(); ++c) {
        Contact& contact = contacts[c];
        if (!contact.live) continue;
        const Shape& shapeA = shapes[contact.shapeA];
        const Shape& shapeB = shapes[contact.shapeB];
        const Body& bodyA = bodies[shapeA.body];
        const Body& bodyB = bodies[shapeB.body];
        // Sleeping (and static) bodies do not move: their contacts cannot change.
        if (!bodyA.awake && !bodyB.awake) {
            touchingCount += contact.touching ? 1 : 0;
            continue;
        }
        if (!overlaps(shapeA.fatBox, shapeB.fatBox)) {
            destroyContact(c, false);
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
                const ShapeId idA = shapeId(contact.shapeA), idB = shapeId(contact.shapeB);
                const ShapeId sensor = shapeA.isSensor ? idA : idB;
                const ShapeId visitor = shapeA.isSensor ? idB : idA;
                if (contact.touching)
                    sensorBeginEvents.push_back({sensor, visitor});
                else
                    sensorEndEvents.push_back({sensor, visitor});
            }
            continue;
        }
        // Bodies closing fast get a proportionally wider speculative margin, so they are stopped
        // at the surface instead of overlapping first.
        const float closing = lengthOf(bodyB.linearVelocity - bodyA.linearVelocity) * dt;
        Manifold manifold = collideAt(def.speculativeDistance + closing);
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
            if (!bodyA.awake) wake(shapeA.body);
            if (!bodyB.awake) wake(shapeB.body);
            if (!wasTouching && contact.reportContactEvents)
                beginEvents.push_back({shapeId(contact.shapeA), shapeId(contact.shapeB)});
        } else if (wasTouching && contact.reportContactEvents) {
            endEvents.push_back({shapeId(contact.shapeA), shapeId(contact.shapeB)});
        }
    }
    stats.touchingContacts = touchingCount;
}

void WorldState::solve(float dt) {
    auto t = Clock::now();
    const Vec2 gravity = def.gravity;
    solverBodies.resize(awakeBodies.size() + 1);
    solverMotions.resize(awakeBodies.size() + 1);
    solverBodies[0] = SolverState{};
    solverMotions[0] = SolverMotion{};
    // Solver slot per body (0: asleep or static), compact so that the constraint loop below
    // reads it from cache instead of each body's record.
    bodySlots.assign(bodies.size(), 0u);
    for (std::uint32_t i = 0; i < awakeBodies.size(); ++i) {
        Body& body = bodies[awakeBodies[i]];
        bodySlots[awakeBodies[i]] = i + 1;
        SolverState& sb = solverBodies[i + 1];
        sb.v = body.linearVelocity;
        sb.w = body.invInertia > 0.0f || body.type == BodyType::Kinematic ? body.angularVelocity
                                                                          : 0.0f;
        sb.dp = {};
        sb.dq = Rot{};
        sb.dAngle = 0.0f;
        SolverMotion& motion = solverMotions[i + 1];
        motion.invMass = body.invMass;
        motion.invInertia = body.invInertia;
        if (body.type == BodyType::Dynamic) {
            // Gravity and gravity scales are bounded (types.hpp): only forces can overflow.
            const Vec2 g = body.gravityScale * gravity;
            if (body.force.x == 0.0f && body.force.y == 0.0f && body.torque == 0.0f) {
                motion.linearAcceleration = g + body.invMass * body.force;
                motion.angularAcceleration = 0.0f;
            } else {
                motion.linearAcceleration = {boundedAcceleration(g.x, body.invMass, body.force.x),
                                             boundedAcceleration(g.y, body.invMass, body.force.y)};
                motion.angularAcceleration =
                    boundedAcceleration(0.0f, body.invInertia, body.torque);
            }
            motion.linearDamping = body.linearDamping;
            motion.angularDamping = body.angularDamping;
        } else {
            motion.linearAcceleration = {};
            motion.angularAcceleration = 0.0f;
            motion.linearDamping = motion.angularDamping = 0.0f;
        }
    }
    // Grown, never shrunk: every field of a used constraint is written below or in the solver,
    // so re-initialising them each step would only cost memory traffic.
    if (constraints.size() < stats.touchingContacts) constraints.resize(stats.touchingContacts);
    std::size_t used = 0;
    for (std::uint32_t c = 0; c < contacts.size(); ++c) {
        const Contact& contact = contacts[c];
        if (!contact.live || !contact.touching || contact.sensor) continue;
        const std::uint32_t slotA = bodySlots[contact.edges[0].body];
        const std::uint32_t slotB = bodySlots[contact.edges[1].body];
        if (slotA == 0 && slotB == 0) continue;                            // both asleep or static
        if (used == constraints.size()) constraints.resize(2 * used + 16); // not expected
        ContactConstraint& constraint = constraints[used++];
        constraint.bodyA = slotA;
        constraint.bodyB = slotB;
        constraint.contact = c;
        constraint.friction = contact.friction;
        constraint.restitution = contact.restitution;
        loadConstraintPoints(constraint, contact.manifold);
    }
    activeConstraints = std::span<ContactConstraint>(constraints.data(), used);
    stats.integrateMs = millisecondsSince(t);

    t = Clock::now();
    SolverSettings settings;
    settings.dt = dt;
    settings.substeps = def.substeps;
    settings.contactHertz = def.contactHertz;
    settings.contactDampingRatio = def.contactDampingRatio;
    settings.maxContactPushSpeed = def.maxContactPushSpeed;
    settings.restitutionThreshold = def.restitutionThreshold;
    settings.maxLinearSpeed = def.maxTranslation / dt;
    settings.maxAngularSpeed = def.maxRotation / dt;
    settings.maxMassRatio = def.maxContactMassRatio;
    solveSoftStep(solverBodies, solverMotions, activeConstraints, settings, solverScratch);

    // Impulses back into the persistent manifolds (warm starting next step), hit events.
    for (const ContactConstraint& constraint : activeConstraints) {
        Contact& contact = contacts[constraint.contact];
        Manifold& manifold = contact.manifold;
        float bestSpeed = 0.0f;
        int best = -1;
        for (int i = 0; i < constraint.pointCount; ++i) {
            const SolverPoint& p = constraint.points[i];
            ManifoldPoint& mp = manifold.points[i];
            mp.normalImpulse = p.normalImpulse;
            mp.tangentImpulse = p.tangentImpulse;
            mp.maxNormalImpulse = p.maxNormalImpulse;
            mp.approachSpeed = -p.approachVelocity;
            if (p.maxNormalImpulse > 0.0f && mp.approachSpeed > bestSpeed) {
                bestSpeed = mp.approachSpeed;
                best = i;
            }
        }
        if (contact.reportHitEvents && best >= 0 && bestSpeed >= def.hitEventThreshold) {
            const Body& bodyA = bodies[contact.edges[0].body];
            hitEvents.push_back({shapeId(contact.shapeA), shapeId(contact.shapeB),
                                 bodyA.center + manifold.points[best].anchorA, manifold.normal,
                                 bestSpeed});
        }
    }

    stats.resetBodies = 0;
    for (std::uint32_t i = 0; i < awakeBodies.size(); ++i) {
        Body& body = bodies[awakeBodies[i]];
        SolverState& sb = solverBodies[i + 1];
        // One test for all six: a NaN or infinity in any of them makes the sum non-finite, and
        // finite ones are far too small (speeds are clamped) for the sum to overflow.
        const float probe = sb.v.x + sb.v.y + sb.w + sb.dp.x + sb.dp.y + sb.dAngle;
        if (!std::isfinite(probe)) [[unlikely]] {
            // Last resort (see World::step): the body stays where it was, at rest.
            body.linearVelocity = {};
            body.angularVelocity = 0.0f;
            body.force = {};
            body.torque = 0.0f;
            sb = SolverState{}; // the continuous stage reads this step's translation
            ++stats.resetBodies;
            continue;
        }
        body.linearVelocity = sb.v;
        body.angularVelocity = sb.w;
        body.force = {};
        body.torque = 0.0f;
        body.center += sb.dp;
        if (sb.dAngle != 0.0f) {
            body.angle += sb.dAngle;
            body.rot = makeRot(body.angle);
        }
        body.position = body.center - rotate(body.rot, body.localCenter);
    }
    // Last resort, continued: a body went non-finite only through a non-finite impulse of one
    // of its contacts, which must not be warm-started next step.
    if (stats.resetBodies > 0) [[unlikely]]
        for (const ContactConstraint& constraint : activeConstraints) {
            Manifold& manifold = contacts[constraint.contact].manifold;
            for (int i = 0; i < manifold.pointCount; ++i) {
                ManifoldPoint& mp = manifold.points[i];
                if (!std::isfinite(mp.normalImpulse) || !std::isfinite(mp.tangentImpulse) ||
                    !std::isfinite(mp.maxNormalImpulse) || !std::isfinite(mp.approachSpeed))
                    mp.normalImpulse = mp.tangentImpulse = mp.maxNormalImpulse = mp.approachSpeed =
                        0.0f;
            }
        }
    stats.solveMs = millisecondsSince(t);
}

// A shape's fat box is its tight box grown by the margin and stretched along one step of its
// velocity: a body in steady motion stays inside it for several steps, and a fast body's pairs are
// found one step before it arrives, so the speculative contact can stop it at the surface.
void WorldState::updateBroadPhase(float dt) {
    for (const std::uint32_t b : awakeBodies) {
        const Body& body = bodies[b];
        for (std::uint32_t s = body.firstShape; s != kNullIndex; s = shapes[s].nextInBody) {
            Shape& shape = shapes[s];
            const AABB tight = shapeBounds(shape, body);
            if (contains(shape.fatBox, tight)) continue;
            AABB fat = fatten(tight, def.aabbMargin);
            const Vec2 reach = dt * body.linearVelocity;
            (reach.x > 0.0f ? fat.upper.x : fat.lower.x) += reach.x;
            (reach.y > 0.0f ? fat.upper.y : fat.lower.y) += reach.y;
            shape.fatBox = fat;
            broadPhase->move(shape.proxy, shape.fatBox);
            markMoved(s);
        }
    }
}

void WorldState::sleepAndFinish(float dt) {
    const float linearTolSq = def.linearSleepTolerance * def.linearSleepTolerance;
    const float angularTolSq = def.angularSleepTolerance * def.angularSleepTolerance;
    sleepTimes.resize(awakeBodies.size());
    // Per solver slot: is the body dynamic (slot 0, static, is not). Compact, so the loop over
    // constraints below does not read two random body records per constraint.
    slotDynamic.assign(awakeBodies.size() + 1, 0);
    for (std::uint32_t i = 0; i < awakeBodies.size(); ++i) {
        Body& body = bodies[awakeBodies[i]];
        slotDynamic[i + 1] = body.type == BodyType::Dynamic ? 1 : 0;
        const Vec2 v = body.linearVelocity;
        const float w = body.angularVelocity;
        if (!body.enableSleep || v.x * v.x + v.y * v.y > linearTolSq || w * w > angularTolSq)
            body.sleepTime = 0.0f;
        else
            body.sleepTime += dt;
        sleepTimes[i] = body.sleepTime;
    }
    islandLinks.clear();
    for (const ContactConstraint& constraint : activeConstraints) {
        if (slotDynamic[constraint.bodyA] == 0 || slotDynamic[constraint.bodyB] == 0) continue;
        islandLinks.push_back(constraint.bodyA - 1);
        islandLinks.push_back(constraint.bodyB - 1);
    }
    stats.islands = findSleepingIslands(
        std::span<const float>(sleepTimes.data(), sleepTimes.size()), islandLinks, def.timeToSleep,
        islandParent, islandMinTime, islandSleeps);
    if (!def.enableSleep) return;
    wakeStack.clear();
    for (std::uint32_t i = 0; i < awakeBodies.size(); ++i)
        if (islandSleeps[i] != 0) wakeStack.push_back(awakeBodies[i]);
    for (const std::uint32_t b : wakeStack) {
        Body& body = bodies[b];
        body.linearVelocity = {};
        body.angularVelocity = 0.0f;
        removeAwake(b);
    }
}

} // namespace rigid2d::detail
