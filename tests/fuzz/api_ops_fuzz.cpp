// libFuzzer target: the bytes are a World definition and a sequence of public World calls
// (world_ops.cpp decodes them). Aborts, so that libFuzzer keeps the input, when a call breaks the
// README's promise: a call either succeeds or throws rigid2d::Error leaving the world as it was;
// step() with a valid dt never throws and leaves every body finite; the same calls give the same
// bits (the input is replayed in a second World and the traces must match).
//
// Run longer by hand (from build/fuzz/tests/fuzz, after ctest copied the seeds):
//   ./rigid2d-fuzz-api-ops -max_total_time=600 corpus/api_ops
// RIGID2D_FUZZ_VERBOSE=1 prints every call and its outcome, to read a crasher.
// With RIGID2D_FUZZ_FP_TRAPS=1 in the environment, floating-point invalid, divide-by-zero and
// overflow trap inside the World calls (as in the doctest suite), which also catches a NaN or
// infinity the engine makes and then recovers from.

#include <cfenv>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "fuzz_input.hpp"
#include "rigid2d/log.hpp"
#include "rigid2d/testing.hpp"
#include "world_ops.hpp"

namespace {

using namespace rigid2d;
using rigid2d::fuzz::FuzzInput;

constexpr std::size_t kMaxOps = 256;

bool g_traps = false;

// The first bytes choose the world's definition: the broad phase it starts with and, now and then,
// tuning values from the whole float range (the constructor must refuse the bad ones).
WorldDef worldDef(FuzzInput& in) {
    WorldDef def;
    def.broadPhaseConfig = fuzz::smallGridConfig();
    const std::uint8_t flags = in.byte();
    def.broadPhase = static_cast<BroadPhaseType>(flags % std::size(kAllBroadPhaseTypes));
    def.enableSleep = (flags & 0x10u) == 0;
    def.enableContinuous = (flags & 0x20u) == 0;
    if ((flags & 0x40u) != 0) def.gravity = in.vec2();
    if ((flags & 0x80u) != 0) {
        // substeps has no upper limit; a large count is only slow, so the fuzzer stays small.
        constexpr int kSubsteps[] = {1, 2, 4, 8, 0, -1};
        def.substeps = kSubsteps[in.below(std::size(kSubsteps))];
        const std::uint8_t which = in.byte();
        if ((which & 0x01u) != 0) def.contactHertz = in.number();
        if ((which & 0x02u) != 0) def.contactDampingRatio = in.number();
        if ((which & 0x04u) != 0) def.maxContactPushSpeed = in.number();
        if ((which & 0x08u) != 0) def.maxContactMassRatio = in.number();
        if ((which & 0x10u) != 0) def.aabbMargin = in.number();
        if ((which & 0x20u) != 0) def.speculativeDistance = in.number();
        if ((which & 0x40u) != 0) def.maxTranslation = in.number();
        if ((which & 0x80u) != 0) def.maxRotation = in.number();
    }
    return def;
}

struct Run {
    std::vector<std::uint64_t> trace;
    std::uint64_t hash = 0;
};

std::optional<Run> runOnce(const std::uint8_t* data, std::size_t size) {
    FuzzInput in(data, size);
    const WorldDef def = worldDef(in);
    std::optional<World> world;
    try {
        world.emplace(def);
    } catch (const Error&) {
        return std::nullopt;
    } catch (...) {
        fuzz::violation("World::World", "threw an exception that is not rigid2d::Error");
    }
    fuzz::WorldOps ops(*world);
    ops.run(in, kMaxOps);
    return Run{ops.trace(), testing::stateHash(*world)};
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    // Refusals are the expected outcome of most inputs; logging each one would only cost time.
    setLogLevel(LogLevel::Off);
    const char* traps = std::getenv("RIGID2D_FUZZ_FP_TRAPS");
    g_traps = traps != nullptr && std::string(traps) == "1";
    const char* verbose = std::getenv("RIGID2D_FUZZ_VERBOSE");
    fuzz::setVerbose(verbose != nullptr && std::string(verbose) == "1");
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
#if defined(__GLIBC__)
    constexpr int kTrapped = FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW;
    if (g_traps) {
        std::feclearexcept(FE_ALL_EXCEPT);
        feenableexcept(kTrapped);
    }
#endif
    const std::optional<Run> first = runOnce(data, size);
    const std::optional<Run> second = runOnce(data, size);
#if defined(__GLIBC__)
    if (g_traps) fedisableexcept(kTrapped);
#endif
    if (first.has_value() != second.has_value())
        fuzz::violation("determinism", "the World constructor accepted the definition only once");
    if (first && (first->trace != second->trace || first->hash != second->hash))
        fuzz::violation("determinism", "the same calls gave different results in a second World");
    return 0;
}
