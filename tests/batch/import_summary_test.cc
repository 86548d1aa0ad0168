#include "batch/import_summary.h"

#include <catch2/catch.hpp>

namespace idres::batch {
namespace {

UpsertResult Result(Outcome outcome) {
  UpsertResult r;
  r.outcome = outcome;
  return r;
}

TEST_CASE("outcomes and rejections are counted, reasons returned for dead letters",
          "[import_summary]") {
  ImportSummary s;
  CHECK(s.Add(Result(Outcome::kCreated)).empty());
  CHECK(s.Add(Result(Outcome::kMerged)).empty());
  UpsertResult partial = Result(Outcome::kUpdated);
  partial.rejected.push_back({"phone", "12", "not a possible phone number"});
  CHECK(s.Add(partial) == "phone: not a possible phone number (\"12\")");
  UpsertResult whole;
  whole.error = "no valid identifier";
  whole.rejected.push_back({"email", "x", "no @"});
  CHECK(s.Add(whole) == "no valid identifier (email: no @ (\"x\"))");
  s.AddUnreadable("not valid JSON");

  CHECK(s.total() == 5);
  CHECK(s.created == 1);
  CHECK(s.merged == 1);
  CHECK(s.updated == 1);
  CHECK(s.rejected == 2);
  CHECK(s.partially_rejected == 1);
  CHECK(s.rejections.at("phone: not a possible phone number") == 1);
  CHECK(s.rejections.at("no valid identifier") == 1);
  CHECK(s.rejections.at("email: no @") == 1);
  CHECK(s.rejections.at("not valid JSON") == 1);
  CHECK(s.ToText().find("rejected: 2") != std::string::npos);
}

TEST_CASE("the JSON report reads back as the same counts", "[import_summary]") {
  ImportSummary s;
  s.Add(Result(Outcome::kUnchanged));
  s.AddUnreadable("bad");
  s.resumed_records = 7;
  s.run_records = 2;
  s.run_seconds = 0.5;
  auto back = ImportSummary::FromJson(s.ToJson());
  REQUIRE(back);
  CHECK(back->unchanged == 1);
  CHECK(back->rejected == 1);
  CHECK(back->rejections == s.rejections);
  CHECK(back->resumed_records == 7);
  CHECK(back->records_per_second() == 4.0);
  CHECK_FALSE(ImportSummary::FromJson("{}"));
}

}  // namespace
}  // namespace idres::batch
