// libFuzzer target: the bytes are a scene file (demos/bench/FORMAT.md). The reader must either
// return a scene or refuse it with SceneFileError (the scene library's refusal, naming the field)
// or rigid2d::Error; any other exception, a crash or a sanitizer report is a bug. A scene it
// accepts must also be safe to use: written back and read again to the same bytes (FORMAT.md's
// round-trip promise), built into a World and stepped, where again only refusals may be thrown.
//
// Run longer by hand (from build/fuzz/tests/fuzz, after ctest copied the seeds), with the JSON
// dictionary:
//   ./rigid2d-fuzz-scene-reader -max_total_time=600 -dict=<source>/tests/fuzz/scene_reader.dict
//       corpus/scene_reader

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>

#include "fuzz_input.hpp"
#include "rigid2d/log.hpp"
#include "rigid2d/testing.hpp"
#include "scene_file.hpp"
#include "world_ops.hpp"

namespace {

using namespace rigid2d;
using rigid2d::fuzz::violation;

// A handful of steps finds what building and the first contacts break; a scene's own step count
// (up to 600 and more) would only slow the fuzzer down.
constexpr int kMaxSteps = 8;

template <class Call>
bool refusedOrDone(std::string_view what, Call&& call) {
    try {
        call();
        return true;
    } catch (const scene_file::SceneFileError&) {
        return false;
    } catch (const Error&) {
        return false;
    } catch (const std::exception& e) {
        violation(what, std::string("threw an exception that is neither SceneFileError nor "
                                    "rigid2d::Error: ") +
                            e.what());
    } catch (...) {
        violation(what, "threw something that is not an exception");
    }
}

void roundTrip(const scene_file::SceneDesc& scene) {
    std::string written;
    if (!refusedOrDone("sceneToJson", [&] { written = scene_file::sceneToJson(scene); })) return;
    scene_file::SceneDesc again;
    try {
        again = scene_file::parseScene(written, "written.json");
    } catch (const std::exception& e) {
        violation("sceneToJson", std::string("wrote a scene the reader refuses: ") + e.what());
    }
    std::string rewritten;
    if (!refusedOrDone("sceneToJson", [&] { rewritten = scene_file::sceneToJson(again); }) ||
        rewritten != written) {
        std::fprintf(stderr, "written:\n%s\nrewritten:\n%s\n", written.c_str(), rewritten.c_str());
        violation("sceneToJson", "reading back what it wrote and writing again changed the bytes");
    }
}

void buildAndStep(const scene_file::SceneDesc& scene) {
    World world;
    if (!refusedOrDone("buildScene", [&] { (void)scene_file::buildScene(scene, world); })) return;
    const bool validDt = scene.timeStep >= kMinTimeStep && scene.timeStep <= kMaxTimeStep;
    for (int i = 0; i < kMaxSteps && i < scene.steps; ++i) {
        if (!validDt) {
            if (refusedOrDone("World::step", [&] { world.step(scene.timeStep); }))
                violation("World::step", "a dt outside [kMinTimeStep, kMaxTimeStep] was accepted");
            return;
        }
        try {
            world.step(scene.timeStep);
        } catch (const std::exception& e) {
            violation("World::step", std::string("threw with a valid dt: ") + e.what());
        }
        if (!testing::allFinite(world)) violation("World::step", "left a body non-finite");
    }
    // Capturing the running world exercises the density recovery of captureScene.
    (void)refusedOrDone("captureScene", [&] {
        const scene_file::SceneDesc captured =
            scene_file::captureScene(world, scene.name, scene.timeStep, scene.steps, std::nullopt);
        (void)scene_file::sceneToJson(captured);
    });
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    setLogLevel(LogLevel::Off);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    scene_file::SceneDesc scene;
    if (!refusedOrDone("parseScene", [&] { scene = scene_file::parseScene(text, "fuzz.json"); }))
        return 0;
    roundTrip(scene);
    buildAndStep(scene);
    return 0;
}
