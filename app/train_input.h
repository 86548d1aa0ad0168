// Where `idres train` reads its records: input files, read and normalized
// exactly as `idres import` reads them (the same mapping flags), or the
// records of a store in one snapshot (engine/record_snapshot.h). When
// there are more than `max_records`, that many are kept, chosen uniformly
// by the seed (train/record_sampler.h): memory stays bounded, and the same
// input and seed keep the same records.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "batch/csv_mapping.h"
#include "batch/input_reader.h"
#include "matcher/model.h"
#include "train/record_table.h"

namespace idres::app {

struct TrainSource {
  std::vector<std::string> files;  // none: the store at database_url
  batch::InputFormat format = batch::InputFormat::kAuto;
  batch::CsvMapping mapping;
  std::string region;  // for phones of records naming none
  std::string database_url;
  std::uint64_t max_records = 1'000'000;
  std::uint64_t seed = 1;
};

struct SourceCounts {
  std::uint64_t records = 0;     // read
  std::uint64_t kept = 0;        // added to the table
  std::uint64_t unreadable = 0;  // lines or rows that are no record
  std::uint64_t rejected = 0;    // values that do not normalize (left out)
  std::uint64_t empty = 0;       // records with no value of a model type
};

// Reads `source` into `table`, normalizing with `model`'s types; or why it
// cannot be read. Throws EngineError for a store that cannot be read.
std::variant<SourceCounts, std::string> ReadTrainingRecords(const TrainSource& source,
                                                            const Model& model,
                                                            train::RecordTable& table);

}  // namespace idres::app
