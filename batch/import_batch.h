// ImportBatch: a run of consecutive input records of one file, sent to the
// store together and committed to the checkpoint together. Plain value; one
// thread at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "batch/input_reader.h"
#include "engine/record.h"

namespace idres::batch {

struct ImportBatch {
  std::uint64_t seq = 0;  // 0, 1, 2, ... in input order
  std::size_t file_index = 0;
  std::string file;              // the input's path, for dead letters
  std::uint64_t end_offset = 0;  // position just past the last record
  std::vector<InputRecord> inputs;
  // The readable records, in order, and for each input the index of its
  // record (or kUnreadable).
  std::vector<Record> records;
  std::vector<std::size_t> record_of;
  std::vector<UpsertResult> results;  // one per record once sent

  static constexpr std::size_t kUnreadable = static_cast<std::size_t>(-1);
};

}  // namespace idres::batch
