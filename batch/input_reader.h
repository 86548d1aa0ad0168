// InputReader: the records of one input file (NDJSON or CSV), each with its
// raw text and its position, so the import can dead-letter the input as it
// was and checkpoint how far it got.
//
// NDJSON: one record per non-blank line. CSV: a header row, then one record
// per row, mapped by a CsvMapping. Records that cannot be read are handed out
// too, with the reason instead of a record; only a file that cannot be opened
// or a CSV header that does not fit the mapping stops the reader.
//
// Thread-safety: one reader belongs to one thread.
#pragma once

#include <cstdint>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "batch/csv_mapping.h"
#include "engine/record.h"

namespace idres::batch {

enum class InputFormat { kAuto, kNdjson, kCsv };

// "ndjson"/"jsonl"/"json" or "csv" from the file name's extension; kNdjson
// for anything else.
InputFormat FormatOf(const std::string& path, InputFormat requested);

struct InputRecord {
  std::uint64_t line = 0;                    // 1-based line where the record starts
  std::uint64_t end_offset = 0;              // byte offset just past the record
  std::string raw;                           // the record's text, without the line ending
  std::variant<Record, std::string> parsed;  // the record, or why not
};

class InputReader {
 public:
  // Opens `path` and, for CSV, reads and binds the header; then skips to
  // `start_offset` (a record boundary from an earlier run's checkpoint).
  // An error message when the file or its header cannot be used.
  static std::variant<std::unique_ptr<InputReader>, std::string> Open(
      const std::string& path, InputFormat format, const CsvMapping& mapping,
      std::uint64_t start_offset = 0);

  // The next record; false at end of file.
  bool Next(InputRecord* out);

  const std::string& path() const { return path_; }

 private:
  InputReader() = default;

  std::string path_;
  InputFormat format_ = InputFormat::kNdjson;
  std::ifstream in_;
  std::uint64_t offset_ = 0;
  std::uint64_t line_ = 0;  // physical lines consumed so far
  std::optional<BoundMapping> mapping_;
};

// The number of records in `path` (a quick pass, no parsing of values);
// nullopt when it cannot be read.
std::optional<std::uint64_t> CountRecords(const std::string& path, InputFormat format);

}  // namespace idres::batch
