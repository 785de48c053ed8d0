# Fails when the AVX2 translation unit of the wide solver (src/solver/wide_kernels_avx2.cpp,
# compiled with -mavx2) defines a function the baseline code could share. An inline function or
# template instantiation that both it and a baseline translation unit emit is kept once by the
# linker, and if the AVX2 copy is kept, a CPU without AVX2 runs AVX2 code. So every symbol it
# defines must be of its own lane type (Float8) or its own table (avx2Kernels).
#   cmake -DNM=... -DOBJECTS="<the library's object files>" -P check_avx2_object.cmake
include(${CMAKE_CURRENT_LIST_DIR}/check_helpers.cmake)
set(object "")
foreach(path IN LISTS OBJECTS)
  if(path MATCHES "wide_kernels_avx2\\.cpp\\.o(bj)?$")
    set(object "${path}")
  endif()
endforeach()
if(object STREQUAL "")
  message(FATAL_ERROR "no object of wide_kernels_avx2.cpp among: ${OBJECTS}")
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
  if(name MATCHES "Float8|avx2Kernels")
    math(EXPR own "${own} + 1")
  elseif(NOT type MATCHES "^[rdbtV]$" AND NOT name MATCHES "^\\.")
    list(APPEND offenders "${type} ${name}")
  endif()
endforeach()
if(own EQUAL 0)
  message(FATAL_ERROR "${object} defines none of the Float8 kernels")
endif()
rigid2d_report_offenders(offenders "the AVX2 object defines functions the baseline code may share"
                         "the AVX2 object defines ${own} symbols, all of its own lane type")
