// Pinned final states: each scene, stepped a fixed number of times, must end in exactly the state
// it ended in when the hash below was recorded. A restructuring that claims to change nothing
// proves it here; a change of behaviour updates the hashes in the same commit, saying why.
// (Every broad phase gives the same bits, checked elsewhere, so one kind is enough; every SIMD
// path of the wide solver must give them too.)
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "rigid2d/testing.hpp"
#include "scene.hpp"
#include "solver/simd_paths.hpp"

namespace rigid2d::demos {

namespace {
struct Golden {
    std::string_view scene;
    int steps;
    std::uint64_t hash;
};

// Recorded with the ci preset; the asan preset (another optimisation level) must agree.
constexpr Golden kGolden[] = {
    {"pyramid", 120, 0x6d9e1218d90dc506},   {"mixed", 120, 0x726da9e048da2455},
    {"bullets", 120, 0x9b8666a593655dd9},   {"sensors", 120, 0x789fda6ea5467a31},
    {"topple", 150, 0x845aaa2af626e754},    {"ramp", 150, 0xdf42886474f481a0},
    {"landscape", 150, 0x7a532cf909c5fa15}, {"dominoes", 150, 0xcf76ad4671a3eec4},
    {"rain", 120, 0xdab35266f2a2b9ed},
};
} // namespace

TEST_CASE("golden: demo scenes end in the pinned states, on every SIMD path") {
    for (const detail::SimdPath path : testing::availableSimdPaths())
        for (const Golden& golden : kGolden) {
            CAPTURE(std::string(detail::simdPathName(path)));
            CAPTURE(golden.scene);
            const testing::ForcedSimdPath forced(path);
            const SceneInfo* info = findScene(golden.scene);
            REQUIRE(info != nullptr);
            World world;
            auto scene = info->create();
            scene->build(world, info->testSize);
            for (int step = 0; step < golden.steps; ++step) {
                scene->update(world, static_cast<float>(step) * kSceneTimeStep);
                world.step(kSceneTimeStep);
            }
            const std::uint64_t hash = testing::stateHash(world);
            CHECK(hash == golden.hash);
        }
}

} // namespace rigid2d::demos
