// The shared data sets with known answers (../shared/data), as the
// training floors use them: the accuracy table's mapping per set
// (docs/matching.md), each row's id kept as the trait "row" (a trait plays
// no part in matching, and every record carries its traits), imported
// through the engine's batch path with one worker, in input order; and
// pairwise precision and recall of the persons a store holds, against each
// row's ground-truth cluster.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "batch/csv.h"
#include "batch/importer.h"
#include "engine/engine.h"
#include "matcher/model_file.h"
#include "tests/batch/data_sets.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_db.h"

namespace idres::testing {

struct LabelledSet {
  std::string file;
  std::vector<std::string> maps;  // TYPE=COLUMN
  std::string region;
  std::string id_name;           // the column of each row's own id
  std::size_t id_column = 0;     // ... and its place
  std::size_t truth_column = 0;  // its cluster (FEBRL: the N of rec-N-...)
  bool febrl = false;
};

inline LabelledSet Fake1000() {
  return {"splink_fake_1000.csv",
          {"email=email", "name=first_name+surname", "birth_date=dob", "city=city"},
          "",
          "unique_id",
          0,
          6,
          false};
}

inline LabelledSet Febrl(int n) {
  return {"febrl_dataset" + std::to_string(n) + ".csv",
          {"national_id=soc_sec_id", "name=given_name+surname", "birth_date=date_of_birth",
           "address=street_number+address_1+postcode", "postal_code=postcode", "city=suburb"},
          "",
          "rec_id",
          0,
          0,
          true};
}

inline LabelledSet HistoricalFigures() {
  return {"historical_figures_half_a.csv",
          {"name=first_name+surname", "birth_date=dob", "city=birth_place",
           "postal_code=postcode_fake"},
          "GB",
          "unique_id",
          0,
          1,
          false};
}

// The `idres train` / `idres import` flags of the set's mapping.
inline std::vector<std::string> MappingArgs(const LabelledSet& set) {
  std::vector<std::string> out;
  for (const std::string& m : set.maps) {
    out.push_back("--map");
    out.push_back(m);
  }
  if (!set.region.empty()) {
    out.push_back("--region");
    out.push_back(set.region);
  }
  return out;
}

// Row id -> ground-truth cluster.
inline std::map<std::string, std::string> Truth(const LabelledSet& set) {
  std::ifstream in(DataSet(set.file), std::ios::binary);
  std::map<std::string, std::string> out;
  std::string text;
  std::uint64_t offset = 0, lines = 0;
  REQUIRE(batch::ReadCsvRecordText(in, &text, &offset, &lines));  // the header
  while (batch::ReadCsvRecordText(in, &text, &offset, &lines)) {
    auto fields = batch::SplitCsvRecord(text);
    REQUIRE(std::holds_alternative<batch::CsvFields>(fields));
    const auto& row = std::get<batch::CsvFields>(fields);
    std::string cluster = row.at(set.truth_column);
    if (set.febrl) cluster = cluster.substr(4, cluster.find('-', 4) - 4);
    out[row.at(set.id_column)] = cluster;
  }
  return out;
}

// Imports the set into `url` with the model of `model_file` (empty: the
// built-in one), the store first shaped for that model.
inline void Import(const std::string& url, const LabelledSet& set, const std::string& model_file) {
  Model model = Model::Defaults();
  if (!model_file.empty()) {
    auto loaded = LoadModelFile(model_file);
    if (auto* e = std::get_if<std::string>(&loaded)) FAIL(*e);
    model = std::get<Model>(loaded);
  }
  MigrateStore(url, model);
  EngineOptions eo;
  eo.database_url = url;
  eo.pool_size = 1;
  eo.model = model;
  if (!set.region.empty()) eo.normalizer.default_region = set.region;
  Engine engine(std::move(eo));
  batch::EngineSink sink(engine);
  TempDir dir;
  batch::ImportOptions o;
  o.inputs = {DataSet(set.file)};
  for (const std::string& m : set.maps) REQUIRE_FALSE(o.mapping.AddIdentifier(m));
  REQUIRE_FALSE(o.mapping.AddTrait("row=" + set.id_name));
  o.default_region = set.region;
  o.workers = 1;
  o.checkpoint_path = dir.File("cp");
  o.dead_letter_path = dir.File("dead");
  o.progress = batch::ProgressMode::kOff;
  REQUIRE(batch::RunImport(o, sink).complete);
}

struct Accuracy {
  double precision = 0, recall = 0;
  double f1() const { return 2 * precision * recall / (precision + recall); }
};

// Pairwise precision and recall of the persons in the store at `db`; a row
// refused whole is a person of its own.
inline Accuracy Measure(const TestDatabase& db, const std::map<std::string, std::string>& truth,
                        const std::string& what) {
  std::map<std::string, std::map<std::string, std::int64_t>> persons;
  for (const auto& row : db.Rows("SELECT person_id::text, traits->>'row' FROM records")) {
    ++persons[row[0]][truth.at(row[1])];
  }
  std::map<std::string, std::int64_t> clusters;
  for (const auto& [row, cluster] : truth) ++clusters[cluster];
  const auto pairs = [](std::int64_t n) { return n * (n - 1) / 2; };
  std::int64_t found = 0, right = 0, real = 0;
  for (const auto& [person, of] : persons) {
    std::int64_t rows = 0;
    for (const auto& [cluster, n] : of) {
      rows += n;
      right += pairs(n);
    }
    found += pairs(rows);
  }
  for (const auto& [cluster, n] : clusters) real += pairs(n);
  REQUIRE(found > 0);
  const Accuracy a{static_cast<double>(right) / static_cast<double>(found),
                   static_cast<double>(right) / static_cast<double>(real)};
  std::printf("accuracy %s: %zu persons, precision %.4f recall %.4f F1 %.4f\n", what.c_str(),
              persons.size(), a.precision, a.recall, a.f1());
  return a;
}

}  // namespace idres::testing
