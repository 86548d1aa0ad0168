# Warnings on and clean for all of idres' own targets.
add_compile_options(-Wall -Wextra -Wpedantic)
# GCC 12 reports a false -Wrestrict inside libstdc++ for `"literal" + std::string`
# at -O2 (GCC bug 105651); silence that one so real warnings stand out.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  add_compile_options(-Wno-restrict)
endif()
