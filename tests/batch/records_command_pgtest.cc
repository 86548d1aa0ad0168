// `idres delete-record` and `idres forget`: the real binary on a real store.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "engine/engine.h"
#include "tests/support/idres_process.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_db.h"

namespace idres::testing {
namespace {

using nlohmann::json;

// Runs `idres <args...>` to its end; its exit status and the JSON line it
// printed (null when none).
std::pair<int, json> Run(std::vector<std::string> args) {
  TempDir dir;
  args.insert(args.begin(), IdresBinary());
  const int status = RunToEnd(args, dir.File("log"));
  std::ifstream in(dir.File("log"));
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.front() == '{') return {status, json::parse(line)};
  }
  return {status, json()};
}

// Upserts record crm/`id` holding `identifiers` into `db`; its person.
std::int64_t Store(const TestDatabase& db, const std::string& id,
                   std::vector<RawIdentifier> identifiers) {
  EngineOptions o;
  o.database_url = db.url();
  o.pool_size = 1;
  Engine engine(std::move(o));
  Record r;
  r.identifiers = std::move(identifiers);
  r.source = "crm";
  r.record_id = id;
  return engine.Upsert(r).person_id;
}

TEST_CASE("delete-record and forget from the command line", "[pg][records]") {
  TestDatabase db;
  const std::int64_t anna = Store(db, "a", {{"email", "anna@x.org"}});
  Store(db, "b", {{"email", "anna@x.org"}, {"phone", "+4917012345678"}});
  auto [status, out] =
      Run({"delete-record", "--database-url", db.url(), "--source", "crm", "--record-id", "b"});
  CHECK(status == 0);
  CHECK(out["personId"] == anna);
  CHECK(out["personRemoved"] == false);
  CHECK(db.Count("SELECT count(*) FROM identifiers WHERE type = 'phone'") == 0);
  std::tie(status, out) =
      Run({"delete-record", "--database-url", db.url(), "--source", "crm", "--record-id", "b"});
  CHECK(status == 1);  // nothing left to delete

  // A steward's calls: split the person's two records apart, judge, merge
  // again, and read its history.
  Store(db, "c", {{"email", "anna@x.org"}});
  std::tie(status, out) = Run({"split", "--database-url", db.url(), "--person",
                               std::to_string(anna), "--group", "crm:a", "--group", "crm:c"});
  CHECK(status == 0);
  REQUIRE(out["partIds"].size() == 1);
  const std::int64_t part = out["partIds"][0];
  std::tie(status, out) = Run({"never-match", "--database-url", db.url(), "--persons",
                               std::to_string(anna), std::to_string(part)});
  CHECK(status == 0);
  CHECK(out["judged"] == "never");
  std::tie(status, out) = Run({"always-match", "--database-url", db.url(), "--persons",
                               std::to_string(anna), std::to_string(part)});
  CHECK(status == 0);
  CHECK(out["personId"] == anna);
  std::tie(status, out) =
      Run({"history", "--database-url", db.url(), "--person", std::to_string(anna)});
  CHECK(status == 0);
  CHECK(out["kind"] == "created");  // the first line
  std::tie(status, out) = Run({"split", "--database-url", db.url(), "--person",
                               std::to_string(anna), "--group", "nocolon"});
  CHECK(status == 2);

  std::tie(status, out) =
      Run({"forget", "--database-url", db.url(), "--person", std::to_string(anna)});
  CHECK(status == 0);
  CHECK(out["erasedIds"] == json::array({anna, part}));  // part was merged into anna
  CHECK(db.Count("SELECT count(*) FROM persons") == 0);
  CHECK(db.Count("SELECT count(*) FROM removed_persons WHERE why = 'erased'") == 2);
  std::tie(status, out) =
      Run({"forget", "--database-url", db.url(), "--person", std::to_string(anna)});
  CHECK(status == 1);
}

}  // namespace
}  // namespace idres::testing
