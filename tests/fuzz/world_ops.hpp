#pragma once
// A World driven by fuzzer bytes: each op is one public call with arguments from FuzzInput, and
// every call is checked against the README's promise ("Bad input and limits"). Used by
// api_ops_fuzz.cpp; snapshot_fuzz.cpp is meant to reuse it to build worlds worth snapshotting
// (run some ops, snapshot, restore into a second World, run the rest of the ops in both, compare
// traces).

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_input.hpp"
#include "rigid2d/world.hpp"

namespace rigid2d::fuzz {

/// Prints every call and its outcome to stderr (RIGID2D_FUZZ_VERBOSE=1), to read a crasher.
void setVerbose(bool verbose);

/// origin + offset where that stays within the float range, else offset: the harness must not
/// overflow where the library would not.
[[nodiscard]] inline Vec2 offsetOrAsIs(Vec2 origin, Vec2 offset) noexcept {
    const double x = double{origin.x} + offset.x, y = double{origin.y} + offset.y;
    return std::fabs(x) < 3e38 && std::fabs(y) < 3e38 ? origin + offset : offset;
}

/// Prints what broke and aborts, so libFuzzer keeps the input as a crash.
[[noreturn]] void violation(std::string_view rule, std::string_view detail);

/// Everything a refused call could have changed, as far as the public API shows it.
struct Fingerprint {
    std::uint64_t hash = 0;
    std::size_t bodies = 0;
    std::size_t proxies = 0;
    Vec2 gravity{};
    std::string broadPhase;
    /// Per body and shape: type, mass, inertia, flags, shape ids, tight boxes, materials, filters,
    /// as raw bits so that NaN compares equal to itself.
    std::vector<std::uint64_t> details;

    explicit Fingerprint(const World& world);
    bool operator==(const Fingerprint&) const = default;
};

/// Appends the joints' part of a Fingerprint (joint_ops.cpp).
void addJointDetails(const World& world, std::vector<std::uint64_t>& details);

/// The default broad-phase configuration but for a grid of at most 4096 cells: the default 2^22
/// cells cost tens of milliseconds to clear under ASan, twice per input (two worlds), and
/// a bigger grid finds nothing a small one does not.
[[nodiscard]] BroadPhaseConfig smallGridConfig();

class WorldOps {
public:
    /// Bounds on what one input may build or run, so a run stays within libFuzzer's timeout: the
    /// promise is about correctness, and a world of thousands of bodies finds no more than one of
    /// a few dozen.
    static constexpr std::size_t kMaxBodies = 48;
    static constexpr std::size_t kMaxShapes = 96;
    static constexpr std::size_t kMaxSteps = 48;

    explicit WorldOps(World& world) : m_world(world) {}

    /// Decodes and runs ops until the input ends or `maxOps` ran.
    void run(FuzzInput& in, std::size_t maxOps);

    /// One entry per op: which op, whether it was refused, and the state hash after it. Two
    /// worlds fed the same bytes must produce the same trace.
    [[nodiscard]] const std::vector<std::uint64_t>& trace() const noexcept { return m_trace; }
    [[nodiscard]] World& world() noexcept { return m_world; }

private:
    void runOne(FuzzInput& in, unsigned op);
    /// Runs one public call: it succeeds, or throws rigid2d::Error with the world unchanged.
    bool attempt(std::string_view op, FunctionRef<void()> call);
    void step(FuzzInput& in);
    void query(FuzzInput& in, unsigned kind);

    BodyId pickBody(FuzzInput& in);
    ShapeId pickShape(FuzzInput& in);
    // joint_ops.cpp
    JointId pickJoint(FuzzInput& in);
    void createJoint(FuzzInput& in);
    void changeJoint(FuzzInput& in);
    BodyDef bodyDef(FuzzInput& in);
    ShapeDef shapeDef(FuzzInput& in);
    BroadPhaseConfig broadPhaseConfig(FuzzInput& in);
    /// Tries one mutating call from inside a query or visit callback: it must be refused with an
    /// Error and change nothing.
    void reenter(unsigned what);

    World& m_world;
    std::vector<BodyId> m_bodies; ///< every body ever made, destroyed ones too (stale ids)
    std::vector<ShapeId> m_shapes;
    std::vector<JointId> m_joints;
    std::size_t m_steps = 0;
    std::vector<std::uint64_t> m_trace;
};

} // namespace rigid2d::fuzz
