#include "batch/importer.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "batch/checkpoint.h"
#include "engine/engine.h"
#include "tests/batch/data_sets.h"
#include "tests/batch/resume_steps.h"
#include "tests/batch/splink_args.h"
#include "tests/batch/store_snapshot.h"
#include "tests/support/idres_process.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_db.h"

namespace idres::batch {
namespace {

using testing::PersonsByIdentifiers;
using testing::TempDir;
using testing::TestDatabase;

// docs/batch.md's mapping for splink_fake_1000.csv (as splink_args.h).
CsvMapping SplinkMapping() {
  CsvMapping m;
  REQUIRE_FALSE(m.AddIdentifier("email=email"));
  REQUIRE_FALSE(m.AddIdentifier("name=first_name+surname"));
  REQUIRE_FALSE(m.AddIdentifier("birth_date=dob"));
  REQUIRE_FALSE(m.AddTrait("city=city"));
  REQUIRE_FALSE(m.AddTrait("unique_id=unique_id"));
  return m;
}

std::unique_ptr<Engine> OpenEngine(const TestDatabase& db, int pool) {
  EngineOptions o;
  o.database_url = db.url();
  o.pool_size = pool;
  return std::make_unique<Engine>(std::move(o));
}

ImportRun Import(const TestDatabase& db, const std::string& input, int workers, TempDir& dir) {
  auto engine = OpenEngine(db, workers);
  EngineSink sink(*engine);
  ImportOptions o;
  o.inputs = {input};
  o.mapping = SplinkMapping();
  o.workers = workers;
  o.batch_size = 50;
  o.checkpoint_path = dir.File("cp");
  o.dead_letter_path = dir.File("dead");
  o.source = "test";
  o.progress = ProgressMode::kOff;
  return RunImport(o, sink);
}

// The same records, one Engine::Upsert each, in file order.
void UpsertOneByOne(const TestDatabase& db, const std::string& input) {
  auto engine = OpenEngine(db, 1);
  auto opened = InputReader::Open(input, InputFormat::kAuto, SplinkMapping());
  auto& reader = *std::get<std::unique_ptr<InputReader>>(opened);
  InputRecord r;
  while (reader.Next(&r)) {
    Record record = std::get<Record>(r.parsed);
    record.source = "test";
    engine->Upsert(record);
  }
}

TEST_CASE("importing splink_fake_1000 gives the same persons as one Upsert per record",
          "[pg][import]") {
  const std::string splink = testing::DataSet("splink_fake_1000.csv");
  TestDatabase one_by_one;
  UpsertOneByOne(one_by_one, splink);
  const auto expected = PersonsByIdentifiers(one_by_one, /*with_traits=*/true);
  REQUIRE(expected.size() > 100);  // the data set has 251 true people

  SECTION("one worker: identifiers and traits alike") {
    TestDatabase imported;
    TempDir dir;
    ImportRun run = Import(imported, splink, 1, dir);
    REQUIRE_FALSE(run.error);
    CHECK(run.summary.total() == 1000);
    CHECK(PersonsByIdentifiers(imported, true) == expected);
  }
  SECTION("four workers: every record applied, every value stored") {
    // Parallel batches reorder records. Fuzzy decisions depend on the order
    // (a record that bridges two near-duplicates may arrive before or after
    // them), so who ends as one person may differ from one worker's run; the
    // values stored, and that each record was applied once, must not.
    TestDatabase imported;
    TempDir dir;
    ImportRun run = Import(imported, splink, 4, dir);
    REQUIRE_FALSE(run.error);
    CHECK(run.summary.total() == 1000);
    const auto Values = [](const std::vector<std::string>& persons) {
      std::set<std::string> out;
      for (const std::string& p : persons) {
        for (std::size_t at = 0, bar; at <= p.size(); at = bar + 1) {
          bar = std::min(p.find('|', at), p.size());
          out.insert(p.substr(at, bar - at));
        }
      }
      return out;
    };
    CHECK(Values(PersonsByIdentifiers(imported, false)) ==
          Values(PersonsByIdentifiers(one_by_one, false)));
  }
}

TEST_CASE("rejected records land in the dead-letter file with their reasons", "[pg][import]") {
  TestDatabase db;
  TempDir dir;
  std::string input = dir.Write(
      "in.ndjson",
      R"({"identifiers":[{"type":"email","value":"anna@example.com"}]})"
      "\n"
      R"({"identifiers":[{"type":"email","value":"not-an-email"}]})"
      "\n"
      R"({"identifiers":[{"type":"email","value":"ben@example.com"},{"type":"phone","value":"12"}]})"
      "\n"
      "{broken\n"
      R"({"identifiers":[{"type":"shoe_size","value":"44"}]})"
      "\n");
  auto engine = OpenEngine(db, 2);
  EngineSink sink(*engine);
  ImportOptions o;
  o.inputs = {input};
  o.dead_letter_path = dir.File("dead.ndjson");
  o.progress = ProgressMode::kOff;
  ImportRun run = RunImport(o, sink);
  REQUIRE_FALSE(run.error);
  CHECK(run.summary.created == 2);
  CHECK(run.summary.rejected == 3);
  CHECK(run.summary.partially_rejected == 1);
  CHECK(db.Count("SELECT count(*) FROM persons") == 2);

  std::string dead = testing::ReadFile(o.dead_letter_path);
  INFO(dead);
  CHECK(std::count(dead.begin(), dead.end(), '\n') == 4);
  CHECK(dead.find(R"("line":2,"reason":"no valid identifier (email: )") != std::string::npos);
  CHECK(dead.find(R"("line":3,"reason":"phone: )") != std::string::npos);
  CHECK(dead.find(R"("rejected":"identifiers")") != std::string::npos);
  CHECK(dead.find(R"("input":"{broken","line":4,"reason":"not valid JSON")") != std::string::npos);
  CHECK(dead.find(R"("line":5,"reason":"no valid identifier (shoe_size: unknown)") !=
        std::string::npos);
}

// One worker: fuzzy decisions depend on the order records arrive in, and
// the two runs must see the same order.
std::vector<std::string> ImportArgs(const TestDatabase& db, const std::string& input,
                                    const TempDir& dir, const std::string& tag) {
  std::vector<std::string> args = testing::SplinkImportArgs(input, dir, tag);
  args.insert(args.end(), {"--database-url", db.url(), "--workers", "1", "--batch", "10"});
  return args;
}

TEST_CASE("kill -9 in the middle of an import, then --resume, gives the uninterrupted store",
          "[pg][import]") {
  const std::string splink = testing::DataSet("splink_fake_1000.csv");
  TempDir dir;
  TestDatabase uninterrupted;
  REQUIRE(testing::RunToEnd(ImportArgs(uninterrupted, splink, dir, "full"), dir.File("log")) == 0);

  TestDatabase killed;
  std::vector<std::string> args = ImportArgs(killed, splink, dir, "killed");
  {
    // Capped at 150 records/s the run takes several seconds: long enough to
    // be caught between two checkpoints, however slow the machine.
    std::vector<std::string> slow = args;
    slow.insert(slow.end(), {"--max-rate", "150"});
    testing::ChildProcess child(slow, dir.File("log"));
    std::uint64_t committed = 0;
    while (committed == 0) {
      if (child.Poll()) FAIL("the import ended before it could be killed; see " + dir.File("log"));
      auto cp = ReadCheckpoint(dir.File("killed.cp"));
      if (auto* c = std::get_if<Checkpoint>(&cp)) committed = c->summary.total();
      if (committed == 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    testing::KillNow(child);
  }
  // Everything the checkpoint claims is in the store (maybe more).
  CHECK(killed.Count("SELECT count(*) FROM identifiers WHERE type = 'email'") > 0);

  testing::ResumeToEnd(args, dir, "killed", "full", 1000);
  CHECK(PersonsByIdentifiers(killed, false) == PersonsByIdentifiers(uninterrupted, false));
}

TEST_CASE("import takes the service's --model, and matches as it would", "[pg][import]") {
  TempDir dir;
  // The same name and birth date: one person under the built-in model
  // (docs/matching.md, "The matching model"), two under a model asking for more.
  const std::string input = dir.Write(
      "in.ndjson",
      R"({"identifiers":[{"type":"name","value":"Ann Lee"},{"type":"birth_date","value":"1990-01-01"},)"
      R"({"type":"cookie","value":"k1"}]})"
      "\n"
      R"({"identifiers":[{"type":"name","value":"Ann Lee"},{"type":"birth_date","value":"1990-01-01"},)"
      R"({"type":"cookie","value":"k2"}]})"
      "\n");
  const std::string model = dir.Write("model.toml", "threshold = 40.0\n");
  for (const auto& [options, persons] :
       {std::pair{std::vector<std::string>{}, 1}, {{"--model", model}, 2}}) {
    TestDatabase db;
    std::vector<std::string> args = {"--database-url", db.url(), "--workers", "1"};
    args.insert(args.end(), options.begin(), options.end());
    REQUIRE(testing::RunToEnd(testing::ImportArgs(input, dir, args), dir.File("log")) == 0);
    CHECK(db.Count("SELECT count(*) FROM persons") == persons);
  }
  // A model file that cannot be used stops the import before anything runs.
  TestDatabase db;
  const std::string bad = dir.Write("bad.toml", "threshold = \"high\"\n");
  CHECK(testing::RunToEnd(
            testing::ImportArgs(input, dir, {"--database-url", db.url(), "--model", bad}),
            dir.File("log")) != 0);
  CHECK(db.Count("SELECT count(*) FROM persons") == 0);
}

TEST_CASE("an import run again with the same record ids replaces instead of duplicating",
          "[pg][import]") {
  TestDatabase db;
  const auto Run = [&](const std::string& csv) {
    TempDir dir;  // a new checkpoint: a new run, not a resume
    const std::string input = dir.Write("contacts.csv", csv);
    REQUIRE(testing::RunToEnd(
                testing::ImportArgs(input, dir,
                                    {"--database-url", db.url(), "--map", "email=email", "--map",
                                     "phone=phone", "--record-id", "id", "--source", "crm"}),
                dir.File("log")) == 0);
  };
  Run("id,email,phone\nc1,anna@x.org,\nc2,bob@x.org,+4917012345678\nc3,carl@x.org,\n");
  REQUIRE(db.Count("SELECT count(*) FROM persons") == 3);
  // Bob changed his email; the others are sent unchanged.
  Run("id,email,phone\nc1,anna@x.org,\nc2,bob@y.org,+4917012345678\nc3,carl@x.org,\n");
  CHECK(db.Count("SELECT count(*) FROM persons") == 3);
  CHECK(db.Count("SELECT count(*) FROM records") == 3);
  CHECK(db.Count("SELECT count(*) FROM records WHERE source = 'crm'") == 3);
  CHECK(db.Count("SELECT count(*) FROM identifiers WHERE value = 'bob@x.org'") == 0);
  CHECK(db.Count("SELECT count(*) FROM identifiers i JOIN identifiers j ON i.person_id = "
                 "j.person_id WHERE i.value = 'bob@y.org' AND j.value = '+4917012345678'") == 1);
}

}  // namespace
}  // namespace idres::batch
