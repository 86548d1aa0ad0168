# idres_schema: schema.sql compiled into the binary as idres::kSchemaSql, so
# `idres serve` and the tests apply exactly the file in the checkout.
include(EmbedText)
idres_embed_text(TARGET idres_schema FILE ${PROJECT_SOURCE_DIR}/schema.sql
                 HEADER engine/schema_sql.h SYMBOL kSchemaSql)
