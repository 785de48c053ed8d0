#include "core/log.hpp"

#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace rigid2d {
namespace {

spdlog::level::level_enum toSpdlog(LogLevel level) {
    switch (level) {
    case LogLevel::Trace: return spdlog::level::trace;
    case LogLevel::Debug: return spdlog::level::debug;
    case LogLevel::Info: return spdlog::level::info;
    case LogLevel::Warn: return spdlog::level::warn;
    case LogLevel::Error: return spdlog::level::err;
    case LogLevel::Off: return spdlog::level::off;
    }
    return spdlog::level::warn;
}

LogLevel fromSpdlog(spdlog::level::level_enum level) {
    switch (level) {
    case spdlog::level::trace: return LogLevel::Trace;
    case spdlog::level::debug: return LogLevel::Debug;
    case spdlog::level::info: return LogLevel::Info;
    case spdlog::level::warn: return LogLevel::Warn;
    case spdlog::level::err:
    case spdlog::level::critical: return LogLevel::Error;
    default: return LogLevel::Off;
    }
}

// Forwards spdlog messages to a user's LogSink, so users need not know spdlog.
class UserSink final : public spdlog::sinks::base_sink<std::mutex> {
public:
    explicit UserSink(LogSink userSink) : m_sink(std::move(userSink)) {}

protected:
    void sink_it_(const spdlog::details::log_msg& msg) override {
        m_sink(fromSpdlog(msg.level), std::string_view(msg.payload.data(), msg.payload.size()));
    }
    void flush_() override {}

private:
    LogSink m_sink;
};

struct LoggerHolder {
    std::mutex mutex;
    std::shared_ptr<spdlog::logger> logger;
    LogLevel level = LogLevel::Warn;
};

LoggerHolder& holder() {
    static LoggerHolder h;
    return h;
}

std::shared_ptr<spdlog::logger> makeDefaultLogger() {
    // Not registered globally: rigid2d must not collide with a game's own "rigid2d" logger.
    auto sink = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
    return std::make_shared<spdlog::logger>("rigid2d", std::move(sink));
}

} // namespace

void setLogSink(LogSink sink) {
    auto& h = holder();
    std::lock_guard lock(h.mutex);
    if (sink) {
        h.logger = std::make_shared<spdlog::logger>("rigid2d", std::make_shared<UserSink>(std::move(sink)));
    } else {
        h.logger = makeDefaultLogger();
    }
    h.logger->set_level(toSpdlog(h.level));
}

void setLogLevel(LogLevel level) {
    auto& h = holder();
    std::lock_guard lock(h.mutex);
    h.level = level;
    if (h.logger) h.logger->set_level(toSpdlog(level));
}

namespace detail {
void log(LogLevel level, std::string_view message) {
    auto& h = holder();
    std::lock_guard lock(h.mutex);
    if (level < h.level) return;
    if (!h.logger) {
        h.logger = makeDefaultLogger();
        h.logger->set_level(toSpdlog(h.level));
    }
    h.logger->log(toSpdlog(level), "{}", message);
}
} // namespace detail

} // namespace rigid2d
