# Warnings for rigid2d's own targets only; consumers compiling our headers are not affected.
function(rigid2d_target_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE
      -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual
      -Wcast-align -Wnull-dereference -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough)
    if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
      # clang's -Wdouble-promotion flags every float -> double conversion, even double{x} and
      # `const double d = f;`, which the library writes on purpose to check sums for overflow in
      # double. gcc's version (the ci and asan builds) warns only about promotions in arithmetic,
      # the accidental kind the flag is here for, and keeps guarding it.
      target_compile_options(${target} PRIVATE -Wno-double-promotion)
    endif()
    if(RIGID2D_WERROR)
      target_compile_options(${target} PRIVATE -Werror)
    endif()
  elseif(MSVC)
    target_compile_options(${target} PRIVATE /W4 $<$<BOOL:${RIGID2D_WERROR}>:/WX>)
  endif()
endfunction()
