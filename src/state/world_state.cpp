#include "state/world_state.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>

#include "core/assert.hpp"
#include "core/check.hpp"
#include "core/grow.hpp"

namespace rigid2d::detail {

std::atomic<std::uint64_t>& worldSerialCounter() noexcept {
    static std::atomic<std::uint64_t> counter{0};
    return counter;
}

namespace {
std::uint64_t nextWorldSerial() {
    // Never 0, so that the null handle names no world.
    return worldSerialCounter().fetch_add(1, std::memory_order_relaxed) + 1u;
}
} // namespace

WorldState::WorldState(const WorldDef& worldDef) : def(worldDef), serial(nextWorldSerial()) {
    broadPhase = makeBroadPhase(def.broadPhase, def.broadPhaseConfig);
    bindBroadPhase();
    contactStage.workerCounts.resize(static_cast<std::size_t>(def.workerCount));
}

void WorldState::bindBroadPhase() noexcept {
    // A user-written kind searches on the thread that calls it, as the interface promises.
    builtInBroadPhase = dynamic_cast<BuiltInBroadPhase*>(broadPhase.get());
    if (builtInBroadPhase != nullptr) builtInBroadPhase->setWorkers(&def);
}

Body& WorldState::checkedBody(BodyId id, std::string_view function) {
    require(isLive(id), function, "body",
            "must be a live body of this world (stale, null or foreign id)");
    return bodies[id.index];
}

Shape& WorldState::checkedShape(ShapeId id, std::string_view function) {
    require(isLive(id), function, "shape",
            "must be a live shape of this world (stale, null or foreign id)");
    return shapes[id.index];
}

Chain& WorldState::checkedChain(ChainId id, std::string_view function) {
    require(isLive(id), function, "chain",
            "must be a live chain of this world (stale, null or foreign id)");
    return chains[id.index];
}

void WorldState::requireUnlocked(std::string_view function) const {
    require(lockDepth == 0, function, "world",
            "cannot be changed from inside a query or visit callback");
}

void WorldState::markMoved(std::uint32_t shapeIndex) {
    Shape& shape = shapes[shapeIndex];
    if (shape.moved) return;
    shape.moved = true;
    movedShapes.push_back(shapeIndex);
}

void WorldState::placeBody(std::uint32_t bodyIndex, Vec2 position, float angle) {
    Body& body = bodies[bodyIndex];
    const Body before = body;
    placeScratch.clear();
    for (std::uint32_t s = body.firstShape; s != kNullIndex; s = shapes[s].nextInBody)
        placeScratch.push_back({shapes[s].fatBox, shapes[s].tightBox});
    body.position = position;
    body.angle = angle;
    body.rot = makeRot(angle);
    body.center = position + rotate(body.rot, body.localCenter);
    std::uint32_t moved = 0;
    try {
        for (std::uint32_t s = body.firstShape; s != kNullIndex; s = shapes[s].nextInBody) {
            Shape& shape = shapes[s];
            const AABB tight = shapeBounds(shape, body);
            const AABB fat = fatten(tight, fatMargin());
            broadPhase->move(shape.proxy, fat);
            shape.fatBox = fat;
            shape.tightBox = tight;
            ++moved;
        }
    } catch (...) {
        // A user-written broad phase refused a move: put the body and its moved proxies back.
        body = before;
        std::uint32_t i = 0;
        for (std::uint32_t s = body.firstShape; i < moved; s = shapes[s].nextInBody, ++i) {
            shapes[s].fatBox = placeScratch[i].fatBox;
            shapes[s].tightBox = placeScratch[i].tightBox;
            broadPhase->move(shapes[s].proxy, placeScratch[i].fatBox);
        }
        throw;
    }
    for (std::uint32_t s = body.firstShape; s != kNullIndex; s = shapes[s].nextInBody) {
        markMoved(s);
        if (shapes[s].staticProxy != ProxyId::Null)
            staticShapes.move(shapes[s].staticProxy, shapes[s].fatBox);
    }
}

void WorldState::destroyShapeSlot(std::uint32_t shapeIndex) {
    Shape& shape = shapes[shapeIndex];
    // Contacts first: each one unlinks itself from both bodies' lists.
    Body& body = bodies[shape.body];
    forEachContactOf(shape.body, [&](std::uint32_t c, std::uint32_t other) {
        const Contact& contact = contacts[c];
        if (contact.shapeA != shapeIndex && contact.shapeB != shapeIndex) return;
        if (isSolvable(contact)) wake(other);
        destroyContact(c, true);
    });
    proxyOwners[toIndex(shape.proxy)] = ProxyOwner{};
    broadPhase->remove(shape.proxy);
    if (shape.staticProxy != ProxyId::Null) {
        staticShapes.remove(shape.staticProxy);
        if (hasNoArea(shape.type)) --staticWallCount;
    }
    // Unlink from the body's shape list.
    std::uint32_t* link = &body.firstShape;
    while (*link != shapeIndex) link = &shapes[*link].nextInBody;
    *link = shape.nextInBody;
    --body.shapeCount;

    // A slot on the moved list keeps its flag: a shape that takes the slot before the next step
    // is then not listed twice (the pair stage reads the list in pieces, relying on that).
    const bool listed = shape.moved;
    filters.remove(shape.filter);
    shapePool.release(shapes, shapeIndex);
    shapes[shapeIndex].moved = listed;
    --shapeCount;
}

void WorldState::destroyChainSlot(std::uint32_t chainIndex) {
    Chain& chain = chains[chainIndex];
    // Last attached first: the links sit at the head of the body's shape list in that order, so
    // each unlink is immediate rather than a walk down the list.
    for (auto link = chain.links.rbegin(); link != chain.links.rend(); ++link)
        destroyShapeSlot(*link);
    chainPool.release(chains, chainIndex);
}

void WorldState::addAwake(std::uint32_t bodyIndex) {
    Body& body = bodies[bodyIndex];
    body.awake = true;
    body.sleepTime = 0.0f;
    body.awakeIndex = static_cast<std::uint32_t>(awakeBodies.size());
    awakeBodies.push_back(bodyIndex);
}

void WorldState::removeAwake(std::uint32_t bodyIndex) {
    Body& body = bodies[bodyIndex];
    const std::uint32_t slot = body.awakeIndex;
    const std::uint32_t last = awakeBodies.back();
    awakeBodies[slot] = last;
    bodies[last].awakeIndex = slot;
    awakeBodies.pop_back();
    body.awakeIndex = kNullIndex;
    body.awake = false;
}

// Flood fill over touching, non-sensor contacts: a sleeping island is exactly the set of bodies
// connected this way, so waking one body wakes its island and nothing else.
void WorldState::wake(std::uint32_t bodyIndex) {
    if (bodies[bodyIndex].type == BodyType::Static) return;
    if (bodies[bodyIndex].awake) {
        bodies[bodyIndex].sleepTime = 0.0f;
        return;
    }
    addAwake(bodyIndex);
    floodTouching(
        bodyIndex,
        [&](std::uint32_t other) {
            const Body& body = bodies[other];
            if (body.type == BodyType::Static || body.awake) return false;
            addAwake(other);
            return true;
        },
        [](std::uint32_t) {});
}

void WorldState::sleepIsland(std::uint32_t bodyIndex) {
    if (bodies[bodyIndex].type == BodyType::Static || !bodies[bodyIndex].awake) return;
    removeAwake(bodyIndex);
    floodTouching(
        bodyIndex,
        [&](std::uint32_t other) {
            const Body& body = bodies[other];
            if (body.type != BodyType::Dynamic || !body.awake) return false;
            removeAwake(other);
            return true;
        },
        [&](std::uint32_t b) {
            Body& body = bodies[b];
            body.linearVelocity = {};
            body.angularVelocity = 0.0f;
            body.force = {};
            body.torque = 0.0f;
        });
}

bool WorldState::shouldCollide(std::uint32_t shapeA, std::uint32_t shapeB) const noexcept {
    const Shape& a = shapes[shapeA];
    const Shape& b = shapes[shapeB];
    if (a.body == b.body) return false;
    if (a.isSensor && b.isSensor) return false;
    if (a.isSensor && !b.enableSensorEvents) return false;
    if (b.isSensor && !a.enableSensorEvents) return false;
    // The filters before the bodies, whose records lie elsewhere.
    const std::int32_t group = a.filter.groupIndex;
    if (sameNegativeGroup(group, b.filter.groupIndex)) return false;
    // One positive group collides within itself whatever the masks say.
    const bool samePositiveGroup = group == b.filter.groupIndex && group > 0;
    if (!samePositiveGroup && ((a.filter.maskBits & b.filter.categoryBits) == 0 ||
                               (a.filter.categoryBits & b.filter.maskBits) == 0))
        return false;
    // At least one side must be dynamic: static/kinematic pairs never respond.
    if (bodies[a.body].type != BodyType::Dynamic && bodies[b.body].type != BodyType::Dynamic)
        return false;
    return !jointForbidsCollision(a.body, b.body);
}

void WorldState::createContact(std::uint32_t shapeA, std::uint32_t shapeB) {
    R2D_ASSERT(shapeA < shapeB, "createContact: shapes must be ordered");
    const std::uint32_t index = contactPool.take(contacts);
    const Shape& a = shapes[shapeA];
    const Shape& b = shapes[shapeB];
    Contact& contact = contacts[index];
    contact = Contact{};
    contact.live = true;
    contact.shapeA = shapeA;
    contact.shapeB = shapeB;
    contact.sensor = a.isSensor || b.isSensor;
    contact.reportContactEvents = a.enableContactEvents || b.enableContactEvents;
    contact.reportHitEvents = a.enableHitEvents || b.enableHitEvents;
    setKindFlags(contact, a.type, b.type);
    contact.friction = mixFriction(a.friction, b.friction);
    contact.restitution = std::max(a.restitution, b.restitution);
    const std::uint32_t bodyOf[2] = {a.body, b.body};
    for (int side = 0; side < 2; ++side) {
        Body& body = bodies[bodyOf[side]];
        ContactEdge& edge = contact.edges[side];
        edge.body = bodyOf[side];
        edge.prev = kNullIndex;
        edge.next = body.firstContact;
        if (body.firstContact != kNullIndex) {
            Contact& head = contacts[body.firstContact];
            head.edges[sideOf(head, bodyOf[side])].prev = index;
        }
        body.firstContact = index;
    }
    pairs.insert(pairKey(shapeA, shapeB), index);
    ++contactCount;
}

void WorldState::reserveContacts(std::size_t count) {
    pairs.reserve(contactCount + count);
    reserveWithRoom(contacts, contacts.size() + count); // at most: freed slots are taken first
}

void WorldState::destroyContact(std::uint32_t contactIndex, bool deferEvents) {
    Contact& contact = contacts[contactIndex];
    if (contact.touching) {
        const ShapeId a = shapeId(contact.shapeA), b = shapeId(contact.shapeB);
        if (contact.sensor) {
            const bool aIsSensor = shapes[contact.shapeA].isSensor;
            const SensorEndEvent event{aIsSensor ? a : b, aIsSensor ? b : a};
            (deferEvents ? pendingSensorEndEvents : sensorEndEvents).push_back(event);
        } else if (contact.reportContactEvents) {
            (deferEvents ? pendingEndEvents : endEvents).push_back({a, b});
        }
    }
    for (int side = 0; side < 2; ++side) {
        const ContactEdge& edge = contact.edges[side];
        Body& body = bodies[edge.body];
        if (edge.prev != kNullIndex) {
            Contact& prev = contacts[edge.prev];
            prev.edges[sideOf(prev, edge.body)].next = edge.next;
        } else {
            body.firstContact = edge.next;
        }
        if (edge.next != kNullIndex) {
            Contact& next = contacts[edge.next];
            next.edges[sideOf(next, edge.body)].prev = edge.prev;
        }
    }
    pairs.erase(pairKey(contact.shapeA, contact.shapeB));
    contactStage.clearHead(contactIndex);
    contact.live = false;
    contactPool.free(contactIndex);
    --contactCount;
}

} // namespace rigid2d::detail
