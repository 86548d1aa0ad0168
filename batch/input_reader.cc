#include "batch/input_reader.h"

#include "batch/ndjson_record.h"

namespace idres::batch {
namespace {

bool IsBlank(std::string_view text) {
  return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

}  // namespace

InputFormat FormatOf(const std::string& path, InputFormat requested) {
  if (requested != InputFormat::kAuto) return requested;
  return path.ends_with(".csv") || path.ends_with(".CSV") ? InputFormat::kCsv
                                                          : InputFormat::kNdjson;
}

std::variant<std::unique_ptr<InputReader>, std::string> InputReader::Open(
    const std::string& path, InputFormat format, const CsvMapping& mapping,
    std::uint64_t start_offset) {
  std::unique_ptr<InputReader> reader(new InputReader());
  reader->path_ = path;
  reader->format_ = FormatOf(path, format);
  reader->in_.open(path, std::ios::binary);
  if (!reader->in_) return "cannot open " + path;
  // A UTF-8 byte order mark (spreadsheet exports write one) is no part of
  // the first record or of the header's first column name.
  char bom[3] = {};
  reader->in_.read(bom, 3);
  if (reader->in_.gcount() == 3 && std::string_view(bom, 3) == "\xEF\xBB\xBF") {
    reader->offset_ = 3;
  } else {
    reader->in_.clear();
    reader->in_.seekg(0);
  }
  if (reader->format_ == InputFormat::kCsv) {
    if (mapping.empty()) return path + ": a CSV input needs --map, --trait or --mapping";
    std::string text;
    std::uint64_t lines = 0;
    if (!ReadCsvRecordText(reader->in_, &text, &reader->offset_, &lines)) {
      return path + ": no header row";
    }
    reader->line_ += lines;
    auto header = SplitCsvRecord(text);
    if (auto* error = std::get_if<std::string>(&header)) return path + ": header: " + *error;
    auto bound = BoundMapping::Bind(mapping, std::get<CsvFields>(header));
    if (auto* error = std::get_if<std::string>(&bound)) return path + ": " + *error;
    reader->mapping_ = std::move(std::get<BoundMapping>(bound));
  }
  if (start_offset > reader->offset_) {
    // Line numbers after a resume count from the checkpoint's position;
    // recount them so dead letters name the right line.
    std::string skipped;
    while (reader->offset_ < start_offset && ReadLine(reader->in_, &skipped, &reader->offset_)) {
      ++reader->line_;
    }
    if (reader->offset_ != start_offset) {
      return path + ": the checkpoint's position is not a line boundary of this file";
    }
  }
  return reader;
}

bool InputReader::Next(InputRecord* out) {
  while (true) {
    out->line = line_ + 1;
    std::uint64_t lines = 0;
    if (format_ == InputFormat::kCsv) {
      if (!ReadCsvRecordText(in_, &out->raw, &offset_, &lines)) return false;
    } else {
      if (!ReadLine(in_, &out->raw, &offset_)) return false;
      lines = 1;
    }
    line_ += lines;
    if (IsBlank(out->raw)) continue;
    out->end_offset = offset_;
    if (format_ == InputFormat::kNdjson) {
      out->parsed = ParseNdjsonRecord(out->raw);
    } else {
      auto fields = SplitCsvRecord(out->raw);
      if (auto* error = std::get_if<std::string>(&fields)) {
        out->parsed = *error;
      } else {
        out->parsed = mapping_->ToRecord(std::get<CsvFields>(fields));
      }
    }
    return true;
  }
}

std::optional<std::uint64_t> CountRecords(const std::string& path, InputFormat format) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::uint64_t offset = 0, lines = 0, count = 0;
  std::string text;
  if (FormatOf(path, format) == InputFormat::kCsv) {
    if (!ReadCsvRecordText(in, &text, &offset, &lines)) return 0;  // the header
    while (ReadCsvRecordText(in, &text, &offset, &lines)) count += IsBlank(text) ? 0 : 1;
  } else {
    while (ReadLine(in, &text, &offset)) count += IsBlank(text) ? 0 : 1;
  }
  return count;
}

}  // namespace idres::batch
