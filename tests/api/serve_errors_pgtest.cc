// Each error path of the service against the real `idres serve`: what the
// client sees, and that the server stays healthy afterwards.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <fstream>
#include <thread>

#include "api/idres/v1/identity.pb.h"
#include "tests/api/curl.h"
#include "tests/api/held_key.h"
#include "tests/api/http_client.h"
#include "tests/api/server_process.h"
#include "tests/support/test_db.h"

namespace idres::testing {
namespace {

using nlohmann::json;

constexpr std::size_t kFiftyMb = 50u * 1024 * 1024;
const std::string kUpsertPath = "/idres.v1.IdentityService/Upsert";

std::string CodeOf(const HttpReply& reply) {
  INFO("body: " << reply.body);
  return json::parse(reply.body).value("code", "");
}

void CheckStillHealthy(int port) {
  HttpClient client(port);
  CHECK(client.Get("/healthz").status == 200);
}

// A server with lock timeout `lock_timeout_ms`, and an upsert of one email
// whose lock key Hold() takes from another connection.
struct HeldEmailCase {
  explicit HeldEmailCase(const char* lock_timeout_ms)
      : server(db.url(), {"--lock-timeout-ms", lock_timeout_ms}), client(server.port()) {}
  HeldKey Hold() const { return HeldKey(db, "email", "held@example.com"); }

  TestDatabase db;
  ServerProcess server;
  HttpClient client;
  const std::string record =
      R"({"record":{"identifiers":[{"type":"email","value":"held@example.com"}]}})";
};

std::string Identifiers(int n) {
  std::string out;
  for (int i = 0; i < n; ++i) {
    out +=
        std::string(i ? "," : "") + R"({"type":"cookie","value":"c-)" + std::to_string(i) + "\"}";
  }
  return out;
}

TEST_CASE("A 50 MB body is refused as resource_exhausted before it is read whole", "[pg]") {
  TestDatabase db;
  ServerProcess server(db.url());

  SECTION("announced by Content-Length: answered after 1 MiB of it was sent") {
    RawConnection raw(server.port());
    raw.Send("POST " + kUpsertPath + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
             "Content-Length: " + std::to_string(kFiftyMb) + "\r\n\r\n");
    raw.Send(std::string(1 << 20, ' '));  // the answer may already be on its way
    const HttpReply reply = raw.ReadResponse();
    CHECK(reply.status == 429);
    CHECK(CodeOf(reply) == "resource_exhausted");
  }
  SECTION("chunked, with no length given: answered after 3 MiB of it was sent") {
    RawConnection raw(server.port());
    raw.Send("POST " + kUpsertPath + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
             "Transfer-Encoding: chunked\r\n\r\n");
    for (int i = 0; i < 3; ++i) raw.Send("100000\r\n" + std::string(1 << 20, ' ') + "\r\n");
    const HttpReply reply = raw.ReadResponse();
    CHECK(reply.status == 429);
    CHECK(CodeOf(reply) == "resource_exhausted");
  }
  SECTION("sent whole by curl") {
    const std::string big = "/tmp/idres-api-50mb-" + std::to_string(server.port()) + ".json";
    std::ofstream(big) << "{\"record\":{\"source\":\"" << std::string(kFiftyMb, 'x') << "\"}}";
    const auto reply = CurlCall(server.port(), "Upsert", "", {"--data-binary", "@" + big});
    std::remove(big.c_str());
    CHECK(reply.status == 429);
    CHECK(CodeOf(reply) == "resource_exhausted");
  }
  CheckStillHealthy(server.port());
  CHECK(db.Count("SELECT count(*) FROM persons") == 0);
}

TEST_CASE("Invalid UTF-8 is invalid_argument, in JSON and in binary proto", "[pg]") {
  TestDatabase db;
  ServerProcess server(db.url());
  HttpClient client(server.port());
  const auto in_json = client.Call(
      "Upsert", "{\"record\":{\"identifiers\":[{\"type\":\"email\",\"value\":\"a\xff@b.com\"}]}}");
  CHECK(in_json.status == 400);
  CHECK(CodeOf(in_json) == "invalid_argument");

  v1::Identifier identifier;
  identifier.set_type("email");
  std::string wire = identifier.SerializeAsString() + std::string("\x12\x03\x61\xff\x62", 5);
  // UpsertRequest{record: Record{identifiers: [that identifier]}}, by hand.
  std::string body = "\x0a" + std::string(1, static_cast<char>(wire.size() + 2)) + "\x0a" +
                     std::string(1, static_cast<char>(wire.size())) + wire;
  const auto in_proto = client.Post(kUpsertPath, "application/proto", body);
  CHECK(in_proto.status == 400);
  CHECK(CodeOf(in_proto) == "invalid_argument");
  CHECK(db.Count("SELECT count(*) FROM persons") == 0);
}

TEST_CASE("10,000 identifiers in one record are resource_exhausted", "[pg]") {
  TestDatabase db;
  ServerProcess server(db.url());
  HttpClient client(server.port());
  const auto reply =
      client.Call("Upsert", R"({"record":{"identifiers":[)" + Identifiers(10000) + "]}}");
  CHECK(reply.status == 429);
  CHECK(CodeOf(reply) == "resource_exhausted");
  CHECK(client.Call("Upsert", R"({"record":{"identifiers":[)" + Identifiers(100) + "]}}").status ==
        200);
  CHECK(db.Count("SELECT count(*) FROM persons") == 1);
}

TEST_CASE("A truncated request is invalid_argument and the connection closes", "[pg]") {
  TestDatabase db;
  ServerProcess server(db.url());

  SECTION("the body ends before its Content-Length") {
    RawConnection raw(server.port());
    raw.Send("POST " + kUpsertPath +
             " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
             R"({"record":{"identifiers":[)");
    raw.ShutdownSend();
    const HttpReply reply = raw.ReadResponse();
    CHECK(reply.status == 400);
    CHECK(CodeOf(reply) == "invalid_argument");
    CHECK(raw.ReadUntilClosed().empty());
  }
  SECTION("a binary message cut short") {
    v1::UpsertRequest request;
    auto* id = request.mutable_record()->add_identifiers();
    id->set_type("email");
    id->set_value("cut@example.com");
    const std::string wire = request.SerializeAsString();
    HttpClient client(server.port());
    const auto reply =
        client.Post(kUpsertPath, "application/proto", wire.substr(0, wire.size() - 4));
    CHECK(reply.status == 400);
    CHECK(CodeOf(reply) == "invalid_argument");
  }
  SECTION("JSON cut short") {
    HttpClient client(server.port());
    const auto reply = client.Call("Upsert", R"({"record":{"identifiers":[{"type":"em)");
    CHECK(reply.status == 400);
    CHECK(CodeOf(reply) == "invalid_argument");
  }
  CheckStillHealthy(server.port());
}

TEST_CASE("A client that never finishes its request is disconnected at the read deadline", "[pg]") {
  TestDatabase db;
  ServerProcess server(db.url(), {"--read-timeout-ms", "300"});
  SECTION("headers never finished") {
    RawConnection raw(server.port());
    raw.Send("POST " + kUpsertPath + " HTTP/1.1\r\nHost: x\r\nContent-Type: appl");
    CHECK(raw.ReadUntilClosed().empty());  // closed by the server, no answer
  }
  SECTION("body never sent") {
    RawConnection raw(server.port());
    raw.Send("POST " + kUpsertPath + " HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{");
    CHECK(raw.ReadUntilClosed().empty());
  }
  SECTION("idle keep-alive connection") {
    RawConnection raw(server.port());
    raw.Send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    CHECK(raw.ReadResponse().status == 200);
    CHECK(raw.ReadUntilClosed().empty());
  }
  CheckStillHealthy(server.port());
}

TEST_CASE("Bad input is invalid_argument, an unknown identifier is not_found", "[pg]") {
  TestDatabase db;
  ServerProcess server(db.url());
  HttpClient client(server.port());
  const auto unknown_field = client.Call(
      "Upsert", R"({"record":{"identifiers":[{"type":"email","value":"a@b.co"}]},"x":1})");
  CHECK(unknown_field.status == 400);
  CHECK(CodeOf(unknown_field) == "invalid_argument");
  const auto no_valid =
      client.Call("Upsert", R"({"record":{"identifiers":[{"type":"phone","value":"banana"}]}})");
  CHECK(no_valid.status == 400);
  CHECK(CodeOf(no_valid) == "invalid_argument");
  CHECK_THAT(no_valid.body, Catch::Contains("banana"));
  const auto nested = client.Call(
      "Upsert",
      R"({"record":{"identifiers":[{"type":"email","value":"a@b.co"}],"traits":{"a":{"b":1}}}})");
  CHECK(nested.status == 400);
  CHECK(CodeOf(nested) == "invalid_argument");
  const auto missing =
      client.Call("Lookup", R"({"identifier":{"type":"email","value":"nobody@b.co"}})");
  CHECK(missing.status == 404);
  CHECK(CodeOf(missing) == "not_found");
  CHECK(CodeOf(client.Call("GetPerson", R"({"personId":"999"})")) == "not_found");
  CHECK(db.Count("SELECT count(*) FROM persons") == 0);
}

TEST_CASE("A lock held past the lock timeout is unavailable, and the retry succeeds", "[pg]") {
  HeldEmailCase c("200");
  auto& [db, server, client, record] = c;
  {
    const HeldKey held = c.Hold();
    const auto busy = client.Call("Upsert", record);
    CHECK(busy.status == 503);
    CHECK(CodeOf(busy) == "unavailable");
  }
  CHECK(client.Call("Upsert", record).status == 200);
  const auto metrics = client.Get("/metrics");
  CHECK_THAT(metrics.body, Catch::Contains("idres_lock_timeouts_total 1\n"));
}

TEST_CASE("Connect-Timeout-Ms ends a call waiting on a held lock as deadline_exceeded", "[pg]") {
  // A lock timeout far beyond the call's deadline: only the deadline can end
  // the wait early.
  HeldEmailCase c("30000");
  auto& [db, server, client, record] = c;
  {
    const HeldKey held = c.Hold();
    const auto late = client.Call("Upsert", record, {{"Connect-Timeout-Ms", "300"}});
    CHECK(late.status == 504);
    CHECK(CodeOf(late) == "deadline_exceeded");
    CHECK(db.Count("SELECT count(*) FROM persons") == 0);
    const auto malformed = client.Call("Upsert", record, {{"Connect-Timeout-Ms", "0.3"}});
    CHECK(malformed.status == 400);
    CHECK(CodeOf(malformed) == "invalid_argument");
  }
  CHECK(client.Call("Upsert", record, {{"Connect-Timeout-Ms", "30000"}}).status == 200);
  CHECK(db.Count("SELECT count(*) FROM persons") == 1);
  CHECK_THAT(client.Get("/metrics").body,
             Catch::Contains(R"(method="Upsert",code="deadline_exceeded"} 1)"));
}

TEST_CASE("With the database gone, calls are unavailable and /healthz is 503", "[pg]") {
  TestDatabase db;
  ServerProcess server(db.url());
  HttpClient client(server.port());
  REQUIRE(client.Call("Stats", "{}").status == 200);
  pqxx::connection admin(AdminUrl());
  pqxx::nontransaction(admin).exec("ALTER DATABASE \"" + db.name() + "\" ALLOW_CONNECTIONS false");
  pqxx::nontransaction(admin).exec(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + db.name() + "'");
  const auto down = client.Call("Stats", "{}");
  CHECK(down.status == 503);
  CHECK(CodeOf(down) == "unavailable");
  CHECK_THAT(down.body, !Catch::Contains("FATAL") && !Catch::Contains("connection to server"));
  const auto health = client.Get("/healthz");
  CHECK(health.status == 503);
  CHECK(json::parse(health.body)["database"] == "down");
  pqxx::nontransaction(admin).exec("ALTER DATABASE \"" + db.name() + "\" ALLOW_CONNECTIONS true");
}

}  // namespace
}  // namespace idres::testing
