#include "solver/simd_path.hpp"

#include <atomic>
#include <cstdlib>
#include <string>

#include "core/assert.hpp"
#include "core/cpu_features.hpp"
#include "core/log.hpp"
#include "solver/float4.hpp"

namespace rigid2d::detail {

namespace {

// In order of preference, the last the best.
constexpr SimdPath kPaths[] = {SimdPath::Portable, SimdPath::Sse2, SimdPath::Avx2,
                               SimdPath::Avx512};

[[nodiscard]] SimdPath widestAvailable() noexcept {
    SimdPath best = SimdPath::Portable;
    for (const SimdPath path : kPaths)
        if (simdPathAvailable(path)) best = path;
    return best;
}

// A warning that cannot be delivered is dropped: the first step makes the choice, and a step
// never throws.
void warn(const char* value, const char* why) noexcept {
    try {
        log(LogLevel::Warn, std::string("RIGID2D_SIMD=") + value + ": " + why + ", ignored");
    } catch (...) {
    }
}

[[nodiscard]] SimdPath fromEnvironment() noexcept {
    const char* value = std::getenv("RIGID2D_SIMD");
    if (value == nullptr || *value == '\0') return widestAvailable();
    for (const SimdPath path : kPaths) {
        if (simdPathName(path) != value) continue;
        if (simdPathAvailable(path)) return path;
        warn(value, "not available in this build or on this CPU");
        return widestAvailable();
    }
    warn(value, "not one of portable, sse2, avx2, avx512");
    return widestAvailable();
}

// Path + 1, or 0 for no override.
std::atomic<int> g_override{0};

} // namespace

std::string_view simdPathName(SimdPath path) noexcept {
    switch (path) {
    case SimdPath::Portable: return "portable";
    case SimdPath::Sse2: return "sse2";
    case SimdPath::Avx2: return "avx2";
    case SimdPath::Avx512: return "avx512";
    }
    return "?";
}

bool simdPathAvailable(SimdPath path) noexcept {
    switch (path) {
    case SimdPath::Portable: return true;
    case SimdPath::Sse2:
#if RIGID2D_SSE2
        return true;
#else
        return false;
#endif
    case SimdPath::Avx2:
#if RIGID2D_AVX2_KERNELS
        return cpuHasAvx2();
#else
        return false;
#endif
    case SimdPath::Avx512:
#if RIGID2D_AVX512_KERNELS
        return cpuHasAvx512();
#else
        return false;
#endif
    }
    return false;
}

SimdPath solverSimdPath() noexcept {
    const int forced = g_override.load(std::memory_order_relaxed);
    if (forced != 0) return static_cast<SimdPath>(forced - 1);
    static const SimdPath chosen = fromEnvironment();
    return chosen;
}

void overrideSimdPath(std::optional<SimdPath> path) {
    R2D_CHECK(!path || simdPathAvailable(*path),
              "overrideSimdPath: a path this build or CPU lacks");
    g_override.store(path ? static_cast<int>(*path) + 1 : 0, std::memory_order_relaxed);
}

} // namespace rigid2d::detail
