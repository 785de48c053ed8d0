// libFuzzer target for World::snapshot and World::restore. The first byte picks a mode:
//   even: the rest is snapshot bytes for restore (bit 1 set: the header checksum is rewritten
//         first, so the fuzzer reaches the field-by-field checks behind it). restore either
//         refuses with rigid2d::Error, the world unchanged, or succeeds; then saving is a fixed
//         point (snapshot -> restore -> snapshot gives the same bytes) and the restored world
//         steps finite and in step with a second copy.
//   odd:  the rest builds a world through public calls (world_ops); it is saved, restored into a
//         second World, and both step on: the states and the bytes must stay identical.
//
// Run longer by hand (from build/fuzz/tests/fuzz, after ctest copied the seeds):
//   ./rigid2d-fuzz-snapshot -max_total_time=600 corpus/snapshot
// RIGID2D_FUZZ_VERBOSE=1 prints every call of the world-building mode and its outcome.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/byte_io.hpp"
#include "fuzz_input.hpp"
#include "rigid2d/log.hpp"
#include "rigid2d/testing.hpp"
#include "world_ops.hpp"

namespace {

using namespace rigid2d;
using Bytes = std::vector<std::uint8_t>;

constexpr std::size_t kHeaderBytes = 32, kChecksumAt = 24;

void rewriteChecksum(Bytes& bytes) {
    if (bytes.size() < kHeaderBytes) return;
    const std::uint64_t sum = detail::checksum(
        std::span<const std::uint8_t>(bytes.data() + kHeaderBytes, bytes.size() - kHeaderBytes));
    for (std::size_t i = 0; i < 8; ++i)
        bytes[kChecksumAt + i] = static_cast<std::uint8_t>(sum >> (8 * i));
}

// Steps two worlds that must be the same and checks that they stay so, finite.
void stepTogether(World& a, World& b, int steps) {
    for (int i = 0; i < steps; ++i) {
        a.step(1.0f / 60.0f);
        b.step(1.0f / 60.0f);
        if (testing::stateHash(a) != testing::stateHash(b))
            fuzz::violation("restore", "a restored world stepped to other bits than its original");
        if (!testing::allFinite(a)) fuzz::violation("restore", "a restored world went non-finite");
    }
    if (a.snapshot() != b.snapshot())
        fuzz::violation("restore", "a restored world saved other bytes than its original");
}

void restoreBytes(Bytes bytes, bool fixChecksum) {
    if (fixChecksum) rewriteChecksum(bytes);
    World target;
    const BodyId body = target.createBody({.type = BodyType::Dynamic, .position = {1.0f, 2.0f}});
    target.createCircle(body, {}, Circle{{0.0f, 0.0f}, 0.5f});
    const fuzz::Fingerprint before(target);
    const Bytes saved = target.snapshot();
    try {
        target.restore(bytes);
    } catch (const Error&) {
        if (!(fuzz::Fingerprint(target) == before) || target.snapshot() != saved)
            fuzz::violation("restore", "refused bytes changed the world");
        return;
    } catch (...) {
        fuzz::violation("restore", "threw an exception that is not rigid2d::Error");
    }
    const Bytes again = target.snapshot();
    World copy;
    copy.restore(again);
    if (copy.snapshot() != again)
        fuzz::violation("snapshot", "snapshot -> restore -> snapshot changed the bytes");
    stepTogether(target, copy, 4);
}

void roundTrip(fuzz::FuzzInput& in) {
    WorldDef def;
    def.broadPhaseConfig = fuzz::smallGridConfig();
    const std::uint8_t choice = in.byte();
    def.broadPhase = static_cast<BroadPhaseType>(choice % std::size(kAllBroadPhaseTypes));
    World original(def);
    fuzz::WorldOps ops(original);
    ops.run(in, 128);
    Bytes bytes;
    try {
        bytes = original.snapshot();
    } catch (const Error&) {
        return; // a user-written broad phase: refused by design
    }
    World copy;
    try {
        copy.restore(bytes);
    } catch (const Error& e) {
        fuzz::violation("restore", e.what());
    }
    stepTogether(original, copy, 1 + choice % 24);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    setLogLevel(LogLevel::Off);
    const char* verbose = std::getenv("RIGID2D_FUZZ_VERBOSE");
    fuzz::setVerbose(verbose != nullptr && std::string(verbose) == "1");
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::uint8_t mode = data[0];
    if ((mode & 1u) == 0) {
        restoreBytes(Bytes(data + 1, data + size), (mode & 2u) != 0);
    } else {
        fuzz::FuzzInput in(data + 1, size - 1);
        roundTrip(in);
    }
    return 0;
}
