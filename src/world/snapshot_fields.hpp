#pragma once
// What a snapshot holds, listed once for both directions: each function below names the fields of
// one record in their order in the bytes, and `io` either writes them (SnapshotOut) or reads them
// back (SnapshotIn). A field added here is saved and restored; one left out is derived on restore.
//
// Not listed, because restore rebuilds them: the body shape and contact lists (written as index
// lists, world_snapshot.cpp), awake slots, proxies and the pair map; step scratch and statistics.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

#include "core/byte_io.hpp"
#include "rigid2d/events.hpp"
#include "rigid2d/types.hpp"
#include "state/body.hpp"
#include "state/contact.hpp"
#include "state/joint.hpp"
#include "state/shape.hpp"

namespace rigid2d::detail {

/// Writes one record's fields at a cursor into room the writer set aside for the whole record
/// (recordBytes), so a field costs one store: no bounds check, and the cursor stays in a register.
class SnapshotOut {
public:
    explicit SnapshotOut(std::uint8_t* at) : m_at(at) {}
    template <Scalar T>
    void operator()(const T& value) {
        // Sizes are 64-bit in the bytes whatever the host's size_t.
        if constexpr (std::is_same_v<T, std::size_t>) {
            store(std::uint64_t{value});
        } else {
            store(value);
        }
    }
    void operator()(bool value) { store(static_cast<std::uint8_t>(value ? 1 : 0)); }
    void operator()(Vec2 v) {
        store(v.x);
        store(v.y);
    }
    void operator()(const AABB& box) {
        (*this)(box.lower);
        (*this)(box.upper);
    }

private:
    template <class T>
    void store(T value) {
        StorageOf<T> bits;
        std::memcpy(&bits, &value, sizeof(T));
        bits = toLittleEndian(bits);
        std::memcpy(m_at, &bits, sizeof(T));
        m_at += sizeof(T);
    }
    std::uint8_t* m_at;
};

/// Reads one record's fields in place from bytes the reader has already bounds-checked. Every
/// float must be finite: a snapshot is taken between steps, when the world is finite, so a
/// non-finite number means the bytes were damaged.
class SnapshotIn {
public:
    SnapshotIn(const std::uint8_t* at, std::string_view function)
        : m_at(at), m_function(function) {}
    template <Scalar T>
    void operator()(T& value) {
        if constexpr (std::is_same_v<T, std::size_t>) {
            const auto wide = load<std::uint64_t>();
            require(wide <= SIZE_MAX, m_function, "bytes", "hold a size beyond size_t");
            value = static_cast<std::size_t>(wide);
        } else if constexpr (std::is_same_v<T, float>) {
            // Tested on the bits: comparing a signalling NaN would itself raise FE_INVALID.
            const auto bits = load<std::uint32_t>();
            require((bits & 0x7F800000u) != 0x7F800000u, m_function, "bytes",
                    "hold a non-finite number");
            std::memcpy(&value, &bits, sizeof value);
        } else {
            static_assert(!std::is_floating_point_v<T>, "the world stores floats only");
            value = load<T>();
        }
    }
    void operator()(bool& value) {
        const auto byte = load<std::uint8_t>();
        require(byte <= 1, m_function, "bytes", "hold a flag that is neither 0 nor 1");
        value = byte == 1;
    }
    void operator()(Vec2& v) {
        (*this)(v.x);
        (*this)(v.y);
    }
    void operator()(AABB& box) {
        (*this)(box.lower);
        (*this)(box.upper);
    }

private:
    template <class T>
    T load() {
        StorageOf<T> bits;
        std::memcpy(&bits, m_at, sizeof(T));
        m_at += sizeof(T);
        bits = toLittleEndian(bits);
        T value;
        std::memcpy(&value, &bits, sizeof(T));
        return value;
    }
    const std::uint8_t* m_at;
    std::string_view m_function;
};

/// Counts the bytes of a record's fields (the room SnapshotOut and SnapshotIn take at once).
class SnapshotSize {
public:
    template <Scalar T>
    void operator()(const T& /*value*/) {
        m_bytes += std::is_same_v<T, std::size_t> ? 8 : sizeof(T);
    }
    void operator()(Vec2 /*v*/) { m_bytes += 8; }
    void operator()(const AABB& /*box*/) { m_bytes += 16; }
    [[nodiscard]] std::size_t bytes() const noexcept { return m_bytes; }

private:
    std::size_t m_bytes = 0;
};

/// The size in bytes of the record `fields` lists for a Record.
template <class Record, class Fields>
[[nodiscard]] std::size_t recordBytes(Fields fields) {
    SnapshotSize size;
    const Record record{};
    fields(size, record);
    return size.bytes();
}

template <class Io, class Def>
void worldDefFields(Io& io, Def& def) {
    io(def.gravity);
    io(def.broadPhase);
    io(def.broadPhaseConfig.worldBounds);
    io(def.broadPhaseConfig.cellSize);
    io(def.broadPhaseConfig.finestCellSize);
    io(def.broadPhaseConfig.maxGridCells);
    io(def.substeps);
    io(def.enableSleep);
    io(def.enableContinuous);
    io(def.contactHertz);
    io(def.contactDampingRatio);
    io(def.jointHertz);
    io(def.jointDampingRatio);
    io(def.maxContactPushSpeed);
    io(def.maxContactMassRatio);
    io(def.restitutionThreshold);
    io(def.hitEventThreshold);
    io(def.aabbMargin);
    io(def.speculativeDistance);
    io(def.linearSlop);
    io(def.maxTranslation);
    io(def.maxRotation);
    io(def.timeToSleep);
    io(def.linearSleepTolerance);
    io(def.angularSleepTolerance);
}

template <class Io, class B>
void bodyFields(Io& io, B& body) {
    io(body.type);
    io(body.position);
    io(body.angle);
    io(body.rot.c);
    io(body.rot.s);
    io(body.localCenter);
    io(body.center);
    io(body.linearVelocity);
    io(body.angularVelocity);
    io(body.force);
    io(body.torque);
    io(body.mass);
    io(body.invMass);
    io(body.inertia);
    io(body.invInertia);
    io(body.linearDamping);
    io(body.angularDamping);
    io(body.gravityScale);
    io(body.minExtent);
    io(body.fixedRotation);
    io(body.bullet);
    io(body.enableSleep);
    io(body.awake);
    io(body.sleepTime);
    io(body.userData);
}

template <class Io, class S>
void shapeFields(Io& io, S& shape) {
    io(shape.type);
    io(shape.isSensor);
    io(shape.enableSensorEvents);
    io(shape.enableContactEvents);
    io(shape.enableHitEvents);
    io(shape.moved);
    io(shape.body);
    io(shape.center);
    io(shape.radius);
    io(shape.halfExtents);
    io(shape.density);
    io(shape.friction);
    io(shape.restitution);
    io(shape.filter.categoryBits);
    io(shape.filter.maskBits);
    io(shape.filter.groupIndex);
    io(shape.userData);
    io(shape.fatBox);
}

/// The body-frame polygon of a polygonal shape (polygon, capsule, segment), after its record.
template <class Io, class P>
void polygonFields(Io& io, P& polygon) {
    io(polygon.count);
    io(polygon.radius);
    io(polygon.centroid);
    for (auto& v : polygon.vertices) io(v);
    for (auto& n : polygon.normals) io(n);
}

/// A contact without its manifold points; only the `pointCount` points in use follow it (the
/// others are never read: the next step rebuilds the manifold and matches impulses by id among
/// the points in use).
template <class Io, class C>
void contactFields(Io& io, C& contact) {
    io(contact.touching);
    io(contact.sensor);
    io(contact.reportContactEvents);
    io(contact.reportHitEvents);
    io(contact.shapeA);
    io(contact.shapeB);
    io(contact.friction);
    io(contact.restitution);
    io(contact.manifold.normal);
    io(contact.manifold.pointCount);
    // The cache decides whether the next step collides in full: without it a restored world
    // would step to other bits than the original.
    auto& cache = contact.cache;
    io(cache.valid);
    io(cache.pointCount);
    io(cache.rotation.c);
    io(cache.rotation.s);
    io(cache.translation);
    io(cache.normal);
    io(cache.margin);
    for (int i = 0; i < kMaxManifoldPoints; ++i) {
        io(cache.points[i]);
        io(cache.separations[i]);
        io(cache.ids[i]);
    }
    io(cache.apart);
    io(cache.reach);
}

template <class Io, class P>
void manifoldPointFields(Io& io, P& p) {
    io(p.point);
    io(p.anchorA);
    io(p.anchorB);
    io(p.separation);
    io(p.normalImpulse);
    io(p.tangentImpulse);
    io(p.maxNormalImpulse);
    io(p.approachSpeed);
    io(p.id);
}

/// A joint with its bodies (its list links are saved as each body's joint list).
template <class Io, class J>
void jointFields(Io& io, J& joint) {
    io(joint.type);
    io(joint.collideConnected);
    io(joint.edges[0].body);
    io(joint.edges[1].body);
    io(joint.localAnchorA);
    io(joint.localAnchorB);
    io(joint.referenceAngle);
    io(joint.localAxisA);
    io(joint.target);
    auto& p = joint.params;
    io(p.enableLimit);
    io(p.enableMotor);
    io(p.enableSpring);
    io(p.lower);
    io(p.upper);
    io(p.motorSpeed);
    io(p.maxMotorForce);
    io(p.hertz);
    io(p.dampingRatio);
    io(p.angularHertz);
    io(p.angularDampingRatio);
    io(p.length);
    io(p.maxForce);
    auto& i = joint.impulses;
    io(i.linear);
    io(i.perpendicular);
    io(i.angular);
    io(i.length);
    io(i.spring);
    io(i.motor);
    io(i.lower);
    io(i.upper);
    io(joint.reactionForce);
    io(joint.reactionTorque);
    io(joint.userData);
}

/// The header: this magic, the format version (u32), flags (u32, 0), the payload size (u64) and
/// the payload's checksum (u64).
inline constexpr char kSnapshotMagic[8] = {'R', '2', 'D', 'S', 'N', 'A', 'P', '\0'};
inline constexpr std::size_t kSnapshotHeaderBytes = sizeof(kSnapshotMagic) + 4 + 4 + 8 + 8;

/// A hit event after its two shape ids.
template <class Io, class H>
void hitEventFields(Io& io, H& hit) {
    io(hit.point);
    io(hit.normal);
    io(hit.approachSpeed);
}

/// The size of each record: every record is written and read whole (one bounds check per
/// record, not per field).
struct RecordSizes {
    std::size_t def, body, shape, polygon, contact, point, hitEvent, joint;
};
inline const RecordSizes& recordSizes() {
    static const RecordSizes sizes{
        recordBytes<WorldDef>([](auto& io, auto& d) { worldDefFields(io, d); }),
        recordBytes<Body>([](auto& io, auto& b) { bodyFields(io, b); }),
        recordBytes<Shape>([](auto& io, auto& x) { shapeFields(io, x); }),
        recordBytes<Polygon>([](auto& io, auto& p) { polygonFields(io, p); }),
        recordBytes<Contact>([](auto& io, auto& c) { contactFields(io, c); }),
        recordBytes<ManifoldPoint>([](auto& io, auto& p) { manifoldPointFields(io, p); }),
        recordBytes<ContactHitEvent>([](auto& io, auto& e) { hitEventFields(io, e); }),
        recordBytes<Joint>([](auto& io, auto& j) { jointFields(io, j); }),
    };
    return sizes;
}

} // namespace rigid2d::detail
