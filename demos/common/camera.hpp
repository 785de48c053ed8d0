#pragma once
/// The 2D camera of the runner and the viewer: world metres (y up) to pixels (y down).

#include "rigid2d/math.hpp"

namespace rigid2d::demos {

struct Camera {
    Vec2 center{0.0f, 0.0f}; ///< world point at the middle of the picture
    float pixelsPerMeter = 10.0f;
    int width = 800;
    int height = 600;

    [[nodiscard]] Vec2 toScreen(Vec2 world) const noexcept {
        return {0.5f * static_cast<float>(width) + (world.x - center.x) * pixelsPerMeter,
                0.5f * static_cast<float>(height) - (world.y - center.y) * pixelsPerMeter};
    }
    [[nodiscard]] Vec2 toWorld(Vec2 screen) const noexcept {
        return {center.x + (screen.x - 0.5f * static_cast<float>(width)) / pixelsPerMeter,
                center.y - (screen.y - 0.5f * static_cast<float>(height)) / pixelsPerMeter};
    }
    /// The world region the picture shows.
    [[nodiscard]] AABB visibleRegion() const noexcept {
        const Vec2 half{0.5f * static_cast<float>(width) / pixelsPerMeter,
                        0.5f * static_cast<float>(height) / pixelsPerMeter};
        return {center - half, center + half};
    }
    /// Centres `region` and scales it to fill the picture, leaving `margin` of it free each side.
    void fit(const AABB& region, float margin = 0.04f) noexcept;
    /// Zooms by `factor` keeping the world point under `screen` in place.
    void zoomAt(Vec2 screen, float factor) noexcept;
    /// Moves the view by a drag of `deltaPixels` on screen.
    void panPixels(Vec2 deltaPixels) noexcept {
        center.x -= deltaPixels.x / pixelsPerMeter;
        center.y += deltaPixels.y / pixelsPerMeter;
    }
};

} // namespace rigid2d::demos
