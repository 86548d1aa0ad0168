#include "batch/csv.h"

#include "base/strings.h"

namespace idres::batch {
namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t'; }

// Whether `text` leaves a quoted field open. A quote opens one only as the
// first character of a field (after blanks), as SplitCsvRecord reads it; a
// quote inside an unquoted field is that row's error, never the start of a
// field that swallows the rows after it.
bool InsideQuotes(std::string_view text) {
  enum { kFieldStart, kUnquoted, kQuoted, kQuoteInQuoted, kAfterQuoted } state = kFieldStart;
  for (char c : text) {
    switch (state) {
      case kFieldStart:
        if (c == '"') {
          state = kQuoted;
        } else if (c != ',' && !IsBlank(c)) {
          state = kUnquoted;
        }
        break;
      case kQuoted:
        if (c == '"') state = kQuoteInQuoted;
        break;
      case kQuoteInQuoted:  // "" is a quote; anything else closed the field
        if (c == '"') {
          state = kQuoted;
          break;
        }
        state = kAfterQuoted;
        [[fallthrough]];
      case kUnquoted:
      case kAfterQuoted:
        if (c == ',') state = kFieldStart;
        break;
    }
  }
  return state == kQuoted;
}

// Parses a quoted field starting at text[*pos] == '"'; leaves *pos after the
// closing quote. Returns false when the quote is never closed.
bool ParseQuoted(std::string_view text, std::size_t* pos, std::string* field) {
  std::size_t i = *pos + 1;
  while (i < text.size()) {
    if (text[i] != '"') {
      field->push_back(text[i++]);
    } else if (i + 1 < text.size() && text[i + 1] == '"') {
      field->push_back('"');
      i += 2;
    } else {
      *pos = i + 1;
      return true;
    }
  }
  return false;
}

}  // namespace

std::variant<CsvFields, std::string> SplitCsvRecord(std::string_view text) {
  CsvFields fields;
  std::size_t pos = 0;
  while (true) {
    while (pos < text.size() && IsBlank(text[pos])) ++pos;
    std::string field;
    if (pos < text.size() && text[pos] == '"') {
      if (!ParseQuoted(text, &pos, &field)) return std::string("unterminated quoted field");
      while (pos < text.size() && IsBlank(text[pos])) ++pos;
      if (pos < text.size() && text[pos] != ',') {
        return std::string("text after a closing quote in field ") +
               std::to_string(fields.size() + 1);
      }
    } else {
      std::size_t end = text.find(',', pos);
      if (end == std::string_view::npos) end = text.size();
      std::string_view raw = Trim(text.substr(pos, end - pos));
      if (raw.find('"') != std::string_view::npos) {
        return std::string("quote inside an unquoted field ") + std::to_string(fields.size() + 1);
      }
      field.assign(raw);
      pos = end;
    }
    fields.push_back(std::move(field));
    if (pos >= text.size()) return fields;
    ++pos;  // the comma
  }
}

bool ReadLine(std::istream& in, std::string* line, std::uint64_t* offset) {
  if (!std::getline(in, *line)) return false;
  *offset += line->size() + (in.eof() ? 0 : 1);
  if (!line->empty() && line->back() == '\r') line->pop_back();
  return true;
}

bool ReadCsvRecordText(std::istream& in, std::string* text, std::uint64_t* offset,
                       std::uint64_t* lines) {
  text->clear();
  *lines = 0;
  std::string line;
  while (ReadLine(in, &line, offset)) {
    ++*lines;
    if (*lines > 1) text->push_back('\n');
    text->append(line);
    if (!InsideQuotes(*text)) return true;
  }
  // End of input inside quotes: hand back what there is; splitting reports it.
  return *lines > 0;
}

}  // namespace idres::batch
