#pragma once
// Quality figures of a scene's final state, computed the same way for every engine (rigid2d and
// the peers), so that speed is compared at known quality. Definitions: demos/bench/FORMAT.md,
// "Quality".

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "scene_file.hpp"

namespace rigid2d::bench {

/// One body's final state, in double (peers write doubles), possibly non-finite.
struct FinalBody {
    double x = 0, y = 0, vx = 0, vy = 0, angle = 0;
};

/// Reads FORMAT.md's final state ({"bodies": [{"position", "velocity", "angle"}]}); NaN and
/// Infinity, as Python and the peers write them, are read as such. Throws SceneFileError naming
/// the file and body for anything else malformed.
[[nodiscard]] std::vector<FinalBody> readFinalState(const std::filesystem::path& path);
[[nodiscard]] std::vector<FinalBody> parseFinalState(const std::string& text,
                                                     const std::string& source);

struct JointError {
    int joints = 0; ///< joints that are hard constraints, with a finite error
    double max = 0, mean = 0;
    int nonfinite = 0;
};

struct Quality {
    int escaped = 0; ///< dynamic bodies outside the bounds or not finite
    int dynamicBodies = 0;
    int overlaps = 0; ///< pairs of shapes that may collide and overlap
    double maxOverlap = 0, meanOverlap = 0;
    double kineticEnergy = 0;
    double maxDisplacement = 0, meanDisplacement = 0;
    std::optional<JointError> jointError; ///< scenes with joints
};

/// Throws SceneFileError when the final state does not hold one body per scene body, or the
/// scene has no bounds.
[[nodiscard]] Quality measureQuality(const scene_file::SceneDesc& scene,
                                     const std::vector<FinalBody>& final);

/// The joint figures alone (quality_joints.cpp): joints that are hard constraints.
[[nodiscard]] std::optional<JointError> measureJoints(const scene_file::SceneDesc& scene,
                                                      const std::vector<FinalBody>& final);

/// The figures as one JSON object (the keys of FORMAT.md, in a fixed order).
[[nodiscard]] std::string qualityJson(const Quality& quality);

} // namespace rigid2d::bench
