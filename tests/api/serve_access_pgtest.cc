// Access and audit against the real `idres serve`: tokens with roles over
// Connect and gRPC, the tokens file re-read on SIGHUP, per-token limits,
// and the audit log `idres audit` prints after steward and admin actions.
#include <signal.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "api/service/auth.h"
#include "api/service/status.h"
#include "client/grpc_client.h"
#include "tests/api/http_client.h"
#include "tests/api/server_process.h"
#include "tests/support/idres_process.h"
#include "tests/support/test_db.h"

namespace idres::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// One token of the file: its name, the token itself, its entry's other lines.
struct Token {
  std::string name, token, lines;
};

// A tokens file in a temporary folder, written again by Write.
struct TokensFile {
  fs::path path = fs::temp_directory_path() /
                  ("idres-tokens-" + std::to_string(getpid()) + "-" + std::to_string(++count) +
                   ".toml");
  static inline int count = 0;
  explicit TokensFile(const std::vector<Token>& tokens) { Write(tokens); }
  ~TokensFile() { fs::remove(path); }
  void Write(const std::vector<Token>& tokens) const {
    std::ofstream out(path);
    for (const Token& t : tokens) {
      out << "[tokens." << t.name << "]\nsha256 = \"" << api::HexOf(api::DigestOf(t.token))
          << "\"\n"
          << t.lines << "\n";
    }
  }
  void WriteText(const std::string& text) const { std::ofstream(path) << text; }
};

const Token kIngest{"signup-pipeline", "tok-ingest", "roles = [\"ingest\"]"};
const Token kRead{"reporting", "tok-read", "roles = [\"read\"]"};
const Token kSteward{"alice", "tok-steward", "roles = [\"steward\"]"};
const Token kSteward2{"bob", "tok-steward-2", "roles = [\"steward\"]"};
const Token kAdmin{"root", "tok-admin", "roles = [\"admin\"]"};

client::HttpHeaders Bearer(const Token& t) { return {{"Authorization", "Bearer " + t.token}}; }

HttpReply Call(HttpClient& client, const std::string& method, const std::string& body,
               const Token& t) {
  return client.Call(method, body, Bearer(t));
}

std::string UpsertBody(const std::string& email, const std::string& record_id) {
  return R"({"record":{"identifiers":[{"type":"email","value":")" + email +
         R"("},{"type":"name","value":"Anna Schmidt"}],"source":"crm","recordId":")" + record_id +
         R"("}})";
}

std::int64_t Persons(HttpClient& client) {
  const auto stats = Call(client, "Stats", "{}", kAdmin);
  REQUIRE(stats.status == 200);
  return std::stoll(json::parse(stats.body).value("persons", "0"));
}

// Calls Stats with `t` until it answers `status` (a SIGHUP is handled a
// moment after it is sent); whether it did within 20 s.
bool EventuallyAnswers(HttpClient& client, const Token& t, int status) {
  for (int i = 0; i < 200; ++i) {
    if (Call(client, "Stats", "{}", t).status == status) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

// A server with `tokens` on a fresh store where the ingest token stored
// two records of one person (1): crm's c-1 and c-2.
struct TwoRecords {
  TestDatabase db;
  TokensFile tokens;
  ServerProcess server;
  HttpClient client;
  explicit TwoRecords(const std::vector<Token>& all)
      : tokens(all), server(db.url(), {"--tokens", tokens.path.string()}), client(server.port()) {
    REQUIRE(Call(client, "Upsert", UpsertBody("anna@example.com", "c-1"), kIngest).status == 200);
    REQUIRE(Call(client, "Upsert", UpsertBody("anna@example.com", "c-2"), kIngest).status == 200);
  }
};

TEST_CASE("Each role may call its methods and no other, over Connect", "[pg]") {
  // ingest: upserts, and nothing of the steward's or admin's.
  TwoRecords served({kIngest, kRead, kSteward, kAdmin});
  HttpClient& client = served.client;
  const auto forget = Call(client, "ForgetPerson", R"({"personId":"1"})", kIngest);
  CHECK(forget.status == 403);
  CHECK(json::parse(forget.body)["code"] == "permission_denied");
  CHECK(json::parse(forget.body)["message"] ==
        "ForgetPerson needs the role admin; token 'signup-pipeline' has ingest");
  const std::string split = R"({"personId":"1","groups":[{"records":[{"source":"crm","recordId":"c-1"}]},)"
                            R"({"records":[{"source":"crm","recordId":"c-2"}]}]})";
  CHECK(Call(client, "SplitPerson", split, kIngest).status == 403);
  CHECK(client.Get("/metrics", Bearer(kIngest)).status == 403);
  CHECK(Call(client, "GetPerson", R"({"personId":"1"})", kIngest).status == 403);
  // Nothing happened: one person, both records.
  CHECK(Persons(client) == 1);
  CHECK(json::parse(Call(client, "GetPerson", R"({"personId":"1"})", kRead).body)["person"]["records"]
            .size() == 2);

  // read: reads, and cannot upsert.
  CHECK(Call(client, "Upsert", UpsertBody("lena@example.com", "c-3"), kRead).status == 403);
  CHECK(Persons(client) == 1);
  CHECK(Call(client, "ListChanges", "{}", kRead).status == 200);

  // steward: reads and splits, and cannot erase.
  CHECK(Call(client, "GetPerson", R"({"personId":"1"})", kSteward).status == 200);
  CHECK(Call(client, "SplitPerson", split, kSteward).status == 200);
  CHECK(Persons(client) == 2);
  CHECK(Call(client, "ForgetPerson", R"({"personId":"1"})", kSteward).status == 403);
  CHECK(Persons(client) == 2);

  // admin: everything.
  CHECK(Call(client, "Upsert", UpsertBody("paul@example.com", "c-4"), kAdmin).status == 200);
  CHECK(Call(client, "ForgetPerson", R"({"personId":"1"})", kAdmin).status == 200);
  CHECK(client.Get("/metrics", Bearer(kAdmin)).status == 200);

  // An unknown token, or none: 401.
  CHECK(Call(client, "Stats", "{}", Token{"x", "tok-unknown", ""}).status == 401);
  CHECK(client.Call("Stats", "{}").status == 401);
  CHECK(client.Get("/metrics").status == 401);

  // GetAccess: what the caller may do.
  const json access = json::parse(Call(client, "GetAccess", "{}", kSteward).body);
  CHECK(access["token"] == "alice");
  CHECK(access["roles"] == json::array({"steward"}));
  const auto& methods = access["methods"];
  CHECK(std::find(methods.begin(), methods.end(), "SplitPerson") != methods.end());
  CHECK(std::find(methods.begin(), methods.end(), "GetPerson") != methods.end());
  CHECK(std::find(methods.begin(), methods.end(), "ForgetPerson") == methods.end());
  CHECK(std::find(methods.begin(), methods.end(), "Upsert") == methods.end());

  // The refusals are counted under their code.
  CHECK_THAT(client.Get("/metrics", Bearer(kAdmin)).body,
             Catch::Contains(
                 "idres_rpc_requests_total{method=\"ForgetPerson\",code=\"permission_denied\"} 2\n"));
}

TEST_CASE("Each role may call its methods and no other, over gRPC", "[pg]") {
  TestDatabase db;
  TokensFile tokens({kIngest, kRead, kAdmin});
  ServerProcess server(ServeOptions{db.url(), {"--tokens", tokens.path.string()}, {}, false, 4, true});
  const auto code_of = [&](const Token& t, bool upsert) -> std::optional<api::Code> {
    client::GrpcClient grpc(server.grpc_target(), {false, "", t.token});
    try {
      if (upsert) {
        Record record;
        record.identifiers = {{"email", "grpc@example.com"}};
        grpc.Upsert(record);
      } else {
        grpc.Stats();
      }
      return std::nullopt;
    } catch (const api::StatusError& e) {
      return e.code();
    }
  };
  CHECK(code_of(kIngest, true) == std::nullopt);
  CHECK(code_of(kIngest, false) == api::Code::kPermissionDenied);
  CHECK(code_of(kRead, true) == api::Code::kPermissionDenied);
  CHECK(code_of(kRead, false) == std::nullopt);
  CHECK(code_of(kAdmin, true) == std::nullopt);
  CHECK(code_of(Token{"x", "tok-unknown", ""}, false) == api::Code::kUnauthenticated);
  HttpClient client(server.port());
  CHECK(Persons(client) == 1);  // the refused Upsert wrote nothing
}

// What `idres token new ARGS...` prints: the token (its first line) and the
// lines for the tokens file (the rest).
std::pair<std::string, std::string> NewToken(std::vector<std::string> args) {
  const std::string log =
      (fs::temp_directory_path() / ("idres-token-" + std::to_string(getpid()) + ".out")).string();
  fs::remove(log);
  args.insert(args.begin(), {IdresBinary(), "token", "new"});
  REQUIRE(RunToEnd(args, log) == 0);
  std::ifstream in(log);
  std::string token, line, rest;
  std::getline(in, token);
  while (std::getline(in, line)) rest += line + "\n";
  fs::remove(log);
  return {token, rest};
}

TEST_CASE("SIGHUP re-reads the tokens file, and a malformed one keeps the tokens in force", "[pg]") {
  TestDatabase db;
  TokensFile tokens({kRead, kSteward});
  ServerProcess server(db.url(), {"--tokens", tokens.path.string(), "--auth-token", "tok-root"});
  HttpClient client(server.port());
  REQUIRE(Call(client, "Stats", "{}", kSteward).status == 200);

  // alice removed: her next call is refused; the others go on.
  tokens.Write({kRead});
  server.Signal(SIGHUP);
  CHECK(EventuallyAnswers(client, kSteward, 401));
  CHECK(Call(client, "Stats", "{}", kRead).status == 200);
  // --auth-token stays an admin token beside the file's.
  CHECK(client.Get("/metrics", {{"Authorization", "Bearer tok-root"}}).status == 200);

  // A file that does not read: the tokens in force stay, and the log says why.
  tokens.WriteText("[tokens.reporting]\nsha256 = \"not hex\"\nroles = [\"read\"]\n");
  server.Signal(SIGHUP);
  for (int i = 0; i < 200 && server.Log().find("not re-read") == std::string::npos; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  CHECK_THAT(server.Log(), Catch::Contains("line 2: sha256 must be 64 hex digits"));
  CHECK(Call(client, "Stats", "{}", kRead).status == 200);
  CHECK(Call(client, "Stats", "{}", kSteward).status == 401);

  // Fixed again, with alice back, and a token `idres token new` made.
  const auto [token, lines] = NewToken({"pipeline", "--roles", "ingest,read", "--rate", "50"});
  CHECK(token.rfind("idr_", 0) == 0);
  CHECK(lines.find(token) == std::string::npos);  // the file holds its digest only
  CHECK_THAT(lines, Catch::Contains("roles = [\"ingest\", \"read\"]") &&
                        Catch::Contains("rate = 50"));
  tokens.Write({kRead, kSteward});
  std::ofstream(tokens.path, std::ios::app) << lines;
  server.Signal(SIGHUP);
  CHECK(EventuallyAnswers(client, kSteward, 200));
  const Token made{"pipeline", token, ""};
  CHECK(Call(client, "Upsert", UpsertBody("new@example.com", "n-1"), made).status == 200);
  CHECK(Call(client, "ForgetPerson", R"({"personId":"1"})", made).status == 403);
}

TEST_CASE("A token's rate and concurrency bound it alone", "[pg]") {
  TestDatabase db;
  const Token slow{"slow-pipeline", "tok-slow", "roles = [\"read\"]\nrate = 2"};
  TokensFile tokens({slow, kRead});
  ServerProcess server(db.url(), {"--tokens", tokens.path.string()});
  HttpClient client(server.port());
  // The bucket holds two calls; the third in the same instant is refused.
  int refused = 0;
  std::string message;
  for (int i = 0; i < 4; ++i) {
    const auto reply = Call(client, "Stats", "{}", slow);
    if (reply.status == 429) {
      ++refused;
      message = json::parse(reply.body)["message"];
    }
  }
  CHECK(refused >= 1);
  CHECK(message == "token 'slow-pipeline' is over its rate limit of 2 calls per second");
  // The other token is not touched.
  for (int i = 0; i < 10; ++i) CHECK(Call(client, "Stats", "{}", kRead).status == 200);
  // A second later the bucket holds calls again.
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  CHECK(Call(client, "Stats", "{}", slow).status == 200);
}

// The lines of `idres audit` with `args` against `url`.
std::vector<json> Audit(const std::string& url, std::vector<std::string> args = {}) {
  const std::string log = (fs::temp_directory_path() /
                           ("idres-audit-" + std::to_string(getpid()) + ".out"))
                              .string();
  fs::remove(log);
  std::vector<std::string> argv{IdresBinary(), "audit", "--database-url", url};
  argv.insert(argv.end(), args.begin(), args.end());
  REQUIRE(RunToEnd(argv, log) == 0);
  std::ifstream in(log);
  std::vector<json> out;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.front() == '{') out.push_back(json::parse(line));
  }
  fs::remove(log);
  return out;
}

TEST_CASE("The audit log names the acting tokens in order, and an erasure's entry holds no data",
          "[pg]") {
  TwoRecords served({kIngest, kSteward, kSteward2, kAdmin});
  HttpClient& client = served.client;
  const std::string url = served.db.url();

  // alice splits c-2 off person 1 (into person 2); bob keeps them apart;
  // root erases person 1.
  REQUIRE(Call(client, "SplitPerson",
               R"({"personId":"1","groups":[{"records":[{"source":"crm","recordId":"c-1"}]},)"
               R"({"records":[{"source":"crm","recordId":"c-2"}]}]})",
               kSteward)
              .status == 200);
  REQUIRE(Call(client, "NeverMatch", R"({"personA":"1","personB":"2"})", kSteward2).status ==
          200);
  // A refused call and a read write no entry.
  REQUIRE(Call(client, "ForgetPerson", R"({"personId":"2"})", kSteward).status == 403);
  REQUIRE(Call(client, "GetPerson", R"({"personId":"2"})", kSteward).status == 200);
  REQUIRE(Call(client, "ForgetPerson", R"({"personId":"1"})", kAdmin).status == 200);

  const std::vector<json> entries = Audit(url);
  REQUIRE(entries.size() == 3);
  CHECK(entries[0]["actor"] == "alice");
  CHECK(entries[0]["action"] == "SplitPerson");
  CHECK(entries[0]["persons"] == json::array({1}));
  CHECK(entries[0]["request"] ==
        json::parse(R"({"personId":1,"groups":[[{"source":"crm","recordId":"c-1"}],)"
                    R"([{"source":"crm","recordId":"c-2"}]]})"));
  CHECK(entries[1]["actor"] == "bob");
  CHECK(entries[1]["action"] == "NeverMatch");
  CHECK(entries[1]["persons"] == json::array({1, 2}));
  CHECK(entries[2]["actor"] == "root");
  CHECK(entries[2]["action"] == "ForgetPerson");
  CHECK(entries[2]["persons"] == json::array({1}));
  CHECK(entries[2]["request"] == json::parse(R"({"personId":1})"));
  CHECK(entries[0]["seq"] < entries[1]["seq"]);
  CHECK(entries[1]["seq"] < entries[2]["seq"]);
  // No identifier value, record id or source in the erasure's entry.
  const std::string erasure = entries[2].dump();
  for (const char* value : {"anna", "example.com", "c-1", "crm", "schmidt"}) {
    CHECK_THAT(erasure, !Catch::Contains(value, Catch::CaseSensitive::No));
  }

  // The history names the actors too: the part the split made, its record
  // moved to it, the judgement.
  const json history =
      json::parse(Call(client, "GetPersonHistory", R"({"personId":"2"})", kSteward).body);
  std::vector<std::string> acted;
  for (const auto& e : history["events"]) {
    if (e.contains("actor")) acted.push_back(e["kind"].get<std::string>() + " " + e["actor"].get<std::string>());
  }
  CHECK(acted ==
        std::vector<std::string>{"created alice", "record_replaced alice", "judged_never bob"});

  // --since: the entries at or after a time; none after now.
  CHECK(Audit(url, {"--since", "2000-01-01"}).size() == 3);
  CHECK(Audit(url, {"--since", "2200-01-01T00:00:00+01:00"}).empty());
}

}  // namespace
}  // namespace idres::testing
