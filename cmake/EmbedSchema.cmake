# idres_schema: schema.sql compiled into the binary as idres::kSchemaSql, so
# `idres serve` and the tests apply exactly the file in the checkout.
# file(READ) alone does not make CMake re-run when schema.sql changes.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/schema.sql)
file(READ ${PROJECT_SOURCE_DIR}/schema.sql IDRES_SCHEMA_SQL)
configure_file(${PROJECT_SOURCE_DIR}/cmake/schema_sql.cc.in
               ${PROJECT_BINARY_DIR}/generated/schema_sql.cc @ONLY)
add_library(idres_schema STATIC ${PROJECT_BINARY_DIR}/generated/schema_sql.cc)
