#pragma once
// Which instruction set the wide solver runs on: the portable lanes, SSE2 (4 wide), AVX2 (8 wide)
// or AVX-512VL (the same 8 lanes with twice the registers). All give the same bits (lanes.hpp,
// wide_contacts.hpp), so the choice is only about speed: the last of those this build and CPU can
// run, chosen once, unless the environment variable RIGID2D_SIMD (portable, sse2, avx2 or avx512)
// asks for an earlier one, or a test overrides it.

#include <cstdint>
#include <optional>
#include <string_view>

namespace rigid2d::detail {

enum class SimdPath : std::uint8_t { Portable, Sse2, Avx2, Avx512 };

/// The name RIGID2D_SIMD uses for `path`.
[[nodiscard]] std::string_view simdPathName(SimdPath path) noexcept;
/// Whether this build has the path and this CPU can run it.
[[nodiscard]] bool simdPathAvailable(SimdPath path) noexcept;
/// The path the solver takes now: the override if set, else RIGID2D_SIMD (read once; a name it
/// does not know, or a path not available, is logged and ignored), else the last available.
[[nodiscard]] SimdPath solverSimdPath() noexcept;
/// Forces `path` (which must be available) for every step from now on, or with std::nullopt goes
/// back to the choice above. For tests, which run each path on one machine; not while a world
/// steps on another thread.
void overrideSimdPath(std::optional<SimdPath> path);

} // namespace rigid2d::detail
