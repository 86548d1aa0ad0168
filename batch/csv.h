// CSV splitting (RFC 4180 with two leniencies): one record's text into its
// fields, and reading one record's text (which may span lines inside quotes)
// or one NDJSON line from a stream.
//
// Leniencies, both for data sets as shipped: unquoted fields are trimmed of
// spaces and tabs (febrl writes ", value"), and whitespace around a quoted
// field is ignored. A malformed record is a value with a reason, never an
// exception. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace idres::batch {

using CsvFields = std::vector<std::string>;

// The fields of one record's text, or why it is not valid CSV
// ("unterminated quoted field", "text after a closing quote").
std::variant<CsvFields, std::string> SplitCsvRecord(std::string_view text);

// Reads one physical line into `*line` without its line ending (LF or CR
// LF) and adds the bytes consumed to `*offset`. Returns false at end of input.
bool ReadLine(std::istream& in, std::string* line, std::uint64_t* offset);

// Reads the next record's text into `*text` (line ending removed; embedded
// newlines inside quotes kept) and adds the bytes consumed to `*offset`.
// Returns false at end of input. `*lines` gets the number of physical lines.
bool ReadCsvRecordText(std::istream& in, std::string* text, std::uint64_t* offset,
                       std::uint64_t* lines);

}  // namespace idres::batch
