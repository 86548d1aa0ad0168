#include "batch/csv_mapping.h"

#include <filesystem>
#include <fstream>
#include <map>

#include "base/strings.h"

namespace idres::batch {
namespace {

// Blanks, and the CR of a mapping file written on Windows.
constexpr std::string_view kBlanks = " \t\r";

std::variant<ColumnMapping, std::string> ParseSpec(std::string_view spec) {
  std::size_t eq = spec.find('=');
  if (eq == std::string_view::npos) {
    return "mapping \"" + std::string(spec) + "\" is not NAME=COLUMN";
  }
  ColumnMapping mapping;
  mapping.name = std::string(Trim(spec.substr(0, eq), kBlanks));
  std::string_view columns = spec.substr(eq + 1);
  while (true) {
    std::size_t plus = columns.find('+');
    std::string_view column = Trim(columns.substr(0, plus), kBlanks);
    if (column.empty()) {
      return "mapping \"" + std::string(spec) + "\" names an empty column";
    }
    mapping.columns.emplace_back(column);
    if (plus == std::string_view::npos) break;
    columns.remove_prefix(plus + 1);
  }
  if (mapping.name.empty()) return "mapping \"" + std::string(spec) + "\" has no name";
  return mapping;
}

std::optional<std::string> Add(std::string_view spec, std::vector<ColumnMapping>* into) {
  auto parsed = ParseSpec(spec);
  if (auto* error = std::get_if<std::string>(&parsed)) return *error;
  into->push_back(std::move(std::get<ColumnMapping>(parsed)));
  return std::nullopt;
}

// The non-empty cells at `indexes`, joined by one space.
std::string Join(const CsvFields& row, const std::vector<std::size_t>& indexes) {
  std::string joined;
  for (std::size_t index : indexes) {
    const std::string& cell = row[index];
    if (cell.empty()) continue;
    if (!joined.empty()) joined.push_back(' ');
    joined += cell;
  }
  return joined;
}

}  // namespace

std::optional<std::string> CsvMapping::AddIdentifier(std::string_view spec) {
  return Add(spec, &identifiers);
}

std::optional<std::string> CsvMapping::AddTrait(std::string_view spec) {
  return Add(spec, &traits);
}

std::optional<std::string> CsvMapping::SetRecordId(std::string_view spec) {
  if (record_id) return std::string("the record id column is given twice");
  std::vector<ColumnMapping> one;
  if (auto error = Add("record_id=" + std::string(spec), &one)) return error;
  record_id = std::move(one.front());
  return std::nullopt;
}

std::optional<std::string> CsvMapping::AddFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return "mapping file " + path + " is a directory";
  std::ifstream in(path);
  if (!in) return "cannot open mapping file " + path;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    std::string_view text = Trim(line, kBlanks);
    if (text.empty() || text.front() == '#') continue;
    std::size_t space = text.find_first_of(" \t");
    std::string_view verb = text.substr(0, space);
    std::string_view spec =
        space == std::string_view::npos ? "" : Trim(text.substr(space), kBlanks);
    std::optional<std::string> error;
    if (verb == "map") {
      error = AddIdentifier(spec);
    } else if (verb == "trait") {
      error = AddTrait(spec);
    } else {
      error = "expected \"map TYPE=COLUMN\" or \"trait NAME=COLUMN\"";
    }
    if (error) return path + ":" + std::to_string(number) + ": " + *error;
  }
  return std::nullopt;
}

std::variant<BoundMapping, std::string> BoundMapping::Bind(const CsvMapping& mapping,
                                                           const CsvFields& header) {
  std::map<std::string, std::size_t, std::less<>> index_of;
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (!index_of.emplace(header[i], i).second) {
      return "the header names column \"" + header[i] + "\" twice";
    }
  }
  BoundMapping bound;
  bound.width_ = header.size();
  auto bind_all = [&](const std::vector<ColumnMapping>& from,
                      std::vector<Bound>* to) -> std::optional<std::string> {
    for (const ColumnMapping& m : from) {
      Bound b{m.name, {}};
      for (const std::string& column : m.columns) {
        auto it = index_of.find(column);
        if (it == index_of.end()) return "no column \"" + column + "\" in the header";
        b.indexes.push_back(it->second);
      }
      to->push_back(std::move(b));
    }
    return std::nullopt;
  };
  if (auto error = bind_all(mapping.identifiers, &bound.identifiers_)) return *error;
  if (auto error = bind_all(mapping.traits, &bound.traits_)) return *error;
  if (mapping.record_id) {
    std::vector<Bound> one;
    if (auto error = bind_all({*mapping.record_id}, &one)) return *error;
    bound.record_id_ = std::move(one.front());
  }
  return bound;
}

std::variant<Record, std::string> BoundMapping::ToRecord(const CsvFields& row) const {
  if (row.size() != width_) {
    return "expected " + std::to_string(width_) + " fields as in the header, found " +
           std::to_string(row.size());
  }
  Record record;
  for (const Bound& b : identifiers_) {
    std::string value = Join(row, b.indexes);
    if (!value.empty()) record.identifiers.push_back({b.name, std::move(value)});
  }
  for (const Bound& b : traits_) {
    std::string value = Join(row, b.indexes);
    if (!value.empty()) record.traits[b.name] = std::move(value);
  }
  if (record_id_) record.record_id = Join(row, record_id_->indexes);
  return record;
}

}  // namespace idres::batch
