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
    {"pyramid", 120, 0x6d9e1218d90dc506},   {"mixed", 120, 0xfe00eec3f51dcde2},
    {"bullets", 120, 0x4eb61199f690cf65},   {"sensors", 120, 0xa33243af319b0b48},
    {"topple", 150, 0xf88156ac3cd7441d},    {"ramp", 150, 0x955aa40641e005cc},
    {"landscape", 150, 0xc2f72ddd2ab86aac}, {"dominoes", 150, 0xcf76ad4671a3eec4},
    {"rain", 120, 0x139d8101843cf671},
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
