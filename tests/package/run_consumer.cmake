# Builds and runs a consumer project of rigid2d, as a user would:
#  - with RIGID2D_BINARY_DIR: installs that build to a temporary prefix, then find_package(rigid2d);
#  - with RIGID2D_SOURCE_DIR: add_subdirectory of the source tree.
# The consumer's main.cpp is the embedding example of README.md (between the embed markers), so
# the README's code is proven to compile and run.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/Rigid2dReadmeBlock.cmake)
rigid2d_readme_block(${README} embed-example example)
file(WRITE ${WORK_DIR}/example/main.cpp "${example}")

set(configure_args -S ${CONSUMER_SOURCE_DIR} -B ${WORK_DIR}/build -DEXAMPLE_MAIN=${WORK_DIR}/example/main.cpp)
if(RIGID2D_BINARY_DIR)
  execute_process(COMMAND ${CMAKE_COMMAND} --install ${RIGID2D_BINARY_DIR} --prefix ${WORK_DIR}/prefix
                  RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "install failed")
  endif()
  list(APPEND configure_args -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
else()
  list(APPEND configure_args -DRIGID2D_SOURCE_DIR=${RIGID2D_SOURCE_DIR})
endif()

foreach(step IN ITEMS configure build run)
  if(step STREQUAL "configure")
    set(cmd ${CMAKE_COMMAND} ${configure_args})
  elseif(step STREQUAL "build")
    set(cmd ${CMAKE_COMMAND} --build ${WORK_DIR}/build -j 2)
  else()
    set(cmd ${WORK_DIR}/build/consumer)
  endif()
  execute_process(COMMAND ${cmd} RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "consumer ${step} failed (${rc})")
  endif()
endforeach()
