# idres_schema: the store's migration steps, schema/NNNN_<name>.sql, compiled
# into the binary as idres::SchemaSteps() (engine/schema_steps.h), so
# `idres serve`, the other commands and the tests apply exactly the steps in
# the checkout. Versions come from the file names: 1, 2, ... without a gap.
include(EmbedText)
file(GLOB IDRES_SCHEMA_FILES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/schema/*.sql)
list(SORT IDRES_SCHEMA_FILES)
set(IDRES_SCHEMA_STEPS "")
set(expected 1)
foreach(file ${IDRES_SCHEMA_FILES})
  get_filename_component(name ${file} NAME_WE)
  if(NOT name MATCHES "^([0-9][0-9][0-9][0-9])_[a-z0-9_]+$")
    message(FATAL_ERROR "${file}: a step is named NNNN_<lowercase name>.sql")
  endif()
  math(EXPR version "${CMAKE_MATCH_1}")
  if(NOT version EQUAL expected)
    message(FATAL_ERROR "${file}: step ${version} where step ${expected} was expected")
  endif()
  math(EXPR expected "${expected} + 1")
  idres_read_embeddable(${file} sql)
  string(APPEND IDRES_SCHEMA_STEPS
         "    {${version}, \"${name}\", R\"idres_text(${sql})idres_text\"},\n")
endforeach()
if(expected EQUAL 1)
  message(FATAL_ERROR "no migration steps in ${PROJECT_SOURCE_DIR}/schema/")
endif()
set(generated ${PROJECT_BINARY_DIR}/generated/idres_schema.cc)
configure_file(${PROJECT_SOURCE_DIR}/cmake/schema_steps.cc.in ${generated} @ONLY)
add_library(idres_schema STATIC ${generated})
