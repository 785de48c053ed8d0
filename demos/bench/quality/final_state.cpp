// Reading final-state files (FORMAT.md): what rigid2d-bench and the peer programs write with
// --final-state, scored by `rigid2d-bench quality`.

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "quality.hpp"
#include "scene_reader.hpp"

namespace rigid2d::bench {

namespace {

using nlohmann::json;

double numberOf(const json& value, const std::string& where) {
    if (value.is_number()) return value.get<double>();
    // The scene reader's marking turns NaN, Infinity and overflowing numbers into marked
    // strings; here they read back as the numbers they stand for (strtod knows all three).
    if (value.is_string()) {
        const auto& word = value.get_ref<const std::string&>();
        if (!word.empty() && word[0] == '\x01') return std::strtod(word.c_str() + 1, nullptr);
    }
    throw scene_file::SceneFileError(where + ": must be a number, got " + value.dump());
}

void readPair(const json& body, const char* key, double& x, double& y, const std::string& where,
              bool required) {
    const auto it = body.find(key);
    if (it == body.end()) {
        if (required) throw scene_file::SceneFileError(where + ": field '" + key + "' is required");
        return;
    }
    if (!it->is_array() || it->size() != 2)
        throw scene_file::SceneFileError(where + ": field '" + key +
                                         "' must be an array of 2 numbers");
    x = numberOf((*it)[0], where + ": field '" + key + "[0]'");
    y = numberOf((*it)[1], where + ": field '" + key + "[1]'");
}

} // namespace

std::vector<FinalBody> parseFinalState(const std::string& text, const std::string& source) {
    json document;
    try {
        document = json::parse(scene_file::detail::markUnreadableNumbers(text));
    } catch (const json::exception& e) {
        throw scene_file::SceneFileError(source + ": not valid JSON: " + e.what());
    }
    if (!document.is_object() || !document.contains("bodies") || !document["bodies"].is_array())
        throw scene_file::SceneFileError(source + ": field 'bodies' must be an array");
    std::vector<FinalBody> out;
    const json& bodies = document["bodies"];
    out.reserve(bodies.size());
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const std::string where = source + ": body " + std::to_string(i);
        if (!bodies[i].is_object()) throw scene_file::SceneFileError(where + ": must be an object");
        FinalBody body;
        readPair(bodies[i], "position", body.x, body.y, where, true);
        readPair(bodies[i], "velocity", body.vx, body.vy, where, false);
        if (const auto angle = bodies[i].find("angle"); angle != bodies[i].end())
            body.angle = numberOf(*angle, where + ": field 'angle'");
        out.push_back(body);
    }
    return out;
}

std::vector<FinalBody> readFinalState(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) throw scene_file::SceneFileError(path.string() + ": cannot open the file");
    std::ostringstream text;
    text << file.rdbuf();
    return parseFinalState(text.str(), path.string());
}

} // namespace rigid2d::bench
