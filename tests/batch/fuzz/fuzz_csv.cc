// Fuzz target: `idres import`'s CSV reader (batch/csv.h, batch/csv_mapping.h)
// on a whole file: records across lines, their fields, the header bound to a
// mapping of its first two columns, the rows made records. The bytes the
// reader consumes add up to the input; a record's fields written back as
// CSV split to the same fields; every step answers a value or a reason.
// Never a crash.
#include <cstdint>
#include <sstream>
#include <string_view>

#include "batch/csv.h"
#include "batch/csv_mapping.h"
#include "tests/fuzz/property.h"

namespace {

// `fields` as one CSV record, every field quoted.
std::string Written(const idres::batch::CsvFields& fields) {
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) out += ',';
    out += '"';
    for (const char c : fields[i]) {
      if (c == '"') out += '"';
      out += c;
    }
    out += '"';
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace idres::batch;
  using idres::fuzz::Expect;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::istringstream in{std::string(input)};
  std::uint64_t offset = 0, lines = 0;
  std::optional<BoundMapping> bound;
  for (std::string text; ReadCsvRecordText(in, &text, &offset, &lines);) {
    const auto split = SplitCsvRecord(text);
    if (const auto* reason = std::get_if<std::string>(&split)) {
      Expect(!reason->empty(), "a bad record has a reason", input);
      continue;
    }
    const CsvFields& fields = std::get<CsvFields>(split);
    const auto again = SplitCsvRecord(Written(fields));
    Expect(std::holds_alternative<CsvFields>(again) && std::get<CsvFields>(again) == fields,
           "fields written back split to the same fields", input);
    if (!bound) {  // the header: its first column an email, its second a trait
      if (fields.size() < 2) return 0;
      CsvMapping mapping;
      if (mapping.AddIdentifier("email=" + fields[0]) || mapping.AddTrait("t=" + fields[1])) {
        return 0;
      }
      auto made = BoundMapping::Bind(mapping, fields);
      if (std::holds_alternative<std::string>(made)) return 0;
      bound = std::get<BoundMapping>(std::move(made));
      continue;
    }
    const auto record = bound->ToRecord(fields);
    if (const auto* reason = std::get_if<std::string>(&record)) {
      Expect(!reason->empty(), "a bad row has a reason", input);
    }
  }
  Expect(offset == input.size(), "the bytes consumed add up to the input", input);
  return 0;
}
