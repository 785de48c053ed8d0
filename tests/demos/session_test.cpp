// Session::seek, the viewer's rewind: any step in the kept range is reached with the same bits
// the first run had there, from a keyframe and the steps after it.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "rigid2d/testing.hpp"
#include "session.hpp"

namespace rigid2d::demos {

TEST_CASE("session: seeking back and forth lands on the states the first run went through") {
    for (const char* name : {"mixed", "pyramid", "sensors"}) {
        CAPTURE(name);
        const SceneInfo& info = *findScene(name);
        Session session(sourceOf(info), info.testSize, BroadPhaseType::SpatialHash);
        std::vector<std::uint64_t> hashes{testing::stateHash(session.world())};
        for (int i = 0; i < 47; ++i) {
            session.step();
            hashes.push_back(testing::stateHash(session.world()));
        }
        CHECK(session.earliestStep() == 0);
        CHECK(session.latestStep() == 47);
        for (const int target : {0, 13, 20, 47, 3, 30}) {
            session.seek(target);
            CHECK(session.steps() == target);
            CHECK(testing::stateHash(session.world()) == hashes[static_cast<std::size_t>(target)]);
        }
        // Playing on from a rewound step follows the first run's path again.
        session.seek(21);
        for (int i = 22; i <= 40; ++i) {
            session.step();
            CHECK(testing::stateHash(session.world()) == hashes[static_cast<std::size_t>(i)]);
        }
        CHECK(session.latestStep() == 40); // the steps after 40 were dropped
        session.seek(99);
        CHECK(session.steps() == 40);
    }
}

} // namespace rigid2d::demos
