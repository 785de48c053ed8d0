# `format` rewrites the sources with clang-format; `format-check` fails when any file would change.
find_program(CLANG_FORMAT_EXECUTABLE NAMES clang-format clang-format-14)
if(CLANG_FORMAT_EXECUTABLE AND RIGID2D_TOP_LEVEL)
  file(GLOB_RECURSE RIGID2D_FORMAT_FILES CONFIGURE_DEPENDS
    ${PROJECT_SOURCE_DIR}/include/*.hpp ${PROJECT_SOURCE_DIR}/src/*.hpp ${PROJECT_SOURCE_DIR}/src/*.cpp
    ${PROJECT_SOURCE_DIR}/tests/*.hpp ${PROJECT_SOURCE_DIR}/tests/*.cpp
    ${PROJECT_SOURCE_DIR}/demos/*.hpp ${PROJECT_SOURCE_DIR}/demos/*.cpp)
  add_custom_target(format COMMAND ${CLANG_FORMAT_EXECUTABLE} -i ${RIGID2D_FORMAT_FILES}
    COMMENT "clang-format -i" VERBATIM)
  add_custom_target(format-check
    COMMAND ${CLANG_FORMAT_EXECUTABLE} --dry-run --Werror ${RIGID2D_FORMAT_FILES}
    COMMENT "clang-format --dry-run --Werror" VERBATIM)
endif()
