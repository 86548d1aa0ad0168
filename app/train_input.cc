#include "app/train_input.h"

#include "engine/record_snapshot.h"
#include "normalize/normalizer.h"
#include "train/record_sampler.h"

namespace idres::app {
namespace {

// The record's values normalized as the engine would: values that do not
// normalize are left out (the engine rejects them too).
std::vector<Identifier> Normalized(const Record& record, const Normalizer& normalizer,
                                   SourceCounts& counts) {
  std::vector<Identifier> out;
  for (const RawIdentifier& raw : record.identifiers) {
    NormalizeResult r = normalizer.Normalize(raw.type, raw.value, record.default_region);
    if (auto* id = std::get_if<Identifier>(&r)) {
      out.push_back(std::move(*id));
    } else {
      ++counts.rejected;
    }
  }
  return out;
}

void Keep(std::vector<Identifier>&& values, train::RecordTable& table, SourceCounts& counts) {
  if (table.Add(values)) {
    ++counts.kept;
  } else {
    ++counts.empty;
  }
}

std::variant<SourceCounts, std::string> ReadFiles(const TrainSource& source, const Model& model,
                                                  train::RecordTable& table) {
  std::uint64_t total = 0;
  for (const std::string& file : source.files) {
    const auto n = batch::CountRecords(file, source.format);
    if (!n) return "cannot read " + file;
    total += *n;
  }
  NormalizerConfig config = model.Normalizing();
  if (!source.region.empty()) config.default_region = source.region;
  const Normalizer normalizer(config);
  train::RecordSampler sampler(total, source.max_records, source.seed);
  SourceCounts counts;
  for (const std::string& file : source.files) {
    auto opened = batch::InputReader::Open(file, source.format, source.mapping);
    if (auto* e = std::get_if<std::string>(&opened)) return *e;
    auto& reader = *std::get<std::unique_ptr<batch::InputReader>>(opened);
    batch::InputRecord in;
    while (reader.Next(&in)) {
      ++counts.records;
      if (!sampler.Take()) continue;
      if (const Record* record = std::get_if<Record>(&in.parsed)) {
        Keep(Normalized(*record, normalizer, counts), table, counts);
      } else {
        ++counts.unreadable;
      }
    }
  }
  return counts;
}

SourceCounts ReadStore(const TrainSource& source, train::RecordTable& table) {
  SourceCounts counts;
  std::optional<train::RecordSampler> sampler;
  ReadRecordSnapshot(
      source.database_url,
      [&](std::uint64_t total) { sampler.emplace(total, source.max_records, source.seed); },
      [&](std::vector<Identifier>&& values) {
        ++counts.records;
        if (sampler->Take()) Keep(std::move(values), table, counts);
      });
  return counts;
}

}  // namespace

std::variant<SourceCounts, std::string> ReadTrainingRecords(const TrainSource& source,
                                                            const Model& model,
                                                            train::RecordTable& table) {
  if (source.files.empty()) return ReadStore(source, table);
  return ReadFiles(source, model, table);
}

}  // namespace idres::app
