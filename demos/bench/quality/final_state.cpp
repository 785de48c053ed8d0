// Reading final-state files (FORMAT.md): what rigid2d-bench and the peer programs write with
// --final-state, scored by `rigid2d-bench quality`.

#include <cmath>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "quality.hpp"

namespace rigid2d::bench {

namespace {

using nlohmann::json;

// Python and the peers write non-finite numbers as the bare words NaN, Infinity, -Infinity, which
// JSON has not: they become strings here and read back as the numbers they stand for.
std::string quoteNonFinite(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            out += c;
            if (c == '\\' && i + 1 < text.size())
                out += text[++i];
            else if (c == '"')
                inString = false;
            continue;
        }
        bool replaced = false;
        for (const std::string word : {"-Infinity", "Infinity", "NaN"}) {
            if (text.compare(i, word.size(), word) == 0) {
                out += "\"" + word + "\"";
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

double numberOf(const json& value, const std::string& where) {
    if (value.is_number()) return value.get<double>();
    if (value.is_string()) {
        const auto& word = value.get_ref<const std::string&>();
        if (word == "NaN") return std::nan("");
        if (word == "Infinity") return INFINITY;
        if (word == "-Infinity") return -INFINITY;
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
        document = json::parse(quoteNonFinite(text));
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
