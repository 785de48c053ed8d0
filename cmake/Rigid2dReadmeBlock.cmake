# rigid2d_readme_block(<readme> <marker> <out-var>): the code of the fenced cpp block that
# README.md wraps in <!-- marker --> ... <!-- /marker -->, so tests compile the README's examples
# exactly as printed. Usable from a project and from cmake -P scripts.
function(rigid2d_readme_block readme marker out_var)
  file(READ "${readme}" text)
  string(REGEX MATCH "<!-- ${marker} -->[^`]*```cpp\n(.*)```[^`]*<!-- /${marker} -->" _ "${text}")
  if(NOT CMAKE_MATCH_1)
    message(FATAL_ERROR "${readme} has no '${marker}' cpp block")
  endif()
  set(${out_var} "${CMAKE_MATCH_1}" PARENT_SCOPE)
endfunction()
