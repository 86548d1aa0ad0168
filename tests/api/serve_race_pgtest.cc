// The upsert races over HTTP: 64 concurrent connections to one `idres
// serve`, and two `idres serve` processes on one database. (That the engine's
// locks are what makes these pass is shown by the engine's race tests, which
// switch them off; here the point is that the service keeps the guarantee.)
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "tests/api/http_client.h"
#include "tests/api/server_process.h"
#include "tests/support/race.h"
#include "tests/support/test_db.h"

namespace idres::testing {
namespace {

using nlohmann::json;

constexpr int kConnections = 64;

// One open connection per request, all opened before the race starts;
// request i goes to ports[i % ports.size()].
std::vector<std::unique_ptr<HttpClient>> Connect(const std::vector<int>& ports) {
  std::vector<std::unique_ptr<HttpClient>> clients;
  for (int i = 0; i < kConnections; ++i) {
    clients.push_back(std::make_unique<HttpClient>(ports[i % ports.size()]));
  }
  return clients;
}

// Sends `body_of(i)` as an Upsert on connection i, all at once; how many
// answered 200.
int RaceUpserts(std::vector<std::unique_ptr<HttpClient>>& clients,
                const std::function<std::string(int)>& body_of) {
  std::atomic<int> ok{0};
  std::mutex mu;
  std::vector<std::string> failures;
  RunConcurrently(kConnections, [&](int i) {
    const auto reply = clients[i]->Call("Upsert", body_of(i));
    if (reply.status == 200) {
      ++ok;
    } else {
      std::lock_guard lock(mu);
      failures.push_back(std::to_string(reply.status) + " " + reply.body);
    }
  });
  for (const auto& f : failures) UNSCOPED_INFO("failed upsert: " << f);
  return ok;
}

// The races are about correctness, not about how long a lock may be waited
// for: 64 upserts of one person queue on one lock, which on a loaded
// 2-core machine can outlast the default 2 s timeout (a retryable 503).
const std::vector<std::string> kPatientLocks = {"--lock-timeout-ms", "60000"};
std::vector<std::string> Args(std::vector<std::string> more) {
  more.insert(more.end(), kPatientLocks.begin(), kPatientLocks.end());
  return more;
}

const std::string kIdentical = R"({"record":{"identifiers":[
    {"type":"email","value":"twin@example.com"},{"type":"phone","value":"+4917011112222"}]}})";

// Person {email, cookie}; then request i reaches it by email (even i) or by
// cookie (odd i) and sets its own trait key; no key may be lost.
void CheckNoLostUpdate(const TestDatabase& db, const std::vector<int>& ports) {
  HttpClient seed(ports[0]);
  const auto created = seed.Call("Upsert", R"({"record":{"identifiers":[
      {"type":"email","value":"anna@example.com"},{"type":"cookie","value":"ck-anna"}]}})");
  REQUIRE(created.status == 200);
  auto clients = Connect(ports);
  const int ok = RaceUpserts(clients, [](int i) {
    const std::string by = i % 2 == 0 ? R"({"type":"email","value":"anna@example.com"})"
                                      : R"({"type":"cookie","value":"ck-anna"})";
    return R"({"record":{"identifiers":[)" + by + R"(],"traits":{"k)" + std::to_string(i) +
           "\":" + std::to_string(i) + "}}}";
  });
  CHECK(ok == kConnections);
  CHECK(db.Count("SELECT count(*) FROM persons") == 1);
  const std::string id = json::parse(created.body)["personId"];
  const auto person = json::parse(seed.Call("GetPerson", R"({"personId":")" + id + "\"}").body);
  CHECK(person["person"]["traits"].size() == kConnections);
}

TEST_CASE("64 connections sending the same new person at once create one person", "[pg]") {
  TestDatabase db;
  ServerProcess server(db.url(), Args({"--pool-size", "32"}));
  auto clients = Connect({server.port()});
  CHECK(RaceUpserts(clients, [](int) { return kIdentical; }) == kConnections);
  CHECK(db.Count("SELECT count(*) FROM persons") == 1);
  CHECK(db.Count("SELECT count(*) FROM identifiers") == 2);
}

TEST_CASE("64 connections updating one person through different keys lose nothing", "[pg]") {
  TestDatabase db;
  ServerProcess server(db.url(), Args({"--pool-size", "32"}));
  CheckNoLostUpdate(db, {server.port()});
}

TEST_CASE("Two idres serve processes on one database racing on one person make one person",
          "[pg]") {
  TestDatabase db;
  ServerProcess a(db.url(), Args({}));
  ServerProcess b(db.url(), Args({}));
  auto clients = Connect({a.port(), b.port()});
  CHECK(RaceUpserts(clients, [](int) { return kIdentical; }) == kConnections);
  CHECK(db.Count("SELECT count(*) FROM persons") == 1);
}

TEST_CASE("Two idres serve processes updating one person through different keys lose nothing",
          "[pg]") {
  TestDatabase db;
  ServerProcess a(db.url(), Args({}));
  ServerProcess b(db.url(), Args({}));
  CheckNoLostUpdate(db, {a.port(), b.port()});
}

}  // namespace
}  // namespace idres::testing
