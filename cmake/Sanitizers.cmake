# -DIDRES_SANITIZE=ON: AddressSanitizer + UndefinedBehaviorSanitizer for every target.
if(IDRES_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

# -DIDRES_FUZZ=ON (clang only): the libFuzzer targets beside the tests
# (cmake/Fuzz.cmake). Every library is built with libFuzzer's coverage and
# AddressSanitizer, so that a target explores the code it calls.
if(IDRES_FUZZ AND NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "IDRES_FUZZ needs clang: CXX=clang++ CC=clang cmake ...")
endif()
if(IDRES_FUZZ)
  add_compile_options(-fsanitize=fuzzer-no-link,address -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address)
endif()
