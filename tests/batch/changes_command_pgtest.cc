// `idres changes`: the real binary on a real store, directly and through a
// running service; --follow printing new changes as they come and stopping
// on a signal, and a second run going on after the first one's position.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "engine/engine.h"
#include "tests/api/server_process.h"
#include "tests/support/idres_process.h"
#include "tests/support/records.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_db.h"

namespace idres::testing {
namespace {

using nlohmann::json;

// The NDJSON lines in `log`, the command's output (its own log lines, on
// stderr, do not start with '{').
std::vector<json> Lines(const std::string& log) {
  std::vector<json> out;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.front() == '{') out.push_back(json::parse(line));
  }
  return out;
}

std::vector<std::int64_t> Positions(const std::vector<json>& lines) {
  std::vector<std::int64_t> out;
  for (const json& l : lines) out.push_back(l["position"]);
  return out;
}

std::unique_ptr<Engine> OpenEngine(const TestDatabase& db) {
  EngineOptions o;
  o.database_url = db.url();
  o.pool_size = 1;
  return std::make_unique<Engine>(std::move(o));
}

// Four changes: a created, b created, b merged into a, a updated. Their ids.
std::pair<std::int64_t, std::int64_t> MakeChanges(Engine& engine) {
  const std::int64_t a = engine.Upsert(EmailRecord("a@x.org")).person_id;
  Record b;
  b.identifiers.push_back({"cookie", "k"});
  const std::int64_t b_id = engine.Upsert(b).person_id;
  Record both = EmailRecord("a@x.org");
  both.identifiers.push_back({"cookie", "k"});
  REQUIRE(engine.Upsert(both).outcome == Outcome::kMerged);
  return {a, b_id};
}

std::vector<std::string> Changes(std::vector<std::string> args) {
  args.insert(args.begin(), {IdresBinary(), "changes"});
  return args;
}

TEST_CASE("idres changes prints the feed as NDJSON, after --after, at most --limit",
          "[pg][changes]") {
  TestDatabase db;
  const auto [a, b] = MakeChanges(*OpenEngine(db));
  TempDir dir;
  REQUIRE(RunToEnd(Changes({"--database-url", db.url()}), dir.File("all")) == 0);
  const std::vector<json> all = Lines(ReadFile(dir.File("all")));
  REQUIRE(all.size() == 4);
  CHECK(Positions(all) == std::vector<std::int64_t>{1, 2, 3, 4});
  CHECK(all[0]["personId"] == a);
  CHECK(all[0]["kind"] == "created");
  CHECK_FALSE(all[0].contains("otherId"));
  CHECK(all[0]["changedAt"].is_string());
  CHECK(all[2]["personId"] == b);
  CHECK(all[2]["kind"] == "merged");
  CHECK(all[2]["otherId"] == a);
  CHECK(all[3]["kind"] == "updated");

  REQUIRE(RunToEnd(Changes({"--database-url", db.url(), "--after", "1", "--limit", "2"}),
                   dir.File("some")) == 0);
  CHECK(Positions(Lines(ReadFile(dir.File("some")))) == std::vector<std::int64_t>{2, 3});
  REQUIRE(RunToEnd(Changes({"--database-url", db.url(), "--after", "4"}), dir.File("none")) == 0);
  CHECK(Lines(ReadFile(dir.File("none"))).empty());
}

TEST_CASE("idres changes --server prints what the database run prints, with the service's token",
          "[pg][changes][server]") {
  TestDatabase db;
  MakeChanges(*OpenEngine(db));
  ServerProcess server(db.url(), {"--auth-token", "secret"});
  const std::string url = "http://127.0.0.1:" + std::to_string(server.port());
  TempDir dir;
  REQUIRE(RunToEnd(Changes({"--database-url", db.url()}), dir.File("direct")) == 0);
  REQUIRE(RunToEnd(Changes({"--server", url, "--auth-token", "secret"}), dir.File("served")) == 0);
  const std::vector<json> direct = Lines(ReadFile(dir.File("direct")));
  REQUIRE(direct.size() == 4);
  CHECK(Lines(ReadFile(dir.File("served"))) == direct);
  CHECK(RunToEnd(Changes({"--server", url}), dir.File("refused")) == 1);
  CHECK(Lines(ReadFile(dir.File("refused"))).empty());
}

// Waits until `log` holds `n` change lines; fails the test after a while.
std::vector<json> AwaitLines(const ChildProcess& child, std::size_t n) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (true) {
    std::vector<json> lines = Lines(child.Log());
    if (lines.size() >= n) return lines;
    if (std::chrono::steady_clock::now() > give_up) {
      FAIL("saw " << lines.size() << " of " << n << " lines:\n" << child.Log());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

TEST_CASE("idres changes --follow prints new changes once as they come and stops on a signal",
          "[pg][changes]") {
  TestDatabase db;
  auto engine = OpenEngine(db);
  TempDir dir;
  std::int64_t last = 0;
  {
    ChildProcess follower(Changes({"--follow", "--poll-ms", "20", "--database-url", db.url()}),
                          dir.File("first"));
    REQUIRE(engine->Upsert(EmailRecord("one@x.org")).ok());
    AwaitLines(follower, 1);
    MakeChanges(*engine);
    AwaitLines(follower, 5);
    CHECK(follower.Stop() == 0);
    const std::vector<json> all = Lines(follower.Log());
    CHECK(Positions(all) == std::vector<std::int64_t>{1, 2, 3, 4, 5});
    last = all.back()["position"];
  }
  // Written while nobody followed; a new follower goes on after the last
  // position the first one printed.
  REQUIRE(engine->Upsert(EmailRecord("two@x.org")).ok());
  ChildProcess again(Changes({"--follow", "--poll-ms", "20", "--after", std::to_string(last),
                              "--database-url", db.url()}),
                     dir.File("again"));
  REQUIRE(engine->Upsert(EmailRecord("three@x.org")).ok());
  AwaitLines(again, 2);
  again.Signal(SIGINT);
  CHECK(again.Wait() == 0);
  CHECK(Positions(Lines(again.Log())) == std::vector<std::int64_t>{6, 7});
}

}  // namespace
}  // namespace idres::testing
