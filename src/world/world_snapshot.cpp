// World::snapshot and World::restore: the whole world as bytes, and back.
//
// Layout (little-endian): an 8-byte magic, the format version (u32), flags (u32, 0), the payload
// size (u64) and its checksum (u64), then the payload: the world's settings; every body, shape and
// contact slot (generation and liveness, then the fields of snapshot_fields.hpp for live ones);
// each live body's shape and contact lists in list order; the free lists and the awake bodies; the
// events of the last step and those waiting for the next; the joints (snapshot_joints.hpp).
//
// Restore builds a complete new WorldState, checks every index and list against the others, and
// only then replaces the old one, so bad bytes are refused with the world unchanged. The broad
// phase is rebuilt from the saved fat boxes (in shape slot order, as setBroadPhase does): every
// kind gives the same pairs, so the step that follows is the same bits as the original's.
#include <cmath>
#include <cstring>
#include <string>

#include "core/byte_io.hpp"
#include "rigid2d/geometry.hpp"
#include "state/world_state.hpp"
#include "world/snapshot_fields.hpp"
#include "world/snapshot_joints.hpp"

namespace rigid2d {

using detail::ByteReader;
using detail::ByteWriter;
using detail::kNullIndex;
using detail::require;
using detail::WorldState;

namespace {

constexpr char kMagic[8] = {'R', '2', 'D', 'S', 'N', 'A', 'P', '\0'};
constexpr std::size_t kHeaderBytes = sizeof(kMagic) + 4 + 4 + 8 + 8;
constexpr std::string_view kRestore = "World::restore";

// Every record is written and read whole (one bounds check per record, not per field).
struct RecordSizes {
    std::size_t def, body, shape, polygon, contact, point;
};
const RecordSizes& recordSizes() {
    static const RecordSizes sizes{
        detail::recordBytes<WorldDef>([](auto& io, auto& d) { detail::worldDefFields(io, d); }),
        detail::recordBytes<detail::Body>([](auto& io, auto& b) { detail::bodyFields(io, b); }),
        detail::recordBytes<detail::Shape>([](auto& io, auto& x) { detail::shapeFields(io, x); }),
        detail::recordBytes<Polygon>([](auto& io, auto& p) { detail::polygonFields(io, p); }),
        detail::recordBytes<detail::Contact>(
            [](auto& io, auto& c) { detail::contactFields(io, c); }),
        detail::recordBytes<detail::ManifoldPoint>(
            [](auto& io, auto& p) { detail::manifoldPointFields(io, p); }),
    };
    return sizes;
}

template <class Record, class Fields>
void putRecord(ByteWriter& w, std::size_t bytes, const Record& record, Fields fields) {
    detail::SnapshotOut out(w.room(bytes));
    fields(out, record);
}

template <class Record, class Fields>
void getRecord(ByteReader& r, std::size_t bytes, Record& record, Fields fields) {
    detail::SnapshotIn in(r.take(bytes), kRestore);
    fields(in, record);
}

// --- writing

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
    const RecordSizes& size = recordSizes();
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
    putIndexList(w, s.freeBodies);
    putIndexList(w, s.freeShapes);
    putIndexList(w, s.freeContacts);
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
        putRecord(w, 20, e, [](auto& io, auto& h) {
            io(h.point);
            io(h.normal);
            io(h.approachSpeed);
        });
    }
    detail::writeJoints(s, w);
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
    bytes.reserve(kHeaderBytes + 512 + s.bodies.size() * 60 + s.shapes.size() * 90 +
                  s.contacts.size() * 110);
    ByteWriter w(bytes);
    w.putBytes({reinterpret_cast<const std::uint8_t*>(kMagic), sizeof(kMagic)});
    w.put(kSnapshotVersion);
    w.put(std::uint32_t{0});
    w.put(std::uint64_t{0}); // payload size and checksum, filled in below
    w.put(std::uint64_t{0});
    writePayload(s, w);
    w.finish();
    const std::span<const std::uint8_t> payload(bytes.data() + kHeaderBytes,
                                                bytes.size() - kHeaderBytes);
    std::vector<std::uint8_t> tail;
    ByteWriter header(tail);
    header.put(std::uint64_t{payload.size()});
    header.put(detail::checksum(payload));
    header.finish();
    std::memcpy(bytes.data() + sizeof(kMagic) + 8, tail.data(), tail.size());
}

// --- reading

namespace {

ByteReader openPayload(std::span<const std::uint8_t> bytes) {
    ByteReader header(bytes, kRestore);
    require(bytes.size() >= sizeof(kMagic) && std::memcmp(bytes.data(), kMagic, 8) == 0, kRestore,
            "bytes", "are not a rigid2d snapshot (no snapshot header)");
    for (std::size_t i = 0; i < sizeof(kMagic); ++i) (void)header.get<std::uint8_t>();
    const auto version = header.get<std::uint32_t>();
    require(version == kSnapshotVersion, kRestore, "bytes",
            "hold snapshot version " + std::to_string(version) + "; this build reads version " +
                std::to_string(kSnapshotVersion));
    const auto flags = header.get<std::uint32_t>();
    require(flags == 0, kRestore, "bytes", "have header flags this version does not define");
    const auto size = header.get<std::uint64_t>();
    const auto sum = header.get<std::uint64_t>();
    require(size == header.remaining(), kRestore, "bytes",
            size > header.remaining() ? "are truncated" : "have data past the snapshot's end");
    const std::span<const std::uint8_t> payload = bytes.subspan(kHeaderBytes);
    require(detail::checksum(payload) == sum, kRestore, "bytes",
            "fail their checksum (damaged in storage or transit)");
    return ByteReader(payload, kRestore);
}

void bad(bool ok, std::string_view what) { require(ok, kRestore, "bytes", what); }

template <class T>
void getIndexList(ByteReader& r, std::vector<T>& list) {
    list.resize(r.getCount(sizeof(T)));
    for (T& index : list) index = r.get<T>();
}

ShapeId getId(ByteReader& r, std::uint64_t serial) {
    const auto index = r.get<std::uint32_t>();
    return {index, r.get<std::uint32_t>(), serial};
}

void readEvents(ByteReader& r, WorldState& s) {
    const auto pairs = [&](auto& events, auto first, auto second) {
        events.resize(r.getCount(16));
        for (auto& e : events) {
            e.*first = getId(r, s.serial);
            e.*second = getId(r, s.serial);
        }
    };
    pairs(s.beginEvents, &ContactBeginEvent::shapeA, &ContactBeginEvent::shapeB);
    pairs(s.endEvents, &ContactEndEvent::shapeA, &ContactEndEvent::shapeB);
    pairs(s.pendingEndEvents, &ContactEndEvent::shapeA, &ContactEndEvent::shapeB);
    pairs(s.sensorBeginEvents, &SensorBeginEvent::sensorShape, &SensorBeginEvent::visitorShape);
    pairs(s.sensorEndEvents, &SensorEndEvent::sensorShape, &SensorEndEvent::visitorShape);
    pairs(s.pendingSensorEndEvents, &SensorEndEvent::sensorShape, &SensorEndEvent::visitorShape);
    s.hitEvents.resize(r.getCount(36));
    for (ContactHitEvent& e : s.hitEvents) {
        e.shapeA = getId(r, s.serial);
        e.shapeB = getId(r, s.serial);
        getRecord(r, 20, e, [](auto& io, auto& h) {
            io(h.point);
            io(h.normal);
            io(h.approachSpeed);
        });
    }
}

std::unique_ptr<WorldState> makeState(ByteReader& r, std::uint64_t serial) {
    WorldDef def;
    getRecord(r, recordSizes().def, def, [](auto& io, auto& d) { detail::worldDefFields(io, d); });
    detail::checkWorldDef(def, kRestore);
    bad(static_cast<int>(def.broadPhase) <= static_cast<int>(BroadPhaseType::Auto),
        "name an unknown broad-phase kind");
    std::unique_ptr<WorldState> state;
    try {
        state = std::make_unique<WorldState>(def);
    } catch (const Error& e) {
        detail::refuse(kRestore, "bytes",
                       std::string("hold broad-phase settings that are refused: ") + e.what());
    }
    state->serial = serial;
    return state;
}

// What createPolygon, createCapsule and createSegment make: counter-clockwise, unit normals
// that face outwards, every vertex behind every edge (convex).
bool validPolygon(ShapeType type, const Polygon& p) {
    const int wanted = type == ShapeType::Polygon ? 3 : 2;
    if (p.count < wanted || p.count > (type == ShapeType::Polygon ? kMaxPolygonVertices : 2))
        return false;
    if (type == ShapeType::Segment ? p.radius != 0.0f : p.radius < 0.0f) return false;
    if (type == ShapeType::Capsule && !(p.radius > 0.0f)) return false;
    // Rounding grows with the coordinates: makePolygon's own hull and centroid are only that
    // exact, so the checks allow as much.
    double scale = 0.0;
    for (int i = 0; i < p.count; ++i)
        scale = std::max(
            {scale, std::fabs(double{p.vertices[i].x}), std::fabs(double{p.vertices[i].y})});
    const double tolerance = double{kPolygonWeldDistance} + 1e-5 * scale;
    // The centroid lies within the vertices' bounds (the collision routines measure from it).
    AABB bounds{p.vertices[0], p.vertices[0]};
    for (int i = 1; i < p.count; ++i) bounds = combine(bounds, AABB{p.vertices[i], p.vertices[i]});
    if (double{p.centroid.x} < double{bounds.lower.x} - tolerance ||
        double{p.centroid.x} > double{bounds.upper.x} + tolerance ||
        double{p.centroid.y} < double{bounds.lower.y} - tolerance ||
        double{p.centroid.y} > double{bounds.upper.y} + tolerance)
        return false;
    for (int i = 0; i < p.count; ++i) {
        const double length = double{p.normals[i].x} * double{p.normals[i].x} +
                              double{p.normals[i].y} * double{p.normals[i].y};
        if (length < 0.99 || length > 1.01) return false;
        for (int j = 0; j < p.count; ++j) {
            const double dx = double{p.vertices[j].x} - double{p.vertices[i].x};
            const double dy = double{p.vertices[j].y} - double{p.vertices[i].y};
            if (double{p.normals[i].x} * dx + double{p.normals[i].y} * dy > tolerance) return false;
        }
    }
    return true;
}

// Warm starting applies the saved impulses before anything else: each must change its bodies'
// velocities by no more than the velocity bound, which every step keeps far below. (A unit
// normal, too, when there are points.)
bool impulsesFit(const WorldState& s, const detail::Contact& contact) {
    const detail::Manifold& m = contact.manifold;
    if (m.pointCount > 0) {
        const double n2 =
            double{m.normal.x} * double{m.normal.x} + double{m.normal.y} * double{m.normal.y};
        if (n2 < 0.99 || n2 > 1.01) return false;
    }
    constexpr double kBound = detail::kVelocityBound;
    for (int side = 0; side < 2; ++side) {
        const detail::Body& body = s.bodies[contact.edges[side].body];
        for (int i = 0; i < m.pointCount; ++i) {
            const detail::ManifoldPoint& p = m.points[i];
            const double impulse =
                std::fabs(double{p.normalImpulse}) + std::fabs(double{p.tangentImpulse});
            const Vec2 arm = side == 0 ? p.anchorA : p.anchorB;
            const double lever = std::fabs(double{arm.x}) + std::fabs(double{arm.y});
            // A point lies between two surfaces, within a shape's reach of each body's centre.
            if (lever > 4.0 * double{kMaxShapeSize}) return false;
            if (impulse * double{body.invMass} > kBound ||
                impulse * lever * double{body.invInertia} > kBound)
                return false;
        }
    }
    return true;
}

void readSlots(ByteReader& r, WorldState& s) {
    const RecordSizes& size = recordSizes();
    const auto slotHead = [&](auto& slot) {
        getRecord(r, 5, slot, [](auto& io, auto& x) {
            io(x.generation);
            io(x.live);
        });
    };
    s.bodies.resize(r.getCount(5));
    for (detail::Body& body : s.bodies) {
        slotHead(body);
        if (!body.live) continue;
        getRecord(r, size.body, body, [](auto& io, auto& b) { detail::bodyFields(io, b); });
        bad(static_cast<int>(body.type) <= static_cast<int>(BodyType::Dynamic),
            "hold a body of an unknown type");
        bad(body.type != BodyType::Static || !body.awake, "hold an awake static body");
        // What the public calls would have refused: a world restored from edited bytes must
        // still never step to a non-finite state.
        const double rotLength =
            double{body.rot.c} * double{body.rot.c} + double{body.rot.s} * double{body.rot.s};
        bad(rotLength > 0.99 && rotLength < 1.01, "hold a body rotation that is not unit");
        bad(std::fabs(body.linearVelocity.x) <= detail::kVelocityBound &&
                std::fabs(body.linearVelocity.y) <= detail::kVelocityBound &&
                std::fabs(body.angularVelocity) <= detail::kVelocityBound,
            "hold a body velocity beyond the accepted range");
        bad(body.linearDamping >= 0.0f && body.angularDamping >= 0.0f &&
                std::fabs(body.gravityScale) <= kMaxGravityScale,
            "hold body damping or gravity scale out of range");
        ++s.bodyCount;
    }
    s.shapes.resize(r.getCount(5));
    for (detail::Shape& shape : s.shapes) {
        slotHead(shape);
        if (!shape.live) continue;
        getRecord(r, size.shape, shape, [](auto& io, auto& x) { detail::shapeFields(io, x); });
        bad(static_cast<int>(shape.type) <= static_cast<int>(ShapeType::Segment),
            "hold a shape of an unknown kind");
        if (detail::isPolygonal(shape.type)) {
            getRecord(r, size.polygon, shape.polygon,
                      [](auto& io, auto& p) { detail::polygonFields(io, p); });
            bad(validPolygon(shape.type, shape.polygon) &&
                    shape.center.x == shape.polygon.centroid.x &&
                    shape.center.y == shape.polygon.centroid.y,
                "hold a polygon that is not convex");
            bad(shape.type != ShapeType::Segment || s.bodies[shape.body].type != BodyType::Dynamic,
                "hold a segment on a dynamic body");
        }
        bad(shape.body < s.bodies.size() && s.bodies[shape.body].live,
            "hold a shape of a body that does not exist");
        // Sizes, offsets, masses and reach as createCircle/createBox check them; the body's mass
        // sum is checked against its saved one once its shapes are linked.
        s.checkShapeLimits(kRestore, "bytes", s.bodies[shape.body], shape);
        bad(shape.friction >= 0.0f && shape.restitution >= 0.0f && shape.restitution <= 1.0f,
            "hold a shape friction or restitution out of range");
        // Between steps every fat box holds its shape; the narrow phase relies on it (shapes
        // whose fat boxes parted are never collided).
        bad(contains(shape.fatBox, detail::shapeBounds(shape, s.bodies[shape.body])),
            "hold a fat box that does not contain its shape");
        bad(shape.fatBox.lower.x <= shape.fatBox.upper.x &&
                shape.fatBox.lower.y <= shape.fatBox.upper.y,
            "hold an inverted shape bounding box");
        ++s.shapeCount;
    }
    s.contacts.resize(r.getCount(1));
    s.pairs.reserve(s.contacts.size());
    for (std::uint32_t c = 0; c < s.contacts.size(); ++c) {
        detail::Contact& contact = s.contacts[c];
        contact.live = r.getBool();
        if (!contact.live) continue;
        getRecord(r, size.contact, contact,
                  [](auto& io, auto& x) { detail::contactFields(io, x); });
        bad(contact.shapeA < contact.shapeB && contact.shapeB < s.shapes.size() &&
                s.shapes[contact.shapeA].live && s.shapes[contact.shapeB].live,
            "hold a contact between shapes that do not exist");
        contact.edges[0].body = s.shapes[contact.shapeA].body;
        contact.edges[1].body = s.shapes[contact.shapeB].body;
        bad(contact.edges[0].body != contact.edges[1].body,
            "hold a contact between two shapes of one body");
        bad(contact.friction >= 0.0f && contact.restitution >= 0.0f && contact.restitution <= 1.0f,
            "hold a contact friction or restitution out of range");
        bad(contact.manifold.pointCount >= 0 &&
                contact.manifold.pointCount <= detail::kMaxManifoldPoints,
            "hold a contact with an impossible point count");
        for (int i = 0; i < contact.manifold.pointCount; ++i)
            getRecord(r, size.point, contact.manifold.points[i],
                      [](auto& io, auto& p) { detail::manifoldPointFields(io, p); });
        bad(impulsesFit(s, contact), "hold contact impulses no step could have made");
        const std::uint64_t key = detail::pairKey(contact.shapeA, contact.shapeB);
        bad(s.pairs.find(key) == detail::PairMap::kMissing, "hold two contacts of one pair");
        s.pairs.insert(key, c);
        ++s.contactCount;
    }
}

// Mass properties are saved (recomputing the centre would round differently from the one the
// solver carried) but must be the ones the shapes give.
bool massMatchesShapes(WorldState& s, detail::Body body) {
    const detail::Body saved = body;
    s.updateMass(body);
    const auto same = [](float a, float b) { return std::memcmp(&a, &b, sizeof(float)) == 0; };
    // The centre of mass is the solver's, rounded its own way: it must only agree closely.
    const auto near = [](float a, float b, double scale) {
        return std::fabs(double{a} - double{b}) <= 1e-4 * scale + 1e-3;
    };
    const double scale = std::fabs(double{body.position.x}) + std::fabs(double{body.position.y}) +
                         std::fabs(double{body.localCenter.x}) +
                         std::fabs(double{body.localCenter.y});
    return near(body.center.x, saved.center.x, scale) &&
           near(body.center.y, saved.center.y, scale) && same(body.mass, saved.mass) &&
           same(body.invMass, saved.invMass) && same(body.inertia, saved.inertia) &&
           same(body.invInertia, saved.invInertia) &&
           same(body.localCenter.x, saved.localCenter.x) &&
           same(body.localCenter.y, saved.localCenter.y) && same(body.minExtent, saved.minExtent);
}

// One body's shapes in list order: each a live shape of this body, listed once in all.
void readShapeList(ByteReader& r, WorldState& s, std::uint32_t b,
                   std::vector<std::uint8_t>& listed) {
    detail::Body& body = s.bodies[b];
    body.shapeCount = static_cast<std::uint32_t>(r.getCount(4));
    std::uint32_t* link = &body.firstShape;
    for (std::uint32_t k = 0; k < body.shapeCount; ++k) {
        const auto i = r.get<std::uint32_t>();
        bad(i < s.shapes.size() && s.shapes[i].live && s.shapes[i].body == b && !listed[i],
            "hold a body shape list that does not match the shapes");
        listed[i] = 1;
        *link = i;
        link = &s.shapes[i].nextInBody;
    }
    *link = kNullIndex;
}

// One body's contacts in list order, linked as the body's doubly linked list; `listed` marks
// (contact, side) so each contact is listed once by each of its bodies.
void readContactList(ByteReader& r, WorldState& s, std::uint32_t b,
                     std::vector<std::uint8_t>& listed) {
    detail::Body& body = s.bodies[b];
    const std::size_t count = r.getCount(4);
    std::uint32_t previous = kNullIndex;
    detail::ContactEdge* previousEdge = nullptr;
    for (std::size_t k = 0; k < count; ++k) {
        const auto c = r.get<std::uint32_t>();
        bad(c < s.contacts.size() && s.contacts[c].live, "list a contact that does not exist");
        detail::Contact& contact = s.contacts[c];
        const int side = detail::sideOf(contact, b);
        bad(contact.edges[side].body == b && !listed[2 * std::size_t{c} + side],
            "hold a body contact list that does not match the contacts");
        listed[2 * std::size_t{c} + side] = 1;
        detail::ContactEdge& edge = contact.edges[side];
        edge.prev = previous;
        edge.next = kNullIndex;
        (previousEdge != nullptr ? previousEdge->next : body.firstContact) = c;
        previous = c;
        previousEdge = &edge;
    }
}

void readBodyLists(ByteReader& r, WorldState& s) {
    std::vector<std::uint8_t> shapeListed(s.shapes.size(), 0);
    std::vector<std::uint8_t> contactListed(2 * s.contacts.size(), 0);
    for (std::uint32_t b = 0; b < s.bodies.size(); ++b) {
        if (!s.bodies[b].live) continue;
        readShapeList(r, s, b, shapeListed);
        readContactList(r, s, b, contactListed);
    }
    for (std::uint32_t i = 0; i < s.shapes.size(); ++i)
        bad(!s.shapes[i].live || shapeListed[i], "leave a shape out of its body's list");
    for (std::uint32_t c = 0; c < s.contacts.size(); ++c)
        bad(!s.contacts[c].live ||
                (contactListed[2 * std::size_t{c}] && contactListed[2 * std::size_t{c} + 1]),
            "leave a contact out of a body's list");
    for (const detail::Body& body : s.bodies)
        if (body.live)
            bad(massMatchesShapes(s, body), "hold mass properties that its shapes do not give");
}

// A free list names exactly the dead slots that may be reused (a slot whose generation ran out
// is retired and in no list), each once.
template <class Slot, class Reusable>
void readFreeList(ByteReader& r, std::vector<std::uint32_t>& list, const std::vector<Slot>& slots,
                  Reusable reusable) {
    getIndexList(r, list);
    std::vector<std::uint8_t> seen(slots.size(), 0);
    for (const std::uint32_t i : list) {
        bad(i < slots.size() && !slots[i].live && reusable(slots[i]) && !seen[i],
            "hold a free list that names a live, retired or repeated slot");
        seen[i] = 1;
    }
    std::size_t dead = 0;
    for (const Slot& slot : slots) dead += !slot.live && reusable(slot) ? 1 : 0;
    bad(dead == list.size(), "hold a free list that leaves out a free slot");
}

void readWorkLists(ByteReader& r, WorldState& s) {
    const auto hasGeneration = [](const auto& slot) { return slot.generation != 0; };
    readFreeList(r, s.freeBodies, s.bodies, hasGeneration);
    readFreeList(r, s.freeShapes, s.shapes, hasGeneration);
    readFreeList(r, s.freeContacts, s.contacts, [](const detail::Contact&) { return true; });

    // The moved list is the shapes flagged moved. The world's own list may also hold destroyed
    // shapes or a reused slot twice (the pair search skips and merges them), and its order does
    // not matter (new pairs are sorted), so it is rebuilt in slot order rather than saved.
    for (std::uint32_t i = 0; i < s.shapes.size(); ++i)
        if (s.shapes[i].live && s.shapes[i].moved) s.movedShapes.push_back(i);

    getIndexList(r, s.awakeBodies);
    std::size_t awake = 0;
    for (const detail::Body& body : s.bodies) awake += body.live && body.awake ? 1 : 0;
    for (std::uint32_t slot = 0; slot < s.awakeBodies.size(); ++slot) {
        const std::uint32_t b = s.awakeBodies[slot];
        bad(b < s.bodies.size() && s.bodies[b].live && s.bodies[b].awake &&
                s.bodies[b].awakeIndex == kNullIndex,
            "hold an awake list that does not match the bodies");
        s.bodies[b].awakeIndex = slot;
    }
    bad(awake == s.awakeBodies.size(), "leave an awake body out of the awake list");
}

// Proxies in shape slot order, as World::setBroadPhase inserts them.
void insertProxies(WorldState& s) {
    for (std::uint32_t i = 0; i < s.shapes.size(); ++i) {
        detail::Shape& shape = s.shapes[i];
        if (!shape.live) continue;
        shape.proxy = s.broadPhase->insert(shape.fatBox, i);
        const std::uint32_t proxy = toIndex(shape.proxy);
        if (proxy >= s.proxyShape.size()) s.proxyShape.resize(std::size_t{proxy} + 1, kNullIndex);
        s.proxyShape[proxy] = i;
    }
}

} // namespace

void World::restore(std::span<const std::uint8_t> bytes) {
    m_state->requireUnlocked(kRestore);
    ByteReader r = openPayload(bytes);
    std::unique_ptr<WorldState> state = makeState(r, m_state->serial);
    readSlots(r, *state);
    readBodyLists(r, *state);
    readWorkLists(r, *state);
    readEvents(r, *state);
    detail::readJoints(r, *state);
    bad(r.remaining() == 0, "have data past the snapshot's end");
    insertProxies(*state);
    m_state = std::move(state);
}

} // namespace rigid2d
