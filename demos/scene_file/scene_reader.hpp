#pragma once
// The field reader behind parseScene: typed access to a JSON object where every refusal names the
// file, the body or joint, and the field, in one shape of message.

#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "rigid2d/math.hpp"
#include "scene_file.hpp"

namespace rigid2d::scene_file::detail {

using nlohmann::json;

/// The text with every token nlohmann would refuse with only a byte offset turned into a marker
/// string that `Reader::number` refuses with the field's name: the bare NaN and +-Infinity words
/// Python writes, and numbers beyond a double's range (1e400).
[[nodiscard]] std::string markUnreadableNumbers(std::string_view text);

class Reader {
public:
    explicit Reader(std::string_view source) : m_source(source) {}

    /// Subsequent refusals name `what` ("body", "joint") and its index.
    void enter(std::string_view what, std::size_t index) {
        m_where = std::string(what) + " " + std::to_string(index);
    }

    [[noreturn]] void fail(std::string_view field, std::string_view problem) const;

    [[nodiscard]] const json* find(const json& object, const char* key) const {
        const auto it = object.find(key);
        return it == object.end() ? nullptr : &*it;
    }
    const json& require(const json& object, const char* key, const std::string& field) const;
    /// A JSON object, or a refusal naming `field`.
    void requireObject(const json& value, const std::string& field) const;

    [[nodiscard]] float number(const json& value, const std::string& field) const;
    [[nodiscard]] float number(const json& object, const char* key, const std::string& prefix,
                               float fallback) const;
    [[nodiscard]] float requiredNumber(const json& object, const char* key,
                                       const std::string& prefix) const {
        return number(require(object, key, prefix + key), prefix + key);
    }
    /// A whole number in [lowest, highest].
    [[nodiscard]] long long integer(const json& value, const std::string& field, long long lowest,
                                    long long highest) const;
    [[nodiscard]] Vec2 vec2(const json& value, const std::string& field) const;
    [[nodiscard]] Vec2 vec2(const json& object, const char* key, const std::string& prefix,
                            Vec2 fallback) const;
    [[nodiscard]] Vec2 requiredVec2(const json& object, const char* key,
                                    const std::string& prefix) const {
        return vec2(require(object, key, prefix + key), prefix + key);
    }
    [[nodiscard]] bool boolean(const json& object, const char* key, const std::string& prefix,
                               bool fallback) const;
    [[nodiscard]] const std::string& string(const json& value, const std::string& field) const;

    void requirePositive(float value, const std::string& field) const;
    void requireNonNegative(float value, const std::string& field) const;
    void requireAtMost(float value, float highest, const std::string& field) const;

private:
    std::string_view m_source;
    std::string m_where; ///< "body 3", "joint 0" or empty (the document itself)
};

/// One entry of the top-level `joints` array (joint_parse.cpp); `bodies` are the scene's bodies,
/// already read, for the index and body-type checks.
[[nodiscard]] JointDesc parseJoint(const Reader& in, const json& joint,
                                   std::span<const BodyDesc> bodies);

} // namespace rigid2d::scene_file::detail
