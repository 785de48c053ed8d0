#pragma once
/// The drawing interface the world and broad phases use to show themselves (viewer, headless PNG).

#include <cstddef>
#include <span>
#include <string_view>

#include "rigid2d/math.hpp"

namespace rigid2d {

/// An RGBA colour, each channel in [0, 1].
struct Color {
    float r = 1.0f, g = 1.0f, b = 1.0f, a = 1.0f;
};

/// Implemented by a renderer; `World::debugDraw` and `BroadPhase::debugDraw` call it. Coordinates
/// are world metres; the renderer owns the camera. The flags say what the world should draw.
class DebugDraw {
public:
    virtual ~DebugDraw() = default;

    /// A solid circle; `angle` (radians) lets the renderer draw a radius line that shows spin.
    virtual void drawCircle(Vec2 center, float radius, float angle, Color fill, Color outline) = 0;
    /// A solid axis-aligned box.
    virtual void drawBox(const AABB& box, Color fill, Color outline) = 0;
    /// An outline only (fat AABBs, grid cells, tree nodes).
    virtual void drawAABB(const AABB& box, Color color) = 0;
    virtual void drawSegment(Vec2 a, Vec2 b, Color color) = 0;
    /// A solid convex polygon, counter-clockwise, rounded by `radius` (>= 0): every point within
    /// `radius` of it. Two vertices make a capsule (a segment when `radius` is 0). The default
    /// draws outlines only, with drawSegment and drawCircle; renderers fill it.
    virtual void drawPolygon(std::span<const Vec2> vertices, float radius, Color fill,
                             Color outline) {
        (void)fill;
        for (std::size_t i = 0; i < vertices.size(); ++i)
            drawSegment(vertices[i], vertices[(i + 1) % vertices.size()], outline);
        if (radius > 0.0f)
            for (const Vec2 v : vertices) drawCircle(v, radius, 0.0f, outline, outline);
    }
    /// A point of `size` pixels (contact points).
    virtual void drawPoint(Vec2 p, float size, Color color) = 0;
    /// A short label at a world position (optional for a renderer).
    virtual void drawText(Vec2 /*p*/, std::string_view /*text*/, Color /*color*/) {}

    bool drawShapes = true;
    bool drawAABBs = false;
    bool drawContacts = false;
    /// Joints as lines from each body's centre to its anchor (and between the anchors).
    bool drawJoints = true;
    /// Draw the broad phase's own structure: grid/hash cells, sweep intervals, tree nodes.
    bool drawBroadPhase = false;
    /// Only what overlaps this region is drawn when `useCullRegion` is set (culling via queries).
    bool useCullRegion = false;
    AABB cullRegion{};
};

} // namespace rigid2d
