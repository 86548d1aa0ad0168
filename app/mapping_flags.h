// The options that say how input files become records — --format, --map,
// --trait, --mapping, --record-id — shared by `idres import` and `idres
// train`, so that training reads a file exactly as importing it would.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "batch/csv_mapping.h"
#include "batch/input_reader.h"
#include "matcher/model.h"

namespace CLI {
class App;
}

namespace idres::app {

struct MappingFlags {
  std::vector<std::string> maps, traits;
  std::string record_id;  // --record-id COLUMN
  std::string mapping_file;
};

// Registers --format (into `format`), --map, --trait, --mapping and, with
// `record_ids`, --record-id.
void AddMappingFlags(CLI::App& cmd, MappingFlags& flags, batch::InputFormat& format,
                     bool record_ids);

// The mapping the flags make, every identifier type checked against
// `model`'s types; or why it cannot be made.
std::optional<std::string> BuildMapping(const MappingFlags& flags, const Model& model,
                                        batch::CsvMapping* mapping);

}  // namespace idres::app
