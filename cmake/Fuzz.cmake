# idres_add_fuzz_target(NAME <name> SOURCES <files...> LIBS <targets...> SEEDS <folder>)
#
# A fuzz target: a function LLVMFuzzerTestOneInput(data, size) that aborts
# when its parser breaks a property. With -DIDRES_FUZZ=ON (clang) it is a
# libFuzzer executable, as scripts/fuzz.sh builds and runs it. Otherwise, in
# a build with tests, it is linked with tests/fuzz/replay_main.cc and ctest
# runs it once over its seed corpus (fuzz_replay_<name>): the suite proves
# that every target builds and that its seeds keep its properties, with the
# suite's own compiler and sanitizers; finding new inputs is fuzz.sh's job.
function(idres_add_fuzz_target)
  cmake_parse_arguments(F "" "NAME;SEEDS" "SOURCES;LIBS" ${ARGN})
  if(IDRES_FUZZ)
    add_executable(${F_NAME} ${F_SOURCES})
    target_link_options(${F_NAME} PRIVATE -fsanitize=fuzzer)
  else()
    if(NOT TARGET idres_fuzz_replay)
      add_library(idres_fuzz_replay STATIC ${PROJECT_SOURCE_DIR}/tests/fuzz/replay_main.cc)
    endif()
    add_executable(${F_NAME} ${F_SOURCES})
    target_link_libraries(${F_NAME} PRIVATE idres_fuzz_replay)
    add_test(NAME fuzz_replay_${F_NAME} COMMAND ${F_NAME} ${F_SEEDS})
  endif()
  target_link_libraries(${F_NAME} PRIVATE ${F_LIBS})
  # For scripts/fuzz.sh: each target, its executable and its seeds
  # (written to <build>/fuzz_targets.txt by tests/CMakeLists.txt).
  set_property(GLOBAL APPEND PROPERTY IDRES_FUZZ_TARGETS
               "${F_NAME}|$<TARGET_FILE:${F_NAME}>|${F_SEEDS}")
endfunction()
