#pragma once
/// Handles to bodies, shapes and joints: an index into the world's arrays plus a generation.

#include <compare>
#include <cstdint>
#include <functional>

namespace rigid2d {

/// A generational handle. `Handle{}` is the null handle (generation 0 is never issued). When an
/// object is destroyed its slot's generation is bumped, so an old handle never aliases a new
/// object; `World::isValid` tells whether a handle still names a live object. `world` is the
/// issuing world's serial, unique for the life of the process (64 bits never wrap in practice),
/// so a handle of one world is refused by every other.
template <class Tag>
struct Handle {
    std::uint32_t index = 0;
    std::uint32_t generation = 0;
    std::uint64_t world = 0;

    [[nodiscard]] constexpr bool isNull() const noexcept { return generation == 0; }
    friend constexpr bool operator==(Handle, Handle) noexcept = default;
    friend constexpr auto operator<=>(Handle, Handle) noexcept = default;
};

struct BodyTag;
struct ShapeTag;
struct JointTag;
struct ChainTag;

/// Names a body of a `World`. Strong type: a `ShapeId` cannot be passed where a `BodyId` is meant.
using BodyId = Handle<BodyTag>;
/// Names a shape attached to a body.
using ShapeId = Handle<ShapeTag>;
/// Names a joint between bodies.
using JointId = Handle<JointTag>;
/// Names a chain (World::createChain): its links are shapes with ids of their own.
using ChainId = Handle<ChainTag>;

} // namespace rigid2d

template <class Tag>
struct std::hash<rigid2d::Handle<Tag>> {
    std::size_t operator()(rigid2d::Handle<Tag> h) const noexcept {
        const std::size_t slot =
            std::hash<std::uint64_t>{}((std::uint64_t{h.generation} << 32) | h.index);
        return slot ^ (std::hash<std::uint64_t>{}(h.world) * 0x9E3779B97F4A7C15ull);
    }
};
