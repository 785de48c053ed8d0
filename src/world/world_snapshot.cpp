// World::snapshot: the whole world as bytes (World::restore, world_restore.cpp, reads them back).
//
// Layout (little-endian): the header of snapshot_fields.hpp, then the payload: the world's
// settings; every body, shape and contact slot (generation and liveness, then the fields of
// snapshot_fields.hpp for live ones); each live body's shape and contact lists in list order; the
// free lists and the awake bodies; the events of the last step and those waiting for the next;
// the joints (snapshot_joints.hpp); the chains (snapshot_chains.hpp).
#include <cstring>

#include "core/byte_io.hpp"
#include "state/world_state.hpp"
#include "world/snapshot_chains.hpp"
#include "world/snapshot_fields.hpp"
#include "world/snapshot_joints.hpp"

namespace rigid2d {

using detail::ByteWriter;
using detail::kNullIndex;
using detail::recordSizes;
using detail::require;
using detail::WorldState;

namespace {

template <class Record, class Fields>
void putRecord(ByteWriter& w, std::size_t bytes, const Record& record, Fields fields) {
    detail::SnapshotOut out(w.room(bytes));
    fields(out, record);
}

void putId(ByteWriter& w, ShapeId id) {
    w.put(id.index);
    w.put(id.generation);
}

template <class T>
void putIndexList(ByteWriter& w, const std::vector<T>& list) {
    w.putCount(list.size());
    for (const T index : list) w.put(index);
}

void writePayload(const WorldState& s, ByteWriter& w) {
    const detail::RecordSizes& size = recordSizes();
    putRecord(w, size.def, s.def, [](auto& io, auto& d) { detail::worldDefFields(io, d); });
    w.putCount(s.bodies.size());
    for (const detail::Body& body : s.bodies) {
        w.put(body.generation);
        w.put(body.live);
        if (body.live)
            putRecord(w, size.body, body, [](auto& io, auto& b) { detail::bodyFields(io, b); });
    }
    w.putCount(s.shapes.size());
    for (const detail::Shape& shape : s.shapes) {
        w.put(shape.generation);
        w.put(shape.live);
        if (!shape.live) continue;
        putRecord(w, size.shape, shape, [](auto& io, auto& x) { detail::shapeFields(io, x); });
        if (detail::isPolygonal(shape.type))
            putRecord(w, size.polygon, shape.polygon,
                      [](auto& io, auto& p) { detail::polygonFields(io, p); });
    }
    w.putCount(s.contacts.size());
    for (const detail::Contact& contact : s.contacts) {
        w.put(contact.live);
        if (!contact.live) continue;
        putRecord(w, size.contact, contact,
                  [](auto& io, auto& c) { detail::contactFields(io, c); });
        for (int i = 0; i < contact.manifold.pointCount; ++i)
            putRecord(w, size.point, contact.manifold.points[i],
                      [](auto& io, auto& p) { detail::manifoldPointFields(io, p); });
    }
    // List orders matter (mass sums, island walks), so they are saved rather than re-derived.
    for (std::uint32_t b = 0; b < s.bodies.size(); ++b) {
        const detail::Body& body = s.bodies[b];
        if (!body.live) continue;
        w.putCount(body.shapeCount);
        for (std::uint32_t i = body.firstShape; i != kNullIndex; i = s.shapes[i].nextInBody)
            w.put(i);
        std::size_t contacts = 0;
        for (std::uint32_t c = body.firstContact; c != kNullIndex;
             c = s.contacts[c].edges[detail::sideOf(s.contacts[c], b)].next)
            ++contacts;
        w.putCount(contacts);
        for (std::uint32_t c = body.firstContact; c != kNullIndex;
             c = s.contacts[c].edges[detail::sideOf(s.contacts[c], b)].next)
            w.put(c);
    }
    putIndexList(w, s.bodyPool.freeList());
    putIndexList(w, s.shapePool.freeList());
    putIndexList(w, s.contactPool.freeList());
    putIndexList(w, s.awakeBodies);

    const auto pairs = [&](const auto& events, auto first, auto second) {
        w.putCount(events.size());
        for (const auto& e : events) {
            putId(w, e.*first);
            putId(w, e.*second);
        }
    };
    pairs(s.beginEvents, &ContactBeginEvent::shapeA, &ContactBeginEvent::shapeB);
    pairs(s.endEvents, &ContactEndEvent::shapeA, &ContactEndEvent::shapeB);
    pairs(s.pendingEndEvents, &ContactEndEvent::shapeA, &ContactEndEvent::shapeB);
    pairs(s.sensorBeginEvents, &SensorBeginEvent::sensorShape, &SensorBeginEvent::visitorShape);
    pairs(s.sensorEndEvents, &SensorEndEvent::sensorShape, &SensorEndEvent::visitorShape);
    pairs(s.pendingSensorEndEvents, &SensorEndEvent::sensorShape, &SensorEndEvent::visitorShape);
    w.putCount(s.hitEvents.size());
    for (const ContactHitEvent& e : s.hitEvents) {
        putId(w, e.shapeA);
        putId(w, e.shapeB);
        putRecord(w, size.hitEvent, e, [](auto& io, auto& h) { detail::hitEventFields(io, h); });
    }
    detail::writeJoints(s, w);
    detail::writeChains(s, w);
}

} // namespace

std::vector<std::uint8_t> World::snapshot() const {
    std::vector<std::uint8_t> bytes;
    snapshot(bytes);
    return bytes;
}

void World::snapshot(std::vector<std::uint8_t>& bytes) const {
    const WorldState& s = *m_state;
    require(!s.customBroadPhase, "World::snapshot", "broadPhase",
            "is user-written and cannot be saved; set a built-in kind first");
    bytes.clear();
    // About what a world of this size takes, so the writer rarely grows.
    bytes.reserve(detail::kSnapshotHeaderBytes + 512 + s.bodies.size() * 60 + s.shapes.size() * 90 +
                  s.contacts.size() * 110);
    ByteWriter w(bytes);
    w.putBytes({reinterpret_cast<const std::uint8_t*>(detail::kSnapshotMagic),
                sizeof(detail::kSnapshotMagic)});
    w.put(kSnapshotVersion);
    w.put(std::uint32_t{0});
    w.put(std::uint64_t{0}); // payload size and checksum, filled in below
    w.put(std::uint64_t{0});
    writePayload(s, w);
    w.finish();
    const std::span<const std::uint8_t> payload(bytes.data() + detail::kSnapshotHeaderBytes,
                                                bytes.size() - detail::kSnapshotHeaderBytes);
    std::vector<std::uint8_t> tail;
    ByteWriter header(tail);
    header.put(std::uint64_t{payload.size()});
    header.put(detail::checksum(payload));
    header.finish();
    std::memcpy(bytes.data() + sizeof(detail::kSnapshotMagic) + 8, tail.data(), tail.size());
}

} // namespace rigid2d
