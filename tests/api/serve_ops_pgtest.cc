// Operating `idres serve`: /metrics, graceful stop, and options from flags,
// environment and a TOML file.
#include <signal.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <future>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>
#include <thread>

#include "normalize/lock_key.h"
#include "tests/api/http_client.h"
#include "tests/api/server_process.h"
#include "tests/support/idres_process.h"
#include "tests/support/test_db.h"

namespace idres::testing {
namespace {

TEST_CASE("/metrics shows requests, outcomes, lock waits and the pool", "[pg]") {
  TestDatabase db;
  ServerProcess server(db.url(), {"--pool-size", "4"});
  HttpClient client(server.port());
  const std::string record = R"({"record":{"identifiers":[{"type":"email","value":"m@x.org"}]}})";
  REQUIRE(client.Call("Upsert", record).status == 200);
  REQUIRE(client.Call("Upsert", record).status == 200);
  REQUIRE(client.Call("Upsert", "{").status == 400);
  const auto metrics = client.Get("/metrics");
  REQUIRE(metrics.status == 200);
  CHECK_THAT(metrics.content_type, Catch::StartsWith("text/plain"));
  const std::string& text = metrics.body;
  CHECK_THAT(text, Catch::Contains("idres_rpc_requests_total{method=\"Upsert\",code=\"ok\"} 2\n"));
  CHECK_THAT(
      text,
      Catch::Contains("idres_rpc_requests_total{method=\"Upsert\",code=\"invalid_argument\"} 1\n"));
  CHECK_THAT(text, Catch::Contains("idres_rpc_duration_seconds_count{method=\"Upsert\"} 3\n"));
  CHECK_THAT(text, Catch::Contains("idres_upsert_outcomes_total{outcome=\"created\"} 1\n"));
  CHECK_THAT(text, Catch::Contains("idres_upsert_outcomes_total{outcome=\"unchanged\"} 1\n"));
  CHECK_THAT(text, Catch::Contains("idres_lock_wait_seconds_count 2\n"));
  CHECK_THAT(text, Catch::Contains("idres_lock_timeouts_total 0\n"));
  CHECK_THAT(text, Catch::Contains("idres_pool_connections_in_use "));
  CHECK_THAT(text, Catch::Contains("idres_pool_connections 4\n"));
}

// Polls until `sql` counts at least one row; readiness, not timing.
void WaitFor(const TestDatabase& db, const std::string& sql) {
  for (int i = 0; i < 1200 && db.Count(sql) == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  REQUIRE(db.Count(sql) > 0);
}

TEST_CASE("SIGTERM stops accepting, finishes the call in flight, and exits 0", "[pg]") {
  TestDatabase db;
  ServerProcess server(db.url(), {"--lock-timeout-ms", "60000"});
  pqxx::connection holder(db.url());
  pqxx::work tx(holder);
  tx.exec("SELECT pg_advisory_xact_lock(" + std::to_string(LockKey("email", "inflight@x.org")) +
          ")");

  HttpClient client(server.port());
  auto in_flight = std::async(std::launch::async, [&] {
    return client.Call("Upsert",
                       R"({"record":{"identifiers":[{"type":"email","value":"inflight@x.org"}]}})");
  });
  WaitFor(db, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted");
  server.Signal(SIGTERM);
  // Stops accepting: new connections are refused once the listener closed.
  bool refused = false;
  for (int i = 0; i < 1200 && !refused; ++i) {
    try {
      HttpClient probe(server.port());
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    } catch (const std::exception&) {
      refused = true;
    }
  }
  CHECK(refused);
  tx.abort();  // the call in flight can now finish
  const auto reply = in_flight.get();
  CHECK(reply.status == 200);
  CHECK(server.Wait() == 0);
  CHECK(db.Count("SELECT count(*) FROM persons") == 1);
}

TEST_CASE("A call stuck past the shutdown bound is abandoned: exit 1, nothing written", "[pg]") {
  TestDatabase db;
  // The call would wait ten minutes for its lock: only abandoning it ends
  // the process while the lock is still held.
  ServerProcess server(db.url(), {"--lock-timeout-ms", "600000", "--shutdown-timeout-ms", "300"});
  pqxx::connection holder(db.url());
  pqxx::work tx(holder);
  tx.exec("SELECT pg_advisory_xact_lock(" + std::to_string(LockKey("email", "stuck@x.org")) + ")");
  HttpClient client(server.port());
  auto stuck = std::async(std::launch::async, [&] {
    try {
      return client
          .Call("Upsert", R"({"record":{"identifiers":[{"type":"email","value":"stuck@x.org"}]}})")
          .status;
    } catch (const std::exception&) {
      return 0;  // the connection closed without an answer
    }
  });
  WaitFor(db, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted");
  server.Signal(SIGTERM);
  CHECK(server.Wait() == 1);
  CHECK(stuck.get() == 0);
  CHECK_THAT(server.Log(), Catch::Contains("1 calls still running at the shutdown bound"));
  tx.abort();
  CHECK(db.Count("SELECT count(*) FROM persons") == 0);
}

std::string Batch(int n) {
  std::string out = R"({"records":[)";
  for (int i = 0; i < n; ++i) {
    out += std::string(i ? "," : "") + R"({"identifiers":[{"type":"cookie","value":"b)" +
           std::to_string(i) + "\"}]}";
  }
  return out + "]}";
}

std::string WriteFile(const std::string& name, const std::string& text) {
  const std::string path = "/tmp/idres-api-" + std::to_string(getpid()) + "-" + name;
  std::ofstream(path) << text;
  return path;
}

TEST_CASE("Options come from flags, then IDRES_ variables, then the TOML file", "[pg]") {
  TestDatabase db;
  const std::string config = WriteFile("serve.toml",
                                       "auth-token = \"from-file\"\n"
                                       "max-batch = 2\n"
                                       "max-identifiers = 1\n");
  ServerProcess server(ServeOptions{db.url(),
                                    {"--config", config, "--max-identifiers", "3"},
                                    {"IDRES_MAX_BATCH=3", "IDRES_MAX_IDENTIFIERS=2"},
                                    false,
                                    4,
                                    false});
  std::remove(config.c_str());
  HttpClient client(server.port());
  const std::map<std::string, std::string> auth = {{"Authorization", "Bearer from-file"}};
  CHECK(client.Call("Stats", "{}").status == 401);  // the file's token applies
  CHECK(client.Call("Stats", "{}", auth).status == 200);
  CHECK(client.Call("BatchUpsert", Batch(3), auth).status == 200);  // env 3 beats file 2
  CHECK(client.Call("BatchUpsert", Batch(4), auth).status == 429);
  const std::string three = R"({"record":{"identifiers":[{"type":"cookie","value":"1"},
      {"type":"cookie","value":"2"},{"type":"cookie","value":"3"}]}})";
  CHECK(client.Call("Upsert", three, auth).status == 200);  // flag 3 beats env 2 and file 1
}

struct Refusal {
  int status;
  std::string output;  // its standard error
};

// `idres serve` with `args` on a fresh database, ended by `timeout` if it
// serves instead of refusing to start.
Refusal Serve(const std::string& args) {
  TestDatabase db;
  const std::string log = WriteFile("refused.log", "");
  const std::string command = "timeout 30 " + IdresBinary() + " serve " + args +
                              " --database-url '" + db.url() + "' --listen 127.0.0.1:0 2>" + log;
  const int status = std::system(command.c_str());
  std::ifstream in(log);
  Refusal refusal{
      status, std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>())};
  std::remove(log.c_str());
  return refusal;
}

TEST_CASE("An unknown key in the TOML file stops serve with a clear message", "[pg]") {
  const std::string config = WriteFile("bad.toml", "max-bacth = 2\n");
  const Refusal refused = Serve("--config " + config);
  std::remove(config.c_str());
  CHECK(refused.status != 0);
  CHECK_THAT(refused.output, Catch::Contains("unknown key 'max-bacth'"));
}

TEST_CASE("A setting that would hang calls stops serve before it starts, with its reason", "[pg]") {
  // No lock timeout lets a transaction wait for ever; a batch of at most 0
  // records leaves an UpsertStream waiting for ever.
  for (const auto& [args, reason] :
       {std::pair{"--lock-timeout-ms 0", "--lock-timeout-ms must be at least 1"},
        std::pair{"--max-batch 0", "--max-batch must be at least 1"}}) {
    INFO(args);
    const Refusal refused = Serve(args);
    CHECK(refused.status != 0);
    CHECK_THAT(refused.output, Catch::Contains(reason));
  }
}

}  // namespace
}  // namespace idres::testing
