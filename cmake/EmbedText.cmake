# idres_embed_text(TARGET <lib> FILE <path> HEADER <header> SYMBOL <name>):
# a static library <lib> defining `const std::string_view idres::<name>`,
# declared in <header>, that holds the text of <path> as it was at build
# time. One way to ship a data file inside the binary (schema.sql, tables).
function(idres_embed_text)
  cmake_parse_arguments(E "" "TARGET;FILE;HEADER;SYMBOL" "" ${ARGN})
  # file(READ) alone does not make CMake re-run when the file changes.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${E_FILE})
  file(READ ${E_FILE} IDRES_EMBED_TEXT)
  string(FIND "${IDRES_EMBED_TEXT}" ")idres_text\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${E_FILE} holds the raw-string delimiter )idres_text\"")
  endif()
  file(RELATIVE_PATH IDRES_EMBED_FILE ${PROJECT_SOURCE_DIR} ${E_FILE})
  set(IDRES_EMBED_HEADER ${E_HEADER})
  set(IDRES_EMBED_SYMBOL ${E_SYMBOL})
  set(generated ${PROJECT_BINARY_DIR}/generated/${E_TARGET}.cc)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/embedded_text.cc.in ${generated} @ONLY)
  add_library(${E_TARGET} STATIC ${generated})
endfunction()
