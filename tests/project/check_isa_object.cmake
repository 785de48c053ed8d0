# Fails when a translation unit of the wide solver compiled for an instruction set beyond the
# baseline (src/solver/wide_kernels_avx2.cpp with -mavx2, wide_kernels_avx512.cpp with AVX-512VL)
# defines a function the baseline code could share. An inline function or template instantiation
# that both it and a baseline translation unit emit is kept once by the linker, and if its copy is
# kept, a CPU without that instruction set runs its code. So every symbol it defines must be of its
# own lane type (Float8Lanes of its tag) or its own table of kernels. It fails too when the object
# holds a fused multiply-add, which would round once where the other paths round twice (AVX-512
# brings FMA with it; -ffp-contract=off keeps the compiler from using it).
#   cmake -DNM=... -DOBJDUMP=... -DSOURCE=wide_kernels_avx2 -DOWN="Avx2Lanes|avx2Kernels"
#         -DOBJECTS="<the library's object files>" -P check_isa_object.cmake
include(${CMAKE_CURRENT_LIST_DIR}/check_helpers.cmake)
set(object "")
foreach(path IN LISTS OBJECTS)
  if(path MATCHES "${SOURCE}\\.cpp\\.o(bj)?$")
    set(object "${path}")
  endif()
endforeach()
if(object STREQUAL "")
  message(FATAL_ERROR "no object of ${SOURCE}.cpp among: ${OBJECTS}")
endif()
rigid2d_output_lines(lines COMMAND "${NM}" -C --defined-only "${object}")
set(offenders "")
set(own 0)
foreach(line IN LISTS lines)
  # "<address> <type> <name>": data, local functions (t) and the compiler's labels (.LC0) are not
  # code another translation unit could take in place of its own.
  if(NOT line MATCHES "^[0-9a-f]+ ([A-Za-z]) (.*)$")
    continue()
  endif()
  set(type "${CMAKE_MATCH_1}")
  set(name "${CMAKE_MATCH_2}")
  if(name MATCHES "${OWN}")
    math(EXPR own "${own} + 1")
  elseif(NOT type MATCHES "^[rdbtV]$" AND NOT name MATCHES "^\\.")
    list(APPEND offenders "${type} ${name}")
  endif()
endforeach()
if(own EQUAL 0)
  message(FATAL_ERROR "${object} defines none of its own kernels (${OWN})")
endif()
if(OBJDUMP)
  rigid2d_output_lines(code COMMAND "${OBJDUMP}" -d "${object}")
  foreach(line IN LISTS code)
    if(line MATCHES "vf(n)?m(add|sub)")
      list(APPEND offenders "fused multiply-add: ${line}")
    endif()
  endforeach()
endif()
rigid2d_report_offenders(offenders "${SOURCE} defines functions the baseline code may share"
                         "${SOURCE} defines ${own} symbols, all of its own lane type")
