#pragma once
/// Draws one frame of a session with Cairo: background, the scene (through `DebugDraw`), the
/// broad phase's structure and a text panel of per-stage times. The runner writes these frames
/// to files; the viewer shows them in its window.

#include <cairo.h>

#include "camera.hpp"
#include "session.hpp"

namespace rigid2d::demos {

struct FrameOptions {
    bool broadPhase = true; ///< the broad phase's structure (cells, intervals, nodes)
    bool aabbs = false;
    bool contacts = false;
    bool panel = true; ///< the text panel of counts and per-stage times
};

/// Paints the whole target of `cr` (camera.width x camera.height pixels).
void renderFrame(cairo_t* cr, const Camera& camera, const Session& session,
                 const FrameOptions& options);

/// The panel's lines: scene, broad phase, time, counts, per-stage milliseconds, scene status.
[[nodiscard]] std::vector<std::string> panelLines(const Session& session);

} // namespace rigid2d::demos
