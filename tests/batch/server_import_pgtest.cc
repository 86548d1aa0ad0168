// `idres import --server`: the real binaries, a served and a direct store.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <thread>

#include "batch/checkpoint.h"
#include "tests/api/server_process.h"
#include "tests/batch/data_sets.h"
#include "tests/batch/resume_steps.h"
#include "tests/batch/splink_args.h"
#include "tests/batch/store_snapshot.h"
#include "tests/support/idres_process.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_db.h"

namespace idres::batch {
namespace {

using testing::TempDir;
using testing::TestDatabase;

// A running `idres serve` on `store` for one test (tests/api/server_process.h).
struct Served : testing::ServerProcess {
  explicit Served(const TestDatabase& store, std::vector<std::string> options = {})
      : ServerProcess(store.url(), std::move(options)) {}
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port()); }
};

TEST_CASE("import --server goes through the service's BatchUpsert to the same store",
          "[pg][import][server]") {
  const std::string splink = testing::DataSet("splink_fake_1000.csv");
  TempDir dir;
  TestDatabase direct;
  std::vector<std::string> args = testing::SplinkImportArgs(splink, dir, "direct");
  args.insert(args.end(), {"--database-url", direct.url()});
  REQUIRE(testing::RunToEnd(args, dir.File("log")) == 0);

  TestDatabase served;
  Served server(served);
  args = testing::SplinkImportArgs(splink, dir, "served");
  args.insert(args.end(), {"--server", server.url()});
  REQUIRE(testing::RunToEnd(args, dir.File("log")) == 0);

  CHECK(testing::PersonsByIdentifiers(served, false) ==
        testing::PersonsByIdentifiers(direct, false));
  CHECK(testing::ReadFile(dir.File("served.dead")) == testing::ReadFile(dir.File("direct.dead")));
}

// The splink import with its row id as the only identifier, a postal code
// (so no record is rejected): a postal code alone brings no blocking key,
// so each application of a record creates a person of its own. A
// record applied twice is a second person: exactly what a resume without
// receipts would do.
std::vector<std::string> WeakImportArgs(const std::string& input, const TempDir& dir,
                                        const std::string& tag) {
  std::vector<std::string> args = testing::SplinkImportArgs(input, dir, tag);
  for (const char* map : {"email=email", "birth_date=dob"}) {
    auto at = std::find(args.begin(), args.end(), map);
    REQUIRE(at != args.end());
    args.erase(at - 1, at + 1);
  }
  *std::find(args.begin(), args.end(), "name=first_name+surname") = "postal_code=unique_id";
  args.insert(args.end(), {"--workers", "3", "--batch", "10"});
  return args;
}

// Whether `store` holds records the checkpoint does not claim: with weak
// records only, every record stored so far made one person.
bool CommittedBeyondCheckpoint(const TestDatabase& store, const std::string& checkpoint) {
  auto cp = ReadCheckpoint(checkpoint);
  auto* c = std::get_if<Checkpoint>(&cp);
  if (c == nullptr) return false;
  const std::uint64_t stored = c->summary.total() - c->summary.rejected;
  return store.Count("SELECT count(*) FROM persons") > static_cast<std::int64_t>(stored);
}

// Runs the import `args` and SIGKILLs it while the store holds records
// after the checkpoint's position (the case receipts are for); starts it
// again with --resume and kills it again until a kill lands so.
void KillBeyondCheckpoint(std::vector<std::string> args, const TestDatabase& store,
                          const std::string& checkpoint, const std::string& log) {
  // Capped at 150 records/s a run takes several seconds: long enough to be
  // caught between two checkpoints, however slow the machine.
  args.insert(args.end(), {"--max-rate", "150"});
  for (;;) {
    {
      testing::ChildProcess child(args, log);
      while (!CommittedBeyondCheckpoint(store, checkpoint)) {
        if (child.Poll()) FAIL("the import ended before it could be killed; see " + log);
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
      testing::KillNow(child);
    }
    // A checkpoint written between the look and the kill may claim it all.
    if (CommittedBeyondCheckpoint(store, checkpoint)) return;
    if (args.back() != "--resume") args.push_back("--resume");
  }
}

TEST_CASE(
    "kill -9 in the middle of an import --server, then --resume, gives the uninterrupted store",
    "[pg][import][server]") {
  const std::string splink = testing::DataSet("splink_fake_1000.csv");
  TempDir dir;
  TestDatabase uninterrupted;
  std::vector<std::string> full = WeakImportArgs(splink, dir, "full");
  full.insert(full.end(), {"--database-url", uninterrupted.url()});
  REQUIRE(testing::RunToEnd(full, dir.File("log")) == 0);

  TestDatabase killed;
  Served server(killed);
  std::vector<std::string> args = WeakImportArgs(splink, dir, "killed");
  args.insert(args.end(), {"--server", server.url()});
  KillBeyondCheckpoint(args, killed, dir.File("killed.cp"), dir.File("log"));
  CHECK(killed.Count("SELECT count(*) FROM import_receipts") > 0);

  testing::ResumeToEnd(args, dir, "killed", "full", 1000);
  // A record applied twice is one person too many.
  CHECK(killed.Count("SELECT count(*) FROM persons") ==
        uninterrupted.Count("SELECT count(*) FROM persons"));
  CHECK(testing::PersonsByIdentifiers(killed, false) ==
        testing::PersonsByIdentifiers(uninterrupted, false));
  // The complete run asked the service to forget its receipts.
  CHECK(killed.Count("SELECT count(*) FROM import_receipts") == 0);
}

// An NDJSON file of three records, the middle one carrying `traits` traits
// of 60,000 bytes each.
std::string BigBetweenSmall(const TempDir& dir, int traits) {
  std::string big = R"({"identifiers":[{"type":"email","value":"big@x.org"}],"traits":{)";
  for (int i = 0; i < traits; ++i) {
    big += (i > 0 ? ",\"k" : "\"k") + std::to_string(i) + "\":\"" + std::string(60000, 'y') + '"';
  }
  big += "}}";
  return dir.Write("in.ndjson", R"({"identifiers":[{"type":"email","value":"a@x.org"}]})"
                                "\n" +
                                    big + "\n" +
                                    R"({"identifiers":[{"type":"email","value":"b@x.org"}]})"
                                    "\n");
}

TEST_CASE("import --server refuses a record the service cannot take, and only that record",
          "[pg][import][server]") {
  TempDir dir;
  TestDatabase store;
  Served server(store);

  // Over the service's 1 MiB body limit alone, yet within the engine's
  // limits: 20 traits of 60,000 bytes.
  const std::string ndjson = BigBetweenSmall(dir, 20);
  CHECK(testing::RunToEnd(testing::ImportArgs(ndjson, dir, {"--server", server.url()}),
                          dir.File("log")) == 0);
  CHECK(store.Count("SELECT count(*) FROM persons") == 2);
  CHECK(testing::ReadFile(dir.File("dead")).find("request body over the limit") !=
        std::string::npos);

  // Latin-1 bytes: JSON cannot carry them, and U+FFFD would store other
  // text. As on the direct path, such a name is rejected and the record goes
  // in without it; such a trait refuses the record; such a file name (the
  // records' default source) is only logged.
  const std::string csv = dir.Write("caf\xe9.csv",
                                    "email,name,city\n"
                                    "lat1@x.org,Jos\xe9 M\xfcller,Berlin\n"
                                    "lat2@x.org,Ann,K\xf6ln\n");
  CHECK(testing::RunToEnd(testing::ImportArgs(csv, dir,
                                              {"--server", server.url(), "--map", "email=email",
                                               "--map", "name=name", "--trait", "city=city"}),
                          dir.File("log")) == 0);
  CHECK(store.Count("SELECT count(*) FROM persons") == 3);
  CHECK(store.Count("SELECT count(*) FROM identifiers WHERE value = 'lat1@x.org'") == 1);
  CHECK(store.Count("SELECT count(*) FROM identifiers WHERE type = 'name'") == 0);
  const std::string dead = testing::ReadFile(dir.File("dead"));
  CHECK(dead.find("not valid UTF-8") != std::string::npos);
  CHECK(dead.find("a trait or the region is not valid UTF-8") != std::string::npos);
}

TEST_CASE("import --server to a service taking smaller bodies refuses only what it cannot take",
          "[pg][import][server]") {
  TempDir dir;
  TestDatabase store;
  Served server(store, {"--max-body-bytes", "262144"});
  // 300 kB: under the client's own limit per request, over this service's.
  const std::string input = BigBetweenSmall(dir, 5);
  CHECK(testing::RunToEnd(testing::ImportArgs(input, dir, {"--server", server.url()}),
                          dir.File("log")) == 0);
  CHECK(store.Count("SELECT count(*) FROM persons") == 2);
  CHECK(testing::ReadFile(dir.File("dead")).find("request body over the limit") !=
        std::string::npos);
}

}  // namespace
}  // namespace idres::batch
