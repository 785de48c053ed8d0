// parseScene: the document, its bodies and their shapes (joints: joint_parse.cpp).

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "json_numbers.hpp"
#include "rigid2d/geometry.hpp"
#include "scene_file.hpp"
#include "scene_reader.hpp"

namespace rigid2d::scene_file {

namespace {

using detail::json;
using detail::Reader;

// Heavier shapes are refused: their mass, times the offsets and speeds a step multiplies it by,
// would leave the float range (the engine refuses them too; the reader names the field first).
constexpr float kMaxShapeMass = 1e20f;

BodyType parseBodyType(const Reader& in, const json& body) {
    const json* value = in.find(body, "type");
    if (value == nullptr) return BodyType::Dynamic;
    const std::string& name = in.string(*value, "type");
    if (name == "static") return BodyType::Static;
    if (name == "kinematic") return BodyType::Kinematic;
    if (name == "dynamic") return BodyType::Dynamic;
    in.fail("type", "must be \"static\", \"kinematic\" or \"dynamic\", got \"" + name + "\"");
}

Filter parseFilter(const Reader& in, const json& shape, const std::string& prefix) {
    Filter filter;
    const json* value = in.find(shape, "filter");
    if (value == nullptr) return filter;
    const std::string field = prefix + "filter";
    in.requireObject(*value, field);
    constexpr long long kMaxBits = 0xFFFFFFFFll;
    if (const json* bits = in.find(*value, "category"))
        filter.categoryBits =
            static_cast<std::uint32_t>(in.integer(*bits, field + ".category", 0, kMaxBits));
    if (const json* bits = in.find(*value, "mask"))
        filter.maskBits =
            static_cast<std::uint32_t>(in.integer(*bits, field + ".mask", 0, kMaxBits));
    if (const json* group = in.find(*value, "group"))
        filter.groupIndex = static_cast<std::int32_t>(
            in.integer(*group, field + ".group", std::numeric_limits<std::int32_t>::min(),
                       std::numeric_limits<std::int32_t>::max()));
    return filter;
}

// Version 2's polygon: the vertices as listed must already be convex and counter-clockwise (the
// file is read by engines that take them as they are); makePolygon then checks for duplicates,
// collinear points and slivers the same way the engine does.
void checkPolygon(const Reader& in, const ShapeDesc& shape, const std::string& field) {
    const auto& v = shape.vertices;
    const std::size_t n = v.size();
    if (n < 3 || n > static_cast<std::size_t>(kMaxPolygonVertices))
        in.fail(field, "must hold 3 to 8 points, got " + std::to_string(n));
    for (std::size_t i = 0; i < n; ++i) {
        const Vec2 e1 = v[(i + 1) % n] - v[i], e2 = v[(i + 2) % n] - v[(i + 1) % n];
        if (!(e1.x * e2.y - e1.y * e2.x > 0.0f))
            in.fail(field, "must list a convex polygon counter-clockwise (vertex " +
                               std::to_string((i + 1) % n) + " does not turn left)");
    }
    try {
        if (makePolygon(v, shape.radius).count != static_cast<int>(n))
            in.fail(field, "must not hold collinear or nearly coincident points");
    } catch (const Error& e) {
        in.fail(field, e.what());
    }
}

float shapeArea(const ShapeDesc& shape) {
    switch (shape.kind) {
    case ShapeType::Circle: return computeMass(Circle{{}, shape.radius}, 1.0f).mass;
    case ShapeType::Box: return 4.0f * shape.halfExtents.x * shape.halfExtents.y;
    case ShapeType::Polygon:
        return computeMass(makePolygon(shape.vertices, shape.radius), 1.0f).mass;
    case ShapeType::Capsule:
        return computeMass(Capsule{shape.point1, shape.point2, shape.radius}, 1.0f).mass;
    case ShapeType::Segment:
    case ShapeType::ChainSegment: return 0.0f;
    }
    return 0.0f;
}

void parseKind(const Reader& in, const json& shape, const std::string& prefix, int version,
               ShapeDesc& out) {
    const std::string& kind =
        in.string(in.require(shape, "kind", prefix + "kind"), prefix + "kind");
    const auto distinct = [&](const char* second) {
        if (out.point1 == out.point2) in.fail(prefix + second, "must differ from the first point");
    };
    if (kind == "circle") {
        out.kind = ShapeType::Circle;
        out.radius = in.requiredNumber(shape, "radius", prefix);
        in.requirePositive(out.radius, prefix + "radius");
    } else if (kind == "box") {
        out.kind = ShapeType::Box;
        const std::string field = prefix + "half_extents";
        out.halfExtents = in.requiredVec2(shape, "half_extents", prefix);
        in.requirePositive(out.halfExtents.x, field + "[0]");
        in.requirePositive(out.halfExtents.y, field + "[1]");
        if (version >= 2) out.angle = in.number(shape, "angle", prefix, 0.0f);
    } else if (version >= 2 && kind == "polygon") {
        out.kind = ShapeType::Polygon;
        const json& points = in.require(shape, "vertices", prefix + "vertices");
        if (!points.is_array())
            in.fail(prefix + "vertices",
                    std::string("must be an array, got ") + points.type_name());
        for (std::size_t i = 0; i < points.size(); ++i)
            out.vertices.push_back(
                in.vec2(points[i], prefix + "vertices[" + std::to_string(i) + "]"));
        out.radius = in.number(shape, "radius", prefix, 0.0f);
        in.requireNonNegative(out.radius, prefix + "radius");
        checkPolygon(in, out, prefix + "vertices");
    } else if (version >= 2 && kind == "capsule") {
        out.kind = ShapeType::Capsule;
        out.point1 = in.requiredVec2(shape, "center1", prefix);
        out.point2 = in.requiredVec2(shape, "center2", prefix);
        distinct("center2");
        out.radius = in.requiredNumber(shape, "radius", prefix);
        in.requirePositive(out.radius, prefix + "radius");
    } else if (version >= 2 && kind == "segment") {
        out.kind = ShapeType::Segment;
        out.point1 = in.requiredVec2(shape, "point1", prefix);
        out.point2 = in.requiredVec2(shape, "point2", prefix);
        distinct("point2");
    } else if (version >= 2 && kind == "chain") {
        out.kind = ShapeType::ChainSegment;
        const json& points = in.require(shape, "points", prefix + "points");
        if (!points.is_array())
            in.fail(prefix + "points", std::string("must be an array, got ") + points.type_name());
        for (std::size_t i = 0; i < points.size(); ++i)
            out.vertices.push_back(
                in.vec2(points[i], prefix + "points[" + std::to_string(i) + "]"));
        out.loop = in.boolean(shape, "loop", prefix, false);
        const std::size_t least = out.loop ? 3 : 4;
        if (out.vertices.size() < least || out.vertices.size() > std::size_t{kMaxChainPoints})
            in.fail(prefix + "points", "must hold " + std::to_string(least) +
                                           " to 2^20 points, got " +
                                           std::to_string(out.vertices.size()));
        for (std::size_t i = 0; i + 1 < out.vertices.size(); ++i)
            if (out.vertices[i] == out.vertices[i + 1])
                in.fail(prefix + "points[" + std::to_string(i + 1) + "]",
                        "must differ from the point before it");
    } else {
        in.fail(prefix + "kind",
                version >= 2 ? "must be \"circle\", \"box\", \"polygon\", \"capsule\", "
                               "\"segment\" or \"chain\", got \"" +
                                   kind + "\""
                             : "must be \"circle\" or \"box\" (version 1), got \"" + kind + "\"");
    }
}

ShapeDesc parseShape(const Reader& in, const json& shape, const std::string& prefix, int version) {
    in.requireObject(shape, prefix.substr(0, prefix.size() - 1));
    ShapeDesc out;
    parseKind(in, shape, prefix, version, out);
    if (out.kind == ShapeType::Circle || out.kind == ShapeType::Box)
        out.center = in.vec2(shape, "center", prefix, {0.0f, 0.0f});
    out.def.density = in.number(shape, "density", prefix, 1.0f);
    in.requireNonNegative(out.def.density, prefix + "density");
    const float mass = out.def.density * shapeArea(out);
    if (!(mass <= kMaxShapeMass))
        in.fail(prefix + "density", "gives the shape a mass above 1e20 kg, got density " +
                                        detail::numberText(out.def.density));
    out.def.friction = in.number(shape, "friction", prefix, 0.6f);
    in.requireNonNegative(out.def.friction, prefix + "friction");
    out.def.restitution = in.number(shape, "restitution", prefix, 0.0f);
    in.requireNonNegative(out.def.restitution, prefix + "restitution");
    in.requireAtMost(out.def.restitution, 1.0f, prefix + "restitution");
    out.def.isSensor = in.boolean(shape, "sensor", prefix, false);
    if (version >= 2) out.def.filter = parseFilter(in, shape, prefix);
    return out;
}

BodyDesc parseBody(const Reader& in, const json& body, int version) {
    if (!body.is_object()) in.fail("", std::string("must be an object, got ") + body.type_name());
    BodyDesc out;
    out.def.type = parseBodyType(in, body);
    out.def.position = in.requiredVec2(body, "position", "");
    out.def.angle = in.number(body, "angle", "", 0.0f);
    out.def.linearVelocity = in.vec2(body, "velocity", "", {0.0f, 0.0f});
    out.def.angularVelocity = in.number(body, "angular_velocity", "", 0.0f);
    out.def.bullet = in.boolean(body, "bullet", "", false);
    if (version >= 2) {
        out.def.fixedRotation = in.boolean(body, "fixed_rotation", "", false);
        out.def.linearDamping = in.number(body, "linear_damping", "", 0.0f);
        in.requireNonNegative(out.def.linearDamping, "linear_damping");
        out.def.angularDamping = in.number(body, "angular_damping", "", 0.0f);
        in.requireNonNegative(out.def.angularDamping, "angular_damping");
        out.def.gravityScale = in.number(body, "gravity_scale", "", 1.0f);
        out.def.enableSleep = in.boolean(body, "allow_sleep", "", true);
        out.def.isAwake = in.boolean(body, "awake", "", true);
    }

    const json& shapes = in.require(body, "shapes", "shapes");
    if (!shapes.is_array())
        in.fail("shapes", std::string("must be an array, got ") + shapes.type_name());
    if (shapes.empty()) in.fail("shapes", "must hold at least one shape");
    out.shapes.reserve(shapes.size());
    bool hasArea = false;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        out.shapes.push_back(
            parseShape(in, shapes[i], "shapes[" + std::to_string(i) + "].", version));
        hasArea = hasArea || (out.shapes.back().kind != ShapeType::Segment &&
                              out.shapes.back().kind != ShapeType::ChainSegment);
    }
    if (out.def.type == BodyType::Dynamic && !hasArea)
        in.fail("shapes", "a dynamic body needs a shape with area (not only segments)");
    return out;
}

std::string stemOf(std::string_view sourceName) {
    return std::filesystem::path(std::string(sourceName)).stem().string();
}

} // namespace

SceneDesc parseScene(std::string_view text, std::string_view sourceName) {
    json document;
    try {
        document = json::parse(detail::markUnreadableNumbers(text));
    } catch (const json::exception& e) {
        throw SceneFileError(std::string(sourceName) + ": not valid JSON: " + e.what());
    }
    Reader in(sourceName);
    if (!document.is_object()) {
        throw SceneFileError(std::string(sourceName) +
                             ": the document must be a JSON object, got " + document.type_name());
    }
    const json& format = in.require(document, "format", "format");
    if (!format.is_string() || format.get_ref<const std::string&>() != "rigid2d-scene") {
        in.fail("format", "must be \"rigid2d-scene\", got " + format.dump());
    }
    const json& version = in.require(document, "version", "version");
    if (!version.is_number_integer() || version.get<long long>() < 1 ||
        version.get<long long>() > 2) {
        in.fail("version",
                "must be 1 or 2 (the versions this reader knows), got " + version.dump());
    }

    SceneDesc scene;
    scene.version = static_cast<int>(version.get<long long>());
    const json* name = in.find(document, "name");
    scene.name = name == nullptr ? stemOf(sourceName) : in.string(*name, "name");
    scene.gravity = in.vec2(document, "gravity", "", scene.gravity);
    scene.timeStep = in.number(document, "time_step", "", scene.timeStep);
    in.requirePositive(scene.timeStep, "time_step");
    if (const json* steps = in.find(document, "steps")) {
        if (!steps->is_number_integer() || steps->get<long long>() < 0 ||
            steps->get<long long>() > std::numeric_limits<int>::max()) {
            in.fail("steps", "must be a whole number >= 0, got " + steps->dump());
        }
        scene.steps = static_cast<int>(steps->get<long long>());
    }
    if (const json* bounds = in.find(document, "bounds")) {
        in.requireObject(*bounds, "bounds");
        scene.hasBounds = true;
        scene.bounds.lower = in.requiredVec2(*bounds, "lower", "bounds.");
        scene.bounds.upper = in.requiredVec2(*bounds, "upper", "bounds.");
        if (!isValid(scene.bounds)) in.fail("bounds", "must have lower <= upper");
    }

    const json& bodies = in.require(document, "bodies", "bodies");
    if (!bodies.is_array())
        in.fail("bodies", std::string("must be an array, got ") + bodies.type_name());
    scene.bodies.reserve(bodies.size());
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        in.enter("body", i);
        scene.bodies.push_back(parseBody(in, bodies[i], scene.version));
    }
    if (const json* joints = scene.version >= 2 ? in.find(document, "joints") : nullptr) {
        Reader top(sourceName);
        if (!joints->is_array())
            top.fail("joints", std::string("must be an array, got ") + joints->type_name());
        scene.joints.reserve(joints->size());
        for (std::size_t i = 0; i < joints->size(); ++i) {
            in.enter("joint", i);
            scene.joints.push_back(detail::parseJoint(in, (*joints)[i], scene.bodies));
        }
    }
    return scene;
}

SceneDesc readSceneFile(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) throw SceneFileError(path.string() + ": cannot open the file");
    std::ostringstream text;
    text << file.rdbuf();
    if (file.bad()) throw SceneFileError(path.string() + ": cannot read the file");
    return parseScene(text.str(), path.string());
}

} // namespace rigid2d::scene_file
