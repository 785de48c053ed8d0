// rigid2d-bench quality --scene S --final-state F: the quality figures of any engine's final state
// of a scene, printed as one JSON line (the same code scores rigid2d and the peers).

#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>

#include "commands.hpp"
#include "quality.hpp"

namespace rigid2d::bench {

namespace {

constexpr const char* kUsage =
    "usage: rigid2d-bench quality --scene FILE --final-state FILE\n"
    "  prints {\"escaped\", \"dynamic_bodies\", \"overlaps\", \"max_overlap\", \"mean_overlap\",\n"
    "  \"kinetic_energy\", \"max_displacement\", \"mean_displacement\"[, \"joint_error\"]}\n";

} // namespace

int runQualityCommand(int argc, char** argv) {
    std::string scenePath, finalPath;
    for (int i = 1; i < argc; ++i) {
        const std::string_view flag = argv[i];
        if (flag == "--help" || flag == "-h") {
            std::fputs(kUsage, stdout);
            return 0;
        }
        if (i + 1 >= argc || (flag != "--scene" && flag != "--final-state")) {
            std::fprintf(stderr, "rigid2d-bench quality: bad argument '%s'\n%s", argv[i], kUsage);
            return 2;
        }
        (flag == "--scene" ? scenePath : finalPath) = argv[++i];
    }
    if (scenePath.empty() || finalPath.empty()) {
        std::fprintf(stderr, "rigid2d-bench quality: --scene and --final-state are required\n%s",
                     kUsage);
        return 2;
    }
    try {
        const scene_file::SceneDesc scene = scene_file::readSceneFile(scenePath);
        std::cout << qualityJson(measureQuality(scene, readFinalState(finalPath))) << std::endl;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "rigid2d-bench quality: %s\n", e.what());
        return 1;
    }
    return 0;
}

} // namespace rigid2d::bench
