#include "core/assert.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace rigid2d {
namespace {

void defaultHandler(const char* condition, const char* message, const char* file, int line) {
    std::fprintf(stderr, "rigid2d: assertion failed: %s (%s) at %s:%d\n", message, condition, file,
                 line);
    std::abort();
}

std::atomic<AssertHandler> g_handler{&defaultHandler};

} // namespace

AssertHandler setAssertHandler(AssertHandler handler) noexcept {
    return g_handler.exchange(handler != nullptr ? handler : &defaultHandler);
}

namespace detail {
void assertFailed(const char* condition, const char* message, const char* file, int line) {
    g_handler.load()(condition, message, file, line);
}
} // namespace detail

} // namespace rigid2d
