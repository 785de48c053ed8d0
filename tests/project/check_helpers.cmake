# What the project checks (check_*.cmake, each run as cmake -P) share.
#   include(${CMAKE_CURRENT_LIST_DIR}/check_helpers.cmake)

# Sets <lines> to the output of the command after COMMAND (run in WORKING_DIRECTORY if given), a
# list item a line. A command that fails stops the check: its empty output would pass it.
function(rigid2d_output_lines lines)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "WORKING_DIRECTORY" "COMMAND")
  set(where "")
  if(arg_WORKING_DIRECTORY)
    set(where WORKING_DIRECTORY "${arg_WORKING_DIRECTORY}")
  endif()
  execute_process(COMMAND ${arg_COMMAND} ${where} OUTPUT_VARIABLE output RESULT_VARIABLE code)
  if(NOT code EQUAL 0)
    list(JOIN arg_COMMAND " " shown)
    message(FATAL_ERROR "'${shown}' failed (${code})")
  endif()
  string(REPLACE "\n" ";" output "${output}")
  set(${lines} "${output}" PARENT_SCOPE)
endfunction()

# Fails with <heading> and then the items of the list variable named <list_var>, one a line, when
# there are any; otherwise reports <passed>.
function(rigid2d_report_offenders list_var heading passed)
  if(${list_var})
    list(JOIN ${list_var} "\n  " text)
    message(FATAL_ERROR "${heading}:\n  ${text}")
  endif()
  message(STATUS "${passed}")
endfunction()
