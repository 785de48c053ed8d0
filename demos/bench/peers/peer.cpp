#include "peer.hpp"

#include "../timing.hpp"

#include <algorithm>

namespace rigid2d::peers {

void EngineNotes::addOnce(std::vector<std::string>& list, const std::string& what) {
    if (std::find(list.begin(), list.end(), what) == list.end()) list.push_back(what);
}

std::string EngineNotes::json() const {
    std::string out;
    for (const auto* list : {&m_approximations, &m_mapping}) {
        if (list->empty()) continue;
        out += list == &m_approximations ? ", \"approximations\": [" : ", \"mapping\": [";
        for (std::size_t i = 0; i < list->size(); ++i)
            out += (i ? ", " : "") + bench::jsonString((*list)[i]);
        out += "]";
    }
    return out;
}

bool hasFixedRotation(const SceneDesc& scene, const BodyDesc& body) {
    if (scene.version >= 2) return body.def.fixedRotation;
    return body.def.type == BodyType::Dynamic &&
           std::any_of(body.shapes.begin(), body.shapes.end(),
                       [](const ShapeDesc& s) { return s.kind == ShapeType::Box; });
}

bool needsExactMass(const BodyDesc& body) {
    return std::any_of(body.shapes.begin(), body.shapes.end(), [](const ShapeDesc& s) {
        return s.kind == ShapeType::Capsule || (s.kind == ShapeType::Polygon && s.radius > 0.0f);
    });
}

MassData exactMass(const BodyDesc& body) {
    double mass = 0.0, mx = 0.0, my = 0.0;
    std::vector<MassData> parts;
    for (const ShapeDesc& s : body.shapes) {
        MassData part;
        switch (s.kind) {
        case ShapeType::Circle:
            part = computeMass(Circle{s.center, s.radius}, s.def.density);
            break;
        case ShapeType::Box:
            part = computeMass(makeBox(s.halfExtents, s.center, s.angle), s.def.density);
            break;
        case ShapeType::Polygon:
            part = computeMass(makePolygon(s.vertices, s.radius), s.def.density);
            break;
        case ShapeType::Capsule:
            part = computeMass(Capsule{s.point1, s.point2, s.radius}, s.def.density);
            break;
        case ShapeType::Segment:
        case ShapeType::ChainSegment: continue;
        }
        parts.push_back(part);
        mass += double{part.mass};
        mx += double{part.mass} * double{part.center.x};
        my += double{part.mass} * double{part.center.y};
    }
    MassData out;
    if (!(mass > 0.0)) return out;
    const double cx = mx / mass, cy = my / mass;
    double inertia = 0.0;
    for (const MassData& p : parts) {
        const double dx = double{p.center.x} - cx, dy = double{p.center.y} - cy;
        inertia += double{p.rotationalInertia} + double{p.mass} * (dx * dx + dy * dy);
    }
    out.mass = static_cast<float>(mass);
    out.center = {static_cast<float>(cx), static_cast<float>(cy)};
    out.rotationalInertia = static_cast<float>(inertia);
    return out;
}

bool boxesOverlap(const bench::ChurnBoxes& boxes, std::size_t a, std::size_t b) {
    return boxes.lowerX(a) <= boxes.upperX(b) && boxes.lowerX(b) <= boxes.upperX(a) &&
           boxes.lowerY(a) <= boxes.upperY(b) && boxes.lowerY(b) <= boxes.upperY(a);
}

} // namespace rigid2d::peers
