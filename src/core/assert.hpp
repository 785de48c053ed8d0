#pragma once
// Internal invariant checks. Arguments from users are checked with `check.hpp` and throw;
// these catch rigid2d's own bugs and go to the replaceable handler of rigid2d/assert.hpp.

#include "rigid2d/assert.hpp"

namespace rigid2d::detail {
void assertFailed(const char* condition, const char* message, const char* file, int line);
} // namespace rigid2d::detail

#if !defined(NDEBUG) || defined(RIGID2D_VALIDATE)
#define R2D_ASSERTS_ON 1
#else
#define R2D_ASSERTS_ON 0
#endif

#if R2D_ASSERTS_ON
#define R2D_ASSERT(condition, message)                                                             \
    do {                                                                                           \
        if (!(condition)) [[unlikely]]                                                             \
            ::rigid2d::detail::assertFailed(#condition, message, __FILE__, __LINE__);              \
    } while (false)
#else
#define R2D_ASSERT(condition, message) ((void)0)
#endif

// Always on, for validate() functions the tests call explicitly.
#define R2D_CHECK(condition, message)                                                              \
    do {                                                                                           \
        if (!(condition)) [[unlikely]]                                                             \
            ::rigid2d::detail::assertFailed(#condition, message, __FILE__, __LINE__);              \
    } while (false)
