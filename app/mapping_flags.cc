#include "app/mapping_flags.h"

#include <CLI/CLI.hpp>

#include <map>


namespace idres::app {

void AddMappingFlags(CLI::App& cmd, MappingFlags& flags, batch::InputFormat& format,
                     bool record_ids) {
  std::map<std::string, batch::InputFormat> formats{{"auto", batch::InputFormat::kAuto},
                                                    {"ndjson", batch::InputFormat::kNdjson},
                                                    {"csv", batch::InputFormat::kCsv}};
  cmd.add_option("--format", format, "auto (by extension), ndjson or csv")
      ->transform(CLI::CheckedTransformer(formats, CLI::ignore_case));
  cmd.add_option("--map", flags.maps, "CSV: identifier TYPE=COLUMN[+COLUMN...] (repeatable)");
  cmd.add_option("--trait", flags.traits, "CSV: trait NAME=COLUMN[+COLUMN...] (repeatable)");
  if (record_ids) {
    cmd.add_option("--record-id", flags.record_id,
                   "CSV: COLUMN[+COLUMN...] holding each row's record id; a stored id is replaced");
  }
  cmd.add_option("--mapping", flags.mapping_file,
                 "CSV: file of 'map TYPE=COLUMN' / 'trait NAME=COLUMN' lines");
}

std::optional<std::string> BuildMapping(const MappingFlags& flags, const Model& model,
                                        batch::CsvMapping* mapping) {
  for (const std::string& spec : flags.maps) {
    if (auto error = mapping->AddIdentifier(spec)) return *error;
  }
  for (const std::string& spec : flags.traits) {
    if (auto error = mapping->AddTrait(spec)) return *error;
  }
  if (!flags.mapping_file.empty()) {
    if (auto error = mapping->AddFile(flags.mapping_file)) return *error;
  }
  if (!flags.record_id.empty()) {
    if (auto error = mapping->SetRecordId(flags.record_id)) return *error;
  }
  // A misspelt type would reject that column in every record; the model may
  // add types of its own.
  const auto kinds = model.NormalizerKinds();
  for (const batch::ColumnMapping& m : mapping->identifiers) {
    if (kinds.contains(m.name)) continue;
    std::string known;
    for (const auto& [type, kind] : kinds) known += (known.empty() ? "" : ", ") + type;
    return "unknown identifier type \"" + m.name + "\" (known: " + known + ")";
  }
  return std::nullopt;
}

}  // namespace idres::app
