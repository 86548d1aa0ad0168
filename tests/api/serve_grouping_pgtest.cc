// `idres serve` applies single Upserts that queue for a busy connection in
// one transaction (Engine::Submit, engine/detail/upsert_queue.h), and each caller still gets its
// own answer. The one connection is held by an upsert waiting on a key lock
// that the test holds; the others queue behind it.
#include <catch2/catch.hpp>
#include <future>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "normalize/lock_key.h"
#include "tests/api/http_client.h"
#include "tests/api/server_process.h"
#include "tests/support/test_db.h"

namespace idres::testing {
namespace {

std::string UpsertOf(const std::string& email) {
  return R"({"record":{"identifiers":[{"type":"email","value":")" + email + R"("}]}})";
}

// The value of metric `name` (without labels) on /metrics.
long Metric(HttpClient& client, const std::string& name) {
  const std::string text = client.Get("/metrics").body;
  std::smatch m;
  if (!std::regex_search(text, m, std::regex("\n" + name + " (\\d+)\n"))) return -1;
  return std::stol(m[1]);
}

// Polls until `done`; a sync point between processes, nothing asserted on time.
template <typename F>
void AwaitTrue(F done) {
  for (int i = 0; i < 2400 && !done(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  REQUIRE(done());
}

constexpr int kQueued = 5;

// Holds the key of held@x.org, sends an Upsert of it (which takes `server`'s
// only connection and waits), queues kQueued Upserts of new persons behind
// it, then lets go. Every reply, the held one first.
std::vector<HttpReply> QueueBehindHeldKey(const TestDatabase& db, const ServerProcess& server) {
  HttpClient observer(server.port());
  pqxx::connection holder(db.url());
  pqxx::work held(holder);
  held.exec("SELECT pg_advisory_xact_lock(" + std::to_string(LockKey("email", "held@x.org")) + ")");
  std::vector<std::future<HttpReply>> calls;
  calls.push_back(std::async(std::launch::async, [&] {
    return HttpClient(server.port()).Call("Upsert", UpsertOf("held@x.org"));
  }));
  // The only connection now waits on the key the test holds.
  AwaitTrue([&] {
    // pg_locks is the cluster's: other tests' databases wait on theirs.
    return db.Count(
               "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND "
               "database = (SELECT oid FROM pg_database WHERE datname = current_database())") == 1;
  });
  for (int i = 0; i < kQueued; ++i) {
    calls.push_back(std::async(std::launch::async, [&, i] {
      return HttpClient(server.port()).Call("Upsert", UpsertOf("q" + std::to_string(i) + "@x.org"));
    }));
  }
  AwaitTrue([&] { return Metric(observer, "idres_upserts_queued") == kQueued; });
  held.abort();
  std::vector<HttpReply> replies;
  for (auto& call : calls) replies.push_back(call.get());
  return replies;
}

// Each queued Upsert created its own person.
void CheckEachCreatedOne(const TestDatabase& db, const std::vector<HttpReply>& replies) {
  std::set<std::string> persons;
  for (const HttpReply& reply : replies) {
    REQUIRE(reply.status == 200);
    const auto answer = nlohmann::json::parse(reply.body);
    CHECK(answer["outcome"] == "OUTCOME_CREATED");
    persons.insert(answer["personId"].get<std::string>());
  }
  CHECK(persons.size() == kQueued + 1);
  CHECK(db.Count("SELECT count(*) FROM persons") == kQueued + 1);
}

// Serves with `args`, queues Upserts behind a held one, and checks each
// reply and the batches /metrics counts.
void QueueAndCount(const std::vector<std::string>& args, long groups, long grouped) {
  TestDatabase db;
  ServerProcess server(db.url(), args);
  CheckEachCreatedOne(db, QueueBehindHeldKey(db, server));
  HttpClient client(server.port());
  CHECK(Metric(client, "idres_upsert_groups_total") == groups);
  CHECK(Metric(client, "idres_upserts_grouped_total") == grouped);
  CHECK(Metric(client, "idres_upsert_group_failures_total") == 0);
  CHECK(Metric(client, "idres_upserts_queued") == 0);
}

TEST_CASE("Upserts queued behind a busy connection go in together, each with its answer", "[pg]") {
  QueueAndCount({"--pool-size", "1", "--lock-timeout-ms", "60000"}, 1, kQueued);
}

TEST_CASE("by default half the pool applies upserts: a pool of 2 has one runner", "[pg]") {
  // The held upsert takes the one runner; the second connection stays free
  // for other methods, and the queue waits for the runner.
  QueueAndCount({"--pool-size", "2", "--lock-timeout-ms", "60000"}, 1, kQueued);
}

TEST_CASE("with --group-max-records 1 every queued Upsert has its own transaction", "[pg]") {
  QueueAndCount({"--pool-size", "1", "--lock-timeout-ms", "60000", "--group-max-records", "1"}, 0,
                0);
}

}  // namespace
}  // namespace idres::testing
