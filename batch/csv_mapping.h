// CsvMapping: which CSV columns become which identifiers and traits.
//
// Written as `TYPE=COLUMN` (for --map) and `NAME=COLUMN` (for --trait), where
// COLUMN may join several columns with '+' ("name=first_name+surname": the
// non-empty cells joined by one space). The same type may be mapped from
// several columns (two email columns give two email identifiers). A mapping
// file holds one entry per line, "map TYPE=COLUMN" or "trait NAME=COLUMN";
// blank lines and lines starting with '#' are ignored.
//
// Bad mappings and unknown columns are configuration errors, reported as a
// string before any record is read. A row that does not fit the header is a
// per-record reason. Plain values; thread-safe once built.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "batch/csv.h"
#include "engine/record.h"

namespace idres::batch {

struct ColumnMapping {
  std::string name;                  // identifier type or trait name
  std::vector<std::string> columns;  // header names, joined by one space
};

struct CsvMapping {
  std::vector<ColumnMapping> identifiers;
  std::vector<ColumnMapping> traits;
  // The column(s) holding each row's record id ("COLUMN[+COLUMN...]", name
  // unused): a row whose id is stored replaces that record. None: ids are
  // generated.
  std::optional<ColumnMapping> record_id;

  bool empty() const { return identifiers.empty() && traits.empty(); }

  // Adds "TYPE=COLUMN[+COLUMN...]"; an error message when malformed.
  std::optional<std::string> AddIdentifier(std::string_view spec);
  // Adds "NAME=COLUMN[+COLUMN...]"; an error message when malformed.
  std::optional<std::string> AddTrait(std::string_view spec);
  // Sets the record id column(s), "COLUMN[+COLUMN...]"; an error message
  // when malformed or set twice.
  std::optional<std::string> SetRecordId(std::string_view spec);
  // Adds every entry of the mapping file at `path`; an error message naming
  // the file and line when it cannot be read or a line is malformed.
  std::optional<std::string> AddFile(const std::string& path);
};

// A mapping bound to one header row: column names resolved to indexes.
class BoundMapping {
 public:
  // Binds `mapping` to `header`; an error message when a column is missing
  // or a header name appears twice.
  static std::variant<BoundMapping, std::string> Bind(const CsvMapping& mapping,
                                                      const CsvFields& header);

  // The record for one row, or why the row cannot become one. Empty cells
  // are left out; a row with a different number of fields than the header
  // is refused.
  std::variant<Record, std::string> ToRecord(const CsvFields& row) const;

 private:
  struct Bound {
    std::string name;
    std::vector<std::size_t> indexes;
  };
  std::size_t width_ = 0;
  std::vector<Bound> identifiers_;
  std::vector<Bound> traits_;
  std::optional<Bound> record_id_;
};

}  // namespace idres::batch
