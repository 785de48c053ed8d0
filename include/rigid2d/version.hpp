#pragma once

namespace rigid2d {
inline constexpr int kVersionMajor = 0;
inline constexpr int kVersionMinor = 1;
inline constexpr int kVersionPatch = 0;
} // namespace rigid2d
