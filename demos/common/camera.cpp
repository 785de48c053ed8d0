#include "camera.hpp"

#include <algorithm>

namespace rigid2d::demos {

void Camera::fit(const AABB& region, float margin) noexcept {
    center = rigid2d::center(region);
    const Vec2 size = region.upper - region.lower;
    const float usable = 1.0f - 2.0f * margin;
    const float sx = size.x > 0.0f ? usable * static_cast<float>(width) / size.x : 1e6f;
    const float sy = size.y > 0.0f ? usable * static_cast<float>(height) / size.y : 1e6f;
    pixelsPerMeter = std::clamp(std::min(sx, sy), 1e-4f, 1e4f);
}

void Camera::zoomAt(Vec2 screen, float factor) noexcept {
    const Vec2 anchor = toWorld(screen);
    pixelsPerMeter = std::clamp(pixelsPerMeter * factor, 1e-4f, 1e4f);
    const Vec2 moved = toWorld(screen);
    center += anchor - moved;
}

} // namespace rigid2d::demos
