// World::restore: a world back from the bytes World::snapshot wrote (world_snapshot.cpp has the
// layout).
//
// Restore builds a complete new WorldState, checks every index and list against the others, and
// only then replaces the old one, so bad bytes are refused with the world unchanged. The broad
// phase is rebuilt from the saved fat boxes (in shape slot order, as setBroadPhase does): every
// kind gives the same pairs, so the step that follows is the same bits as the original's.
#include <array>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>

#include "core/byte_io.hpp"
#include "rigid2d/geometry.hpp"
#include "state/world_state.hpp"
#include "world/snapshot_chains.hpp"
#include "world/snapshot_fields.hpp"
#include "world/snapshot_joints.hpp"

namespace rigid2d {

using detail::ByteReader;
using detail::kNullIndex;
using detail::recordSizes;
using detail::require;
using detail::WorldState;

namespace {

constexpr std::string_view kRestore = "World::restore";

template <class Record, class Fields>
void getRecord(ByteReader& r, std::size_t bytes, Record& record, Fields fields) {
    detail::SnapshotIn in(r.take(bytes), kRestore);
    fields(in, record);
}

// The payload behind a valid header, and the checksum the header gives it.
struct Payload {
    std::span<const std::uint8_t> bytes;
    std::uint64_t sum = 0;
};

Payload openPayload(std::span<const std::uint8_t> bytes) {
    ByteReader header(bytes, kRestore);
    require(bytes.size() >= sizeof(detail::kSnapshotMagic) &&
                std::memcmp(bytes.data(), detail::kSnapshotMagic, 8) == 0,
            kRestore, "bytes", "are not a rigid2d snapshot (no snapshot header)");
    for (std::size_t i = 0; i < sizeof(detail::kSnapshotMagic); ++i)
        (void)header.get<std::uint8_t>();
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
    return {bytes.subspan(detail::kSnapshotHeaderBytes), sum};
}

void requireSum(detail::Checksum& sum, const Payload& payload) {
    require(sum.finish() == payload.sum, kRestore, "bytes",
            "fail their checksum (damaged in storage or transit)");
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
    s.hitEvents.resize(r.getCount(16 + recordSizes().hitEvent));
    for (ContactHitEvent& e : s.hitEvents) {
        e.shapeA = getId(r, s.serial);
        e.shapeB = getId(r, s.serial);
        getRecord(r, recordSizes().hitEvent, e,
                  [](auto& io, auto& h) { detail::hitEventFields(io, h); });
    }
}

// The scheduler is the running program's, not part of the saved world: the restored world keeps
// the one `current` has.
std::unique_ptr<WorldState> makeState(ByteReader& r, std::uint64_t serial,
                                      const WorldDef& current) {
    WorldDef def;
    getRecord(r, recordSizes().def, def, [](auto& io, auto& d) { detail::worldDefFields(io, d); });
    def.workerCount = current.workerCount;
    def.enqueueTask = current.enqueueTask;
    def.finishTask = current.finishTask;
    def.userTaskContext = current.userTaskContext;
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

// What createPolygon, createCapsule, createSegment and createChain make: counter-clockwise, unit
// normals that face outwards, every vertex behind every edge (convex).
bool validPolygon(ShapeType type, const Polygon& p) {
    const int wanted = type == ShapeType::Polygon ? 3 : 2;
    if (p.count < wanted || p.count > (type == ShapeType::Polygon ? kMaxPolygonVertices : 2))
        return false;
    if (detail::hasNoArea(type) ? p.radius != 0.0f : p.radius < 0.0f) return false;
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

// What the checks look up at random (a contact's shapes and bodies, a listed contact's bodies),
// packed small: looked up in the slots themselves, each was a cache miss among megabytes. And
// what later checks compare against, counted while the slots are read rather than by sweeping
// them again.
struct Lookups {
    std::vector<std::uint32_t> shapeBody; ///< shape slot -> its body, kNullIndex if dead
    std::vector<std::uint32_t> sideBody;  ///< contact slot -> body of each side, kNullIndex if dead
    std::vector<std::uint64_t> pairKeys;  ///< of the live contacts, in slot order
    std::vector<std::uint32_t> pairContacts;
    /// Dead slots a free list must name (a body or shape slot whose generation ran out is
    /// retired, in no list), and live awake bodies.
    std::size_t freeBodies = 0, freeShapes = 0, freeContacts = 0, awakeBodies = 0;
};

// A unit normal when there are points, and points within a shape's reach of each body's centre.
// Impulses are not bounded: a legitimate step can leave any finite impulse (a weld whose anchor
// is far from a tiny body's centre warm-starts it with an enormous spin that the same substep
// takes back), so restore takes them as they are and the step's last resort (solve.cpp) keeps
// the world finite whatever warm starting makes of them.
bool manifoldFits(const detail::Contact& contact) {
    const detail::Manifold& m = contact.manifold;
    if (m.pointCount > 0) {
        const double n2 =
            double{m.normal.x} * double{m.normal.x} + double{m.normal.y} * double{m.normal.y};
        if (n2 < 0.99 || n2 > 1.01) return false;
    }
    // A vertex lies within 2 kMaxShapeSize of its body's centre on each axis, a rounding radius
    // adds up to kMaxShapeSize, and the point sits halfway across a speculative gap of at most
    // kMaxShapeSize (update_contacts.cpp; a cache's gap is wider by a few slops).
    const auto withinReach = [](Vec2 v) {
        return std::fabs(double{v.x}) + std::fabs(double{v.y}) <= 8.0 * double{kMaxShapeSize};
    };
    for (int i = 0; i < m.pointCount; ++i)
        if (!withinReach(m.points[i].anchorA) || !withinReach(m.points[i].anchorB)) return false;
    const detail::ManifoldCache& cache = contact.cache;
    if (cache.pointCount < 0 || cache.pointCount > detail::kMaxManifoldPoints) return false;
    if (!cache.valid) return true;
    const auto isUnit = [](double x, double y) {
        const double n2 = x * x + y * y;
        return n2 >= 0.99 && n2 <= 1.01;
    };
    if (!isUnit(cache.rotation.c, cache.rotation.s)) return false;
    if (cache.pointCount == 0) {
        // Shapes found apart: their gap and B's reach are each within a shape's size or two; any
        // finite translation is safe (stillApart compares it per axis first).
        return isFinite(cache.translation) && cache.apart > 0.0f &&
               cache.apart <= 4.0f * kMaxShapeSize && cache.reach >= 0.0f &&
               cache.reach <= 4.0f * kMaxShapeSize;
    }
    if (!isUnit(cache.normal.x, cache.normal.y)) return false;
    if (!(cache.margin >= 0.0f && cache.margin <= 2.0f * kMaxShapeSize)) return false;
    // Cached points are in shape A's frame, whose origin is its body's.
    for (int i = 0; i < cache.pointCount; ++i)
        if (!withinReach(cache.points[i]) ||
            !(std::fabs(cache.separations[i]) <= 8.0f * kMaxShapeSize))
            return false;
    return true;
}

// Appends `count` slots, each a copy of a blank one that `read(slot, index)` fills at once, while
// it is in cache. (Resizing first cost two passes over megabytes, and value-initialising clears
// each slot with a `rep stos` whose start-up alone made filling the arrays a third of a restore.)
template <class Slot, class Read>
void readSlotArray(std::vector<Slot>& slots, std::size_t count, Read read) {
    const Slot blank{};
    slots.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) read(slots.emplace_back(blank), i);
}

void readSlotHead(ByteReader& r, auto& slot) {
    getRecord(r, 5, slot, [](auto& io, auto& x) {
        io(x.generation);
        io(x.live);
    });
}

void readBodies(ByteReader& r, WorldState& s, Lookups& lookups) {
    const std::size_t bytes = recordSizes().body;
    const std::size_t count = r.getCount(5);
    readSlotArray(s.bodies, count, [&](detail::Body& body, std::uint32_t) {
        readSlotHead(r, body);
        if (!body.live) {
            lookups.freeBodies += body.generation != 0 ? 1 : 0;
            return;
        }
        getRecord(r, bytes, body, [](auto& io, auto& b) { detail::bodyFields(io, b); });
        bad(static_cast<int>(body.type) <= static_cast<int>(BodyType::Dynamic),
            "hold a body of an unknown type");
        bad(body.type != BodyType::Static || !body.awake, "hold an awake static body");
        // A static body never moves, and the continuous stage takes a wall's contacts to have
        // been made with it at rest (contactMargin).
        bad(body.type != BodyType::Static ||
                (body.linearVelocity == Vec2{} && body.angularVelocity == 0.0f),
            "hold a moving static body");
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
        lookups.awakeBodies += body.awake ? 1 : 0;
        ++s.bodyCount;
    });
}

void readShapes(ByteReader& r, WorldState& s, Lookups& lookups) {
    const detail::RecordSizes& size = recordSizes();
    const std::size_t count = r.getCount(5);
    lookups.shapeBody.reserve(count);
    readSlotArray(s.shapes, count, [&](detail::Shape& shape, std::uint32_t i) {
        readSlotHead(r, shape);
        lookups.shapeBody.push_back(kNullIndex);
        if (!shape.live) {
            lookups.freeShapes += shape.generation != 0 ? 1 : 0;
            return;
        }
        getRecord(r, size.shape, shape, [](auto& io, auto& x) { detail::shapeFields(io, x); });
        bad(static_cast<int>(shape.type) <= static_cast<int>(ShapeType::ChainSegment),
            "hold a shape of an unknown kind");
        if (detail::isPolygonal(shape.type)) {
            getRecord(r, size.polygon, shape.polygon,
                      [](auto& io, auto& p) { detail::polygonFields(io, p); });
            bad(validPolygon(shape.type, shape.polygon) &&
                    shape.center.x == shape.polygon.centroid.x &&
                    shape.center.y == shape.polygon.centroid.y,
                "hold a polygon that is not convex");
            bad(!detail::hasNoArea(shape.type) || (shape.body < s.bodies.size() &&
                                                   s.bodies[shape.body].type != BodyType::Dynamic),
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
        shape.tightBox = detail::shapeBounds(shape, s.bodies[shape.body]);
        bad(contains(shape.fatBox, shape.tightBox),
            "hold a fat box that does not contain its shape");
        bad(shape.fatBox.lower.x <= shape.fatBox.upper.x &&
                shape.fatBox.lower.y <= shape.fatBox.upper.y,
            "hold an inverted shape bounding box");
        lookups.shapeBody.back() = shape.body;
        // The moved list is the shapes flagged moved. The world's own list may also hold
        // destroyed shapes (the pair search skips them), and its order does not matter (new
        // pairs are sorted), so it is rebuilt in slot order rather than saved.
        if (shape.moved) s.movedShapes.push_back(i);
        s.filters.add(shape.filter);
        ++s.shapeCount;
    });
}

void readContacts(ByteReader& r, WorldState& s, Lookups& lookups) {
    const detail::RecordSizes& size = recordSizes();
    const std::size_t count = r.getCount(1);
    lookups.sideBody.reserve(2 * count);
    lookups.pairKeys.reserve(count);
    lookups.pairContacts.reserve(count);
    const std::vector<std::uint32_t>& shapeBody = lookups.shapeBody;
    readSlotArray(s.contacts, count, [&](detail::Contact& contact, std::uint32_t c) {
        contact.live = r.getBool();
        lookups.sideBody.push_back(kNullIndex);
        lookups.sideBody.push_back(kNullIndex);
        if (!contact.live) {
            ++lookups.freeContacts;
            return;
        }
        getRecord(r, size.contact, contact,
                  [](auto& io, auto& x) { detail::contactFields(io, x); });
        bad(contact.shapeA < contact.shapeB && contact.shapeB < shapeBody.size() &&
                shapeBody[contact.shapeA] != kNullIndex && shapeBody[contact.shapeB] != kNullIndex,
            "hold a contact between shapes that do not exist");
        contact.edges[0].body = shapeBody[contact.shapeA];
        contact.edges[1].body = shapeBody[contact.shapeB];
        // The shapes' kinds are read before the contacts.
        detail::setKindFlags(contact, s.shapes[contact.shapeA].type, s.shapes[contact.shapeB].type);
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
        bad(manifoldFits(contact), "hold a contact manifold no step could have made");
        lookups.pairKeys.push_back(detail::pairKey(contact.shapeA, contact.shapeB));
        lookups.pairContacts.push_back(c);
        lookups.sideBody.end()[-2] = contact.edges[0].body;
        lookups.sideBody.end()[-1] = contact.edges[1].body;
        ++s.contactCount;
    });
    bad(s.pairs.insertAllIfAbsent(lookups.pairKeys, lookups.pairContacts),
        "hold two contacts of one pair");
}

// Mass properties are saved (recomputing the centre would round differently from the one the
// solver carried) but must be the ones the shapes give, as updateMass derives them. Bodies made
// alike (one circle or axis-aligned box of the same size, offset and density, the same rotation
// setting) are given the same ones, so a run of them (rain, crates, a pyramid) derives them once:
// `key` holds every field updateMass reads for such a body apart from its placement.
class MassCheck {
public:
    bool matches(WorldState& s, const detail::Body& saved) {
        if (saved.type == BodyType::Dynamic && saved.shapeCount == 1 &&
            !detail::isPolygonal(s.shapes[saved.firstShape].type)) {
            const Key key = keyOf(saved, s.shapes[saved.firstShape]);
            if (!m_derived || key != m_key) {
                m_derived = saved;
                s.updateMass(*m_derived);
                m_key = key;
            }
            // As updateMass places it.
            const Vec2 center = saved.position + rotate(saved.rot, m_derived->localCenter);
            return same(*m_derived, center, saved);
        }
        detail::Body body = saved;
        s.updateMass(body);
        return same(body, body.center, saved);
    }

private:
    using Key = std::array<std::uint32_t, 8>;
    static Key keyOf(const detail::Body& body, const detail::Shape& shape) {
        const float fields[] = {shape.radius,        shape.center.x,      shape.center.y,
                                shape.halfExtents.x, shape.halfExtents.y, shape.density};
        Key key{static_cast<std::uint32_t>(shape.type), body.fixedRotation ? 1u : 0u};
        std::memcpy(&key[2], fields, sizeof fields); // bits: -0 and 0 differ, as they might
        return key;
    }
    // `derived` gives the mass properties and `center` the centre of mass the shapes give.
    static bool same(const detail::Body& derived, Vec2 center, const detail::Body& saved) {
        const auto same = [](float a, float b) { return std::memcmp(&a, &b, sizeof(float)) == 0; };
        // The centre of mass is the solver's, rounded its own way: it must only agree closely.
        const auto near = [](float a, float b, double scale) {
            return std::fabs(double{a} - double{b}) <= 1e-4 * scale + 1e-3;
        };
        const double scale =
            std::fabs(double{saved.position.x}) + std::fabs(double{saved.position.y}) +
            std::fabs(double{derived.localCenter.x}) + std::fabs(double{derived.localCenter.y});
        return near(center.x, saved.center.x, scale) && near(center.y, saved.center.y, scale) &&
               same(derived.mass, saved.mass) && same(derived.invMass, saved.invMass) &&
               same(derived.inertia, saved.inertia) && same(derived.invInertia, saved.invInertia) &&
               same(derived.localCenter.x, saved.localCenter.x) &&
               same(derived.localCenter.y, saved.localCenter.y) &&
               same(derived.minExtent, saved.minExtent);
    }
    Key m_key{};
    std::optional<detail::Body> m_derived; ///< the last alike body, after updateMass
};

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
// (contact, side) so each contact is listed once by each of its bodies. Returns the count.
std::size_t readContactList(ByteReader& r, WorldState& s, const Lookups& lookups, std::uint32_t b,
                            std::vector<std::uint8_t>& listed) {
    detail::Body& body = s.bodies[b];
    const std::size_t count = r.getCount(4);
    std::uint32_t previous = kNullIndex;
    detail::ContactEdge* previousEdge = nullptr;
    for (std::size_t k = 0; k < count; ++k) {
        const auto c = r.get<std::uint32_t>();
        const std::size_t sides = 2 * std::size_t{c};
        bad(c < s.contacts.size() && lookups.sideBody[sides] != kNullIndex,
            "list a contact that does not exist");
        const std::size_t side = lookups.sideBody[sides] == b ? 0 : 1;
        bad(lookups.sideBody[sides + side] == b && !listed[sides + side],
            "hold a body contact list that does not match the contacts");
        listed[sides + side] = 1;
        // Only stores reach the contact itself, so its cache miss holds nothing up.
        detail::ContactEdge& edge = s.contacts[c].edges[side];
        edge.prev = previous;
        edge.next = kNullIndex;
        (previousEdge != nullptr ? previousEdge->next : body.firstContact) = c;
        previous = c;
        previousEdge = &edge;
    }
    return count;
}

void readBodyLists(ByteReader& r, WorldState& s, const Lookups& lookups) {
    std::vector<std::uint8_t> shapeListed(s.shapes.size(), 0);
    std::vector<std::uint8_t> contactListed(2 * s.contacts.size(), 0);
    std::size_t shapes = 0, contactSides = 0;
    MassCheck mass;
    for (std::uint32_t b = 0; b < s.bodies.size(); ++b) {
        if (!s.bodies[b].live) continue;
        readShapeList(r, s, b, shapeListed);
        shapes += s.bodies[b].shapeCount;
        bad(mass.matches(s, s.bodies[b]), "hold mass properties that its shapes do not give");
        contactSides += readContactList(r, s, lookups, b, contactListed);
    }
    // Each listing named a live shape or contact side once, so equal counts mean every one was
    // listed (counting spares a sweep over megabytes of slots).
    bad(shapes == s.shapeCount, "leave a shape out of its body's list");
    bad(contactSides == 2 * s.contactCount, "leave a contact out of a body's list");
}

// A free list names exactly the `free` dead slots that may be reused, each once.
template <class Slot, class Reusable>
void readFreeList(ByteReader& r, std::vector<std::uint32_t>& list, const std::vector<Slot>& slots,
                  std::size_t free, Reusable reusable) {
    getIndexList(r, list);
    std::vector<std::uint8_t> seen(slots.size(), 0);
    for (const std::uint32_t i : list) {
        bad(i < slots.size() && !slots[i].live && reusable(slots[i]) && !seen[i],
            "hold a free list that names a live, retired or repeated slot");
        seen[i] = 1;
    }
    bad(free == list.size(), "hold a free list that leaves out a free slot");
}

void readWorkLists(ByteReader& r, WorldState& s, const Lookups& lookups) {
    const auto hasGeneration = [](const auto& slot) { return slot.generation != 0; };
    readFreeList(r, s.bodyPool.freeList(), s.bodies, lookups.freeBodies, hasGeneration);
    readFreeList(r, s.shapePool.freeList(), s.shapes, lookups.freeShapes, hasGeneration);
    readFreeList(r, s.contactPool.freeList(), s.contacts, lookups.freeContacts,
                 [](const detail::Contact&) { return true; });

    getIndexList(r, s.awakeBodies);
    for (std::uint32_t slot = 0; slot < s.awakeBodies.size(); ++slot) {
        const std::uint32_t b = s.awakeBodies[slot];
        bad(b < s.bodies.size() && s.bodies[b].live && s.bodies[b].awake &&
                s.bodies[b].awakeIndex == kNullIndex,
            "hold an awake list that does not match the bodies");
        s.bodies[b].awakeIndex = slot;
    }
    bad(lookups.awakeBodies == s.awakeBodies.size(), "leave an awake body out of the awake list");
}

// Proxies in shape slot order, as World::setBroadPhase inserts them.
void insertProxies(WorldState& s) {
    for (std::uint32_t i = 0; i < s.shapes.size(); ++i) {
        detail::Shape& shape = s.shapes[i];
        if (!shape.live) continue;
        shape.proxy = s.broadPhase->insert(shape.fatBox, i);
        const std::uint32_t proxy = toIndex(shape.proxy);
        if (proxy >= s.proxyOwners.size()) s.proxyOwners.resize(std::size_t{proxy} + 1);
        s.setProxyOwner(shape, i);
        shape.staticProxy = s.bodies[shape.body].type == BodyType::Static && !shape.isSensor
                                ? s.staticShapes.insert(shape.fatBox, i)
                                : ProxyId::Null;
        if (shape.staticProxy != ProxyId::Null && detail::hasNoArea(shape.type))
            ++s.staticWallCount;
    }
}

} // namespace

void World::restore(std::span<const std::uint8_t> bytes) {
    m_state->requireUnlocked(kRestore);
    const Payload payload = openPayload(bytes);
    // The checksum is taken in as the bytes are read (see Checksum) and checked before the new
    // state is used. Reading damaged bytes is safe (every field is checked as edited bytes with
    // a valid checksum would be), and when a check refuses them the checksum is what gets
    // reported, as it would have been had it been taken first.
    detail::Checksum sum(payload.bytes);
    ByteReader r(payload.bytes, kRestore);
    r.sumWhileReading(sum);
    std::unique_ptr<WorldState> state;
    try {
        state = makeState(r, m_state->serial, m_state->def);
        Lookups lookups;
        readBodies(r, *state, lookups);
        readShapes(r, *state, lookups);
        readContacts(r, *state, lookups);
        readBodyLists(r, *state, lookups);
        readWorkLists(r, *state, lookups);
        readEvents(r, *state);
        detail::readJoints(r, *state);
        detail::readChains(r, *state);
        bad(r.remaining() == 0, "have data past the snapshot's end");
    } catch (...) { // an Error, or bad_alloc for a damaged count: damage is reported as such
        requireSum(sum, payload);
        throw;
    }
    requireSum(sum, payload);
    insertProxies(*state);
    m_state = std::move(state);
}

} // namespace rigid2d
