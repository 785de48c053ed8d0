#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

#include "json_numbers.hpp"
#include "scene_file.hpp"

namespace rigid2d::scene_file {

namespace {

using nlohmann::json;

// Python's json module writes NaN and +-Infinity as bare words, which JSON (and nlohmann) refuse
// at parse time with a message naming only a byte offset. To name the body and field instead,
// the words are first turned into marker strings; reading a number that holds a marker refuses it
// like any other non-finite number. Outside strings, valid JSON never holds 'N' or 'I', so the
// scan cannot change a valid document.
constexpr char kNonFiniteMarker = '\x01';

std::string quoteNonFiniteWords(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            out += c;
            if (c == '\\' && i + 1 < text.size()) {
                out += text[++i];
            } else if (c == '"') {
                inString = false;
            }
            continue;
        }
        bool replaced = false;
        for (std::string_view word : {"-Infinity", "Infinity", "NaN"}) {
            if (text.substr(i, word.size()) == word) {
                out += "\"\\u0001";
                out += word;
                out += '"';
                i += word.size() - 1;
                replaced = true;
                break;
            }
        }
        if (replaced) continue;
        if (c == '"') inString = true;
        out += c;
    }
    return out;
}

// Where a field is read: the file, and the body when inside bodies[]. Every refusal goes through
// fail() so the message always has the same shape.
class Reader {
public:
    explicit Reader(std::string_view source) : m_source(source) {}

    void enterBody(std::size_t index) { m_body = static_cast<long long>(index); }

    [[noreturn]] void fail(std::string_view field, std::string_view problem) const {
        std::string message(m_source);
        if (m_body >= 0) message += ": body " + std::to_string(m_body);
        message += ": field '";
        message += field;
        message += "': ";
        message += problem;
        throw SceneFileError(message);
    }

    const json* find(const json& object, const char* key) const {
        const auto it = object.find(key);
        return it == object.end() ? nullptr : &*it;
    }

    const json& require(const json& object, const char* key, const std::string& field) const {
        const json* value = find(object, key);
        if (value == nullptr) fail(field, "is required");
        return *value;
    }

    float number(const json& value, const std::string& field) const {
        if (value.is_string()) {
            const auto& text = value.get_ref<const std::string&>();
            if (!text.empty() && text[0] == kNonFiniteMarker) {
                fail(field, "must be finite, got " + text.substr(1));
            }
        }
        if (!value.is_number())
            fail(field, std::string("must be a number, got ") + value.type_name());
        const double wide = value.get<double>();
        const auto narrow = static_cast<float>(wide);
        if (!std::isfinite(wide) || !std::isfinite(narrow)) {
            fail(field, "must be finite (as a float), got " + detail::numberText(wide));
        }
        return narrow;
    }

    float number(const json& object, const char* key, const std::string& prefix,
                 float fallback) const {
        const json* value = find(object, key);
        return value == nullptr ? fallback : number(*value, prefix + key);
    }

    Vec2 vec2(const json& value, const std::string& field) const {
        if (!value.is_array() || value.size() != 2) {
            fail(field, std::string("must be an array of 2 numbers, got ") +
                            (value.is_array() ? "an array of " + std::to_string(value.size())
                                              : std::string(value.type_name())));
        }
        return {number(value[0], field + "[0]"), number(value[1], field + "[1]")};
    }

    Vec2 vec2(const json& object, const char* key, const std::string& prefix, Vec2 fallback) const {
        const json* value = find(object, key);
        return value == nullptr ? fallback : vec2(*value, prefix + key);
    }

    bool boolean(const json& object, const char* key, const std::string& prefix,
                 bool fallback) const {
        const json* value = find(object, key);
        if (value == nullptr) return fallback;
        if (!value->is_boolean()) {
            fail(prefix + key, std::string("must be true or false, got ") + value->type_name());
        }
        return value->get<bool>();
    }

    const std::string& string(const json& value, const std::string& field) const {
        if (!value.is_string())
            fail(field, std::string("must be a string, got ") + value.type_name());
        return value.get_ref<const std::string&>();
    }

    void requirePositive(float value, const std::string& field) const {
        if (!(value > 0.0f)) fail(field, "must be > 0, got " + detail::numberText(value));
    }
    void requireNonNegative(float value, const std::string& field) const {
        if (!(value >= 0.0f)) fail(field, "must be >= 0, got " + detail::numberText(value));
    }

private:
    std::string_view m_source;
    long long m_body = -1;
};

BodyType parseBodyType(const Reader& in, const json& body) {
    const json* value = in.find(body, "type");
    if (value == nullptr) return BodyType::Dynamic;
    const std::string& name = in.string(*value, "type");
    if (name == "static") return BodyType::Static;
    if (name == "kinematic") return BodyType::Kinematic;
    if (name == "dynamic") return BodyType::Dynamic;
    in.fail("type", "must be \"static\", \"kinematic\" or \"dynamic\", got \"" + name + "\"");
}

ShapeDesc parseShape(const Reader& in, const json& shape, const std::string& prefix) {
    if (!shape.is_object()) {
        in.fail(prefix.substr(0, prefix.size() - 1),
                std::string("must be an object, got ") + shape.type_name());
    }
    ShapeDesc out;
    const std::string& kind =
        in.string(in.require(shape, "kind", prefix + "kind"), prefix + "kind");
    if (kind == "circle") {
        out.kind = ShapeType::Circle;
        out.radius = in.number(in.require(shape, "radius", prefix + "radius"), prefix + "radius");
        in.requirePositive(out.radius, prefix + "radius");
    } else if (kind == "box") {
        out.kind = ShapeType::Box;
        const std::string field = prefix + "half_extents";
        out.halfExtents = in.vec2(in.require(shape, "half_extents", field), field);
        in.requirePositive(out.halfExtents.x, field + "[0]");
        in.requirePositive(out.halfExtents.y, field + "[1]");
    } else {
        in.fail(prefix + "kind", "must be \"circle\" or \"box\", got \"" + kind + "\"");
    }
    out.center = in.vec2(shape, "center", prefix, {0.0f, 0.0f});
    out.def.density = in.number(shape, "density", prefix, 1.0f);
    in.requireNonNegative(out.def.density, prefix + "density");
    out.def.friction = in.number(shape, "friction", prefix, 0.6f);
    in.requireNonNegative(out.def.friction, prefix + "friction");
    out.def.restitution = in.number(shape, "restitution", prefix, 0.0f);
    in.requireNonNegative(out.def.restitution, prefix + "restitution");
    out.def.isSensor = in.boolean(shape, "sensor", prefix, false);
    return out;
}

BodyDesc parseBody(const Reader& in, const json& body) {
    if (!body.is_object()) in.fail("", std::string("must be an object, got ") + body.type_name());
    BodyDesc out;
    out.def.type = parseBodyType(in, body);
    out.def.position = in.vec2(in.require(body, "position", "position"), "position");
    out.def.angle = in.number(body, "angle", "", 0.0f);
    out.def.linearVelocity = in.vec2(body, "velocity", "", {0.0f, 0.0f});
    out.def.angularVelocity = in.number(body, "angular_velocity", "", 0.0f);
    out.def.bullet = in.boolean(body, "bullet", "", false);

    const json& shapes = in.require(body, "shapes", "shapes");
    if (!shapes.is_array())
        in.fail("shapes", std::string("must be an array, got ") + shapes.type_name());
    if (shapes.empty()) in.fail("shapes", "must hold at least one shape");
    out.shapes.reserve(shapes.size());
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        out.shapes.push_back(parseShape(in, shapes[i], "shapes[" + std::to_string(i) + "]."));
    }
    return out;
}

std::string stemOf(std::string_view sourceName) {
    return std::filesystem::path(std::string(sourceName)).stem().string();
}

} // namespace

SceneDesc parseScene(std::string_view text, std::string_view sourceName) {
    json document;
    try {
        document = json::parse(quoteNonFiniteWords(text));
    } catch (const json::parse_error& e) {
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
    if (!version.is_number_integer() || version.get<long long>() != 1) {
        in.fail("version", "must be 1 (the only version this reader knows), got " + version.dump());
    }

    SceneDesc scene;
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
        if (!bounds->is_object()) {
            in.fail("bounds", std::string("must be an object, got ") + bounds->type_name());
        }
        scene.hasBounds = true;
        scene.bounds.lower = in.vec2(in.require(*bounds, "lower", "bounds.lower"), "bounds.lower");
        scene.bounds.upper = in.vec2(in.require(*bounds, "upper", "bounds.upper"), "bounds.upper");
        if (!isValid(scene.bounds)) in.fail("bounds", "must have lower <= upper");
    }

    const json& bodies = in.require(document, "bodies", "bodies");
    if (!bodies.is_array())
        in.fail("bodies", std::string("must be an array, got ") + bodies.type_name());
    scene.bodies.reserve(bodies.size());
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        in.enterBody(i);
        scene.bodies.push_back(parseBody(in, bodies[i]));
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
