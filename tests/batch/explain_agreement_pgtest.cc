// Explain of a record gives exactly the decision an upsert of that record
// then takes (docs/matching.md, "Explanations and possible matches"): every row of
// the shared data sets, in order, explained and then upserted with explain
// on one engine — the decision, the person and the persons merged, and
// every candidate's total, must agree.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <string>

#include "batch/csv.h"
#include "batch/csv_mapping.h"
#include "engine/engine.h"
#include "tests/batch/data_sets.h"
#include "tests/support/test_db.h"

namespace idres::batch {
namespace {

std::string Decision(const UpsertResult& r) {
  switch (r.outcome) {
    case Outcome::kCreated:
      return "create";
    case Outcome::kMerged:
      return "merge";
    default:
      return "update";
  }
}

void CheckAgreement(const std::string& file, std::initializer_list<const char*> specs) {
  const std::string path = testing::DataSet(file);
  CsvMapping mapping;
  for (const char* spec : specs) REQUIRE_FALSE(mapping.AddIdentifier(spec));
  testing::TestDatabase db;
  EngineOptions eo;
  eo.database_url = db.url();
  eo.pool_size = 1;
  Engine engine(std::move(eo));

  std::ifstream in(path, std::ios::binary);
  std::string text;
  std::uint64_t offset = 0, lines = 0;
  REQUIRE(ReadCsvRecordText(in, &text, &offset, &lines));
  auto header = SplitCsvRecord(text);
  REQUIRE(std::holds_alternative<CsvFields>(header));
  auto bound = BoundMapping::Bind(mapping, std::get<CsvFields>(header));
  REQUIRE(std::holds_alternative<BoundMapping>(bound));
  std::size_t rows = 0, merges = 0, updates = 0, possible = 0, candidates = 0;
  while (ReadCsvRecordText(in, &text, &offset, &lines)) {
    auto fields = SplitCsvRecord(text);
    REQUIRE(std::holds_alternative<CsvFields>(fields));
    auto made = std::get<BoundMapping>(bound).ToRecord(std::get<CsvFields>(fields));
    REQUIRE(std::holds_alternative<Record>(made));
    Record record = std::get<Record>(std::move(made));
    INFO(file << " line " << lines << ": " << text);
    const Explanation e = engine.Explain(record);
    record.explain = true;
    const UpsertResult r = engine.Upsert(record);
    ++rows;
    REQUIRE(r.ok() == !e.error.has_value());
    if (!r.ok()) continue;
    REQUIRE(r.explanation);
    CHECK(e.decision == Decision(r));
    CHECK(r.explanation->decision == e.decision);
    if (e.decision != "create") CHECK(e.person_id == r.person_id);
    CHECK(e.merged_person_ids == r.merged_person_ids);
    REQUIRE(e.candidates.size() == r.explanation->candidates.size());
    for (std::size_t i = 0; i < e.candidates.size(); ++i) {
      CHECK(e.candidates[i].person_id == r.explanation->candidates[i].person_id);
      CHECK(e.candidates[i].score.total == r.explanation->candidates[i].score.total);
      CHECK(e.candidates[i].chosen == r.explanation->candidates[i].chosen);
      possible += e.candidates[i].possible;
    }
    candidates += e.candidates.size();
    merges += e.decision == "merge";
    updates += e.decision == "update";
  }
  std::printf(
      "explain agreement %s: %zu rows, %zu updates, %zu merges, %zu candidates, %zu "
      "possible matches\n",
      file.c_str(), rows, updates, merges, candidates, possible);
  // The sets have duplicates: the agreement was tested on matches too.
  CHECK(updates + merges > rows / 10);
}

TEST_CASE("explain agrees with the upsert, record by record: splink_fake_1000",
          "[pg][explain][accuracy]") {
  CheckAgreement("splink_fake_1000.csv",
                 {"email=email", "name=first_name+surname", "birth_date=dob", "city=city"});
}

void CheckFebrl(const std::string& file) {
  CheckAgreement(
      file, {"national_id=soc_sec_id", "name=given_name+surname", "birth_date=date_of_birth",
             "address=street_number+address_1+postcode", "postal_code=postcode", "city=suburb"});
}

TEST_CASE("explain agrees with the upsert, record by record: FEBRL 1", "[pg][explain][accuracy]") {
  CheckFebrl("febrl_dataset1.csv");
}

TEST_CASE("explain agrees with the upsert, record by record: FEBRL 2", "[pg][explain][accuracy]") {
  CheckFebrl("febrl_dataset2.csv");
}

TEST_CASE("explain agrees with the upsert, record by record: FEBRL 3", "[pg][explain][accuracy]") {
  CheckFebrl("febrl_dataset3.csv");
}

}  // namespace
}  // namespace idres::batch
