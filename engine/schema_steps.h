// The store's migration steps, schema/NNNN_<name>.sql, embedded at build time
// (cmake/EmbedSchema.cmake). MigrateStore (engine/engine.h) applies the ones
// a store lacks, in order; docs/operations.md, "The store and its migrations".
#pragma once

#include <span>
#include <string_view>

namespace idres {

struct SchemaStep {
  int version;            // 1, 2, ...: the file name's number
  std::string_view name;  // the file name without ".sql", e.g. "0001_initial"
  std::string_view sql;   // several statements, no parameters
};

// Every step, ascending by version, without a gap.
std::span<const SchemaStep> SchemaSteps();

}  // namespace idres
