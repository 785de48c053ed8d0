// How far the joints of a scene came apart in a final state (FORMAT.md, "Quality"): each anchor
// is fixed to its body at the start and placed with the body's final pose.

#include <cmath>

#include "quality.hpp"

namespace rigid2d::bench {

namespace {

using scene_file::BodyDesc;
using scene_file::JointDesc;
using scene_file::JointKind;

struct Point {
    double x = 0, y = 0;
};

// A world point at the start, in the body's frame.
Point localOf(const BodyDesc& body, Vec2 point) {
    const double a = body.def.angle, c = std::cos(a), s = std::sin(a);
    const double dx = double{point.x} - double{body.def.position.x};
    const double dy = double{point.y} - double{body.def.position.y};
    return {c * dx + s * dy, -s * dx + c * dy};
}

Point worldOf(const FinalBody& f, Point local) {
    const double c = std::cos(f.angle), s = std::sin(f.angle);
    return {f.x + c * local.x - s * local.y, f.y + s * local.x + c * local.y};
}

// The error of one joint that is a hard constraint; NaN-free joints only are averaged by the
// caller. Returns false for a joint that is not a hard constraint (a soft weld).
bool errorOf(const JointDesc& j, const std::vector<BodyDesc>& bodies,
             const std::vector<FinalBody>& final, double& error) {
    const auto ia = static_cast<std::size_t>(j.bodyA), ib = static_cast<std::size_t>(j.bodyB);
    const BodyDesc &a = bodies[ia], &b = bodies[ib];
    const FinalBody &fa = final[ia], &fb = final[ib];
    switch (j.kind) {
    case JointKind::Weld:
        if (j.linearHertz > 0.0f) return false;
        [[fallthrough]];
    case JointKind::Revolute: {
        const Point wa = worldOf(fa, localOf(a, j.anchorA)),
                    wb = worldOf(fb, localOf(b, j.anchorA));
        error = std::hypot(wb.x - wa.x, wb.y - wa.y);
        return true;
    }
    case JointKind::Distance: {
        const Point wa = worldOf(fa, localOf(a, j.anchorA)),
                    wb = worldOf(fb, localOf(b, j.anchorB));
        const double d = std::hypot(wb.x - wa.x, wb.y - wa.y);
        error = j.enableSpring ? std::max({0.0, d - double{j.maxLength}, double{j.minLength} - d})
                               : std::fabs(d - double{j.length});
        return true;
    }
    case JointKind::Prismatic:
    case JointKind::Wheel: {
        // The axis turns with body A: its direction at the start in A's frame, then A's final
        // angle.
        const double ux = j.axis.x, uy = j.axis.y, a0 = a.def.angle;
        const double lx = std::cos(a0) * ux + std::sin(a0) * uy,
                     ly = -std::sin(a0) * ux + std::cos(a0) * uy;
        const double wx = std::cos(fa.angle) * lx - std::sin(fa.angle) * ly;
        const double wy = std::sin(fa.angle) * lx + std::cos(fa.angle) * ly;
        const Point wa = worldOf(fa, localOf(a, j.anchorA)),
                    wb = worldOf(fb, localOf(b, j.anchorA));
        error = std::fabs(wx * (wb.y - wa.y) - wy * (wb.x - wa.x));
        return true;
    }
    }
    return false;
}

} // namespace

std::optional<JointError> measureJoints(const scene_file::SceneDesc& scene,
                                        const std::vector<FinalBody>& final) {
    JointError out;
    double sum = 0;
    for (const JointDesc& joint : scene.joints) {
        double error = 0;
        if (!errorOf(joint, scene.bodies, final, error)) continue;
        if (!std::isfinite(error)) {
            ++out.nonfinite;
            continue;
        }
        ++out.joints;
        out.max = std::max(out.max, error);
        sum += error;
    }
    if (out.joints > 0) out.mean = sum / out.joints;
    return out;
}

} // namespace rigid2d::bench
