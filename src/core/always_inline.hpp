#pragma once
// RIGID2D_ALWAYS_INLINE: for small helpers of hot loops that the compiler's inlining budget would
// leave out of line (the wide solver's lane helpers, the broad phase's cell kernels), where a call
// passes vector registers through memory or keeps constants from folding.

#if defined(__GNUC__) || defined(__clang__)
#define RIGID2D_ALWAYS_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define RIGID2D_ALWAYS_INLINE __forceinline
#else
#define RIGID2D_ALWAYS_INLINE inline
#endif
