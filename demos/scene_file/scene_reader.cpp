#include "scene_reader.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "json_numbers.hpp"
#include "scene_file.hpp"

namespace rigid2d::scene_file::detail {

namespace {

// Marks a token for Reader::number: outside strings valid JSON never holds a \u0001 string, so
// the marker cannot be confused with data.
constexpr char kMarker = '\x01';

bool startsNumber(char c) { return c == '-' || (c >= '0' && c <= '9'); }
bool inNumber(char c) {
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

// True for a number token whose value a double cannot hold (nlohmann refuses it as an overflow).
bool overflows(std::string_view token) {
    if (token.find_first_of("eE") == std::string_view::npos && token.size() < 300) return false;
    const std::string text(token);
    errno = 0;
    const double value = std::strtod(text.c_str(), nullptr);
    return errno == ERANGE && std::isinf(value);
}

void appendMarked(std::string& out, std::string_view token) {
    out += "\"\\u0001";
    out += token;
    out += '"';
}

} // namespace

std::string markUnreadableNumbers(std::string_view text) {
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
                appendMarked(out, word);
                i += word.size() - 1;
                replaced = true;
                break;
            }
        }
        if (replaced) continue;
        if (startsNumber(c)) {
            std::size_t end = i;
            while (end < text.size() && inNumber(text[end])) ++end;
            const std::string_view token = text.substr(i, end - i);
            if (overflows(token)) {
                appendMarked(out, token);
            } else {
                out += token;
            }
            i = end - 1;
            continue;
        }
        if (c == '"') inString = true;
        out += c;
    }
    return out;
}

void Reader::fail(std::string_view field, std::string_view problem) const {
    std::string message(m_source);
    if (!m_where.empty()) message += ": " + m_where;
    message += ": field '";
    message += field;
    message += "': ";
    message += problem;
    throw SceneFileError(message);
}

const json& Reader::require(const json& object, const char* key, const std::string& field) const {
    const json* value = find(object, key);
    if (value == nullptr) fail(field, "is required");
    return *value;
}

void Reader::requireObject(const json& value, const std::string& field) const {
    if (!value.is_object()) fail(field, std::string("must be an object, got ") + value.type_name());
}

float Reader::number(const json& value, const std::string& field) const {
    if (value.is_string()) {
        const auto& text = value.get_ref<const std::string&>();
        if (!text.empty() && text[0] == kMarker)
            fail(field, "must be finite, got " + text.substr(1));
    }
    if (!value.is_number()) fail(field, std::string("must be a number, got ") + value.type_name());
    const double wide = value.get<double>();
    const auto narrow = static_cast<float>(wide);
    if (!std::isfinite(wide) || !std::isfinite(narrow)) {
        fail(field, "must be finite (as a float), got " + numberText(wide));
    }
    return narrow;
}

float Reader::number(const json& object, const char* key, const std::string& prefix,
                     float fallback) const {
    const json* value = find(object, key);
    return value == nullptr ? fallback : number(*value, prefix + key);
}

long long Reader::integer(const json& value, const std::string& field, long long lowest,
                          long long highest) const {
    const bool whole = value.is_number_integer();
    const long long n = !whole ? 0
                        : value.is_number_unsigned()
                            ? static_cast<long long>(std::min<unsigned long long>(
                                  value.get<unsigned long long>(), 1ull << 62))
                            : value.get<long long>();
    if (!whole || n < lowest || n > highest) {
        fail(field, "must be a whole number in [" + std::to_string(lowest) + ", " +
                        std::to_string(highest) + "], got " + value.dump());
    }
    return n;
}

Vec2 Reader::vec2(const json& value, const std::string& field) const {
    if (!value.is_array() || value.size() != 2) {
        fail(field, std::string("must be an array of 2 numbers, got ") +
                        (value.is_array() ? "an array of " + std::to_string(value.size())
                                          : std::string(value.type_name())));
    }
    return {number(value[0], field + "[0]"), number(value[1], field + "[1]")};
}

Vec2 Reader::vec2(const json& object, const char* key, const std::string& prefix,
                  Vec2 fallback) const {
    const json* value = find(object, key);
    return value == nullptr ? fallback : vec2(*value, prefix + key);
}

bool Reader::boolean(const json& object, const char* key, const std::string& prefix,
                     bool fallback) const {
    const json* value = find(object, key);
    if (value == nullptr) return fallback;
    if (!value->is_boolean()) {
        fail(prefix + key, std::string("must be true or false, got ") + value->type_name());
    }
    return value->get<bool>();
}

const std::string& Reader::string(const json& value, const std::string& field) const {
    if (!value.is_string()) fail(field, std::string("must be a string, got ") + value.type_name());
    return value.get_ref<const std::string&>();
}

void Reader::requirePositive(float value, const std::string& field) const {
    if (!(value > 0.0f)) fail(field, "must be > 0, got " + numberText(value));
}
void Reader::requireNonNegative(float value, const std::string& field) const {
    if (!(value >= 0.0f)) fail(field, "must be >= 0, got " + numberText(value));
}
void Reader::requireAtMost(float value, float highest, const std::string& field) const {
    if (!(value <= highest)) {
        fail(field, "must be <= " + numberText(highest) + ", got " + numberText(value));
    }
}

} // namespace rigid2d::scene_file::detail
