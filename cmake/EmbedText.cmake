# idres_embed_text(TARGET <lib> FILE <path> HEADER <header> SYMBOL <name>):
# a static library <lib> defining `const std::string_view idres::<name>`,
# declared in <header>, that holds the text of <path> as it was at build
# time. One way to ship a data file inside the binary (tables; the schema's
# steps have cmake/EmbedSchema.cmake).

# idres_read_embeddable(<path> <var>): the text of <path> into <var>, ready
# to go between R"idres_text( and )idres_text"; CMake re-runs when the file
# changes.
function(idres_read_embeddable path var)
  # file(READ) alone does not make CMake re-run when the file changes.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${path})
  file(READ ${path} text)
  string(FIND "${text}" ")idres_text\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${path} holds the raw-string delimiter )idres_text\"")
  endif()
  set(${var} "${text}" PARENT_SCOPE)
endfunction()

function(idres_embed_text)
  cmake_parse_arguments(E "" "TARGET;FILE;HEADER;SYMBOL" "" ${ARGN})
  idres_read_embeddable(${E_FILE} IDRES_EMBED_TEXT)
  file(RELATIVE_PATH IDRES_EMBED_FILE ${PROJECT_SOURCE_DIR} ${E_FILE})
  set(IDRES_EMBED_HEADER ${E_HEADER})
  set(IDRES_EMBED_SYMBOL ${E_SYMBOL})
  set(generated ${PROJECT_BINARY_DIR}/generated/${E_TARGET}.cc)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/embedded_text.cc.in ${generated} @ONLY)
  add_library(${E_TARGET} STATIC ${generated})
endfunction()
