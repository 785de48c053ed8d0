#pragma once
/// JSON scene files (demos/bench/FORMAT.md) as demo scenes, and running scenes saved as files.

#include <filesystem>

#include "scene_file.hpp"
#include "session.hpp"

namespace rigid2d::demos {

/// A session source that builds the scene file at `path`. The file is read once, here; throws
/// `scene_file::SceneFileError` when it is refused. The size parameter is ignored.
[[nodiscard]] SceneSource fileSceneSource(const std::filesystem::path& path);

/// Writes the session's world, as it is now, as a scene file that runs `steps` more steps.
void saveSessionScene(const Session& session, const std::filesystem::path& path, int steps);

} // namespace rigid2d::demos
