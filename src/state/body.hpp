#pragma once
// A body as the world stores it: one slot of a contiguous array, addressed by BodyId.index and
// checked by its generation. Hot solver data is copied into dense solver arrays each step.

#include <cstddef>
#include <cstdint>

#include "geometry/rot.hpp"
#include "rigid2d/math.hpp"
#include "rigid2d/types.hpp"

namespace rigid2d::detail {

inline constexpr std::uint32_t kNullIndex = 0xFFFFFFFFu;

struct Body {
    // The first 64 bytes hold what the narrow phase, the refit and the sleep stage read of a body
    // for every contact or moved shape (placement, velocity, awake, first shape). The slots are
    // not aligned to cache lines (a 192-byte slot cost the gather more than it saved), but these
    // fields then span two lines at most, where spread over the record they spanned two or three.
    bool live = false;
    BodyType type = BodyType::Static;
    bool awake = false;
    bool enableSleep = true;

    // Placement. `position` is the body origin; `center` the centre of mass in the world frame.
    Vec2 position{};
    float angle = 0.0f;
    Rot rot{};
    Vec2 localCenter{};
    Vec2 center{};

    Vec2 linearVelocity{};
    float angularVelocity = 0.0f;
    float sleepTime = 0.0f;
    // Slot in WorldState::awakeBodies, kNullIndex when asleep or static.
    std::uint32_t awakeIndex = kNullIndex;
    // Shapes of this body: an intrusive singly linked list through Shape::nextInBody.
    std::uint32_t firstShape = kNullIndex;

    // Identity. The generation only grows; 0 is never issued (a slot whose counter would wrap is
    // retired).
    std::uint32_t generation = 0;

    Vec2 force{};
    float torque = 0.0f;

    float mass = 0.0f, invMass = 0.0f;
    float inertia = 0.0f, invInertia = 0.0f;
    float linearDamping = 0.0f, angularDamping = 0.0f, gravityScale = 1.0f;
    /// m: the smallest radius or half extent of the body's shapes (continuous.cpp's filter).
    float minExtent = 0.0f;
    std::uint64_t userData = 0;
    bool fixedRotation = false;
    bool bullet = false;

    std::uint32_t shapeCount = 0;
    // Contacts of this body: an intrusive doubly linked list through Contact::edges.
    std::uint32_t firstContact = kNullIndex;
    // Joints of this body: an intrusive doubly linked list through Joint::edges.
    std::uint32_t firstJoint = kNullIndex;
};

/// The bytes at the start of a Body that hold its hot fields (those listed first).
inline constexpr std::size_t kBodyHotBytes = 64;
static_assert(offsetof(Body, firstShape) + sizeof(Body::firstShape) <= kBodyHotBytes);

} // namespace rigid2d::detail
