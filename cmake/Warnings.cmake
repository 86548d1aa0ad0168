# Warnings on and clean for all of idres' own targets.
add_compile_options(-Wall -Wextra -Wpedantic)
# GCC 12 reports a false -Wrestrict inside libstdc++ for `"literal" + std::string`
# at -O2 (GCC bug 105651); silence that one so real warnings stand out.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  add_compile_options(-Wno-restrict)
endif()
# -DIDRES_THREAD_SAFETY=ON (clang only): the locking rules written into the
# code (GUARDED_BY, REQUIRES in base/mutex.h) are checked, and a break fails.
if(IDRES_THREAD_SAFETY)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "IDRES_THREAD_SAFETY needs clang: CXX=clang++ CC=clang cmake ...")
  endif()
  add_compile_options(-Wthread-safety -Werror=thread-safety)
endif()
