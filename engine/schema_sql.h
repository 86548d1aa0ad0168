// The text of schema.sql, embedded at build time (cmake/EmbedSchema.cmake).
#pragma once

#include <string_view>

namespace idres {
extern const std::string_view kSchemaSql;
}  // namespace idres
