// The steward console as a person uses it: a real `idres serve` with a
// steward's and an admin's token on a fresh store, seeded through the API, and
// tests/console/console_test.mjs driving /console/ in Debian's headless
// chromium (puppeteer-core). The script checks what each page shows and
// saves its screenshots into $IDRES_CONSOLE_SCREENSHOTS. The server runs a
// model file: the built-in model with one level moved, which the model's
// page must show.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "api/service/auth.h"
#include "matcher/model_file.h"
#include "tests/api/http_client.h"
#include "tests/api/server_process.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_db.h"

namespace idres::testing {
namespace {

using nlohmann::json;

// The console's steward (who also tries records: Explain needs ingest) and
// an admin, who may erase.
constexpr char kToken[] = "steward-s3cret";
constexpr char kAdminToken[] = "admin-s3cret";

// A tokens file with both, removed at the end.
struct TokensFile {
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               ("idres-console-tokens-" + std::to_string(getpid()) + ".toml");
  TokensFile() {
    std::ofstream out(path);
    out << "[tokens.steward]\nsha256 = \"" << api::HexOf(api::DigestOf(kToken))
        << "\"\nroles = [\"steward\", \"ingest\"]\n[tokens.root]\nsha256 = \""
        << api::HexOf(api::DigestOf(kAdminToken)) << "\"\nroles = [\"admin\"]\n";
  }
  ~TokensFile() { std::filesystem::remove(path); }
};

// Upserts `record` (JSON) with the admin's token; the response.
json Upsert(HttpClient& client, const std::string& record) {
  const auto reply = client.Call("Upsert", R"({"record":)" + record + "}",
                                 {{"Authorization", std::string("Bearer ") + kAdminToken}});
  INFO(reply.body);
  REQUIRE(reply.status == 200);
  return json::parse(reply.body);
}

// The built-in model with birth_date's one_off level weighing log2(64) =
// +6.00 (console_test.mjs looks for it); none of the records below holds
// two birth dates, so no other page's weights move.
std::string ModelFile(const TempDir& dir) {
  Model model = Model::Defaults();
  for (Level& level : model.types.at("birth_date").levels) {
    if (level.name == "one_off") level = {"one_off", 0.2, 0.003125};
  }
  return dir.Write("served.toml", ModelToToml(model));
}

TEST_CASE(
    "The steward console in headless chromium: search, a person, a merge, a what-if, the model",
    "[pg]") {
  const char* source = std::getenv("IDRES_SOURCE_DIR");
  const char* screenshots = std::getenv("IDRES_CONSOLE_SCREENSHOTS");
  REQUIRE(source != nullptr);
  REQUIRE(screenshots != nullptr);
  TestDatabase db;
  const TempDir dir;
  TokensFile tokens;
  ServerProcess server(db.url(), {"--tokens", tokens.path.string(), "--default-region", "DE",
                                  "--model", ModelFile(dir)});
  HttpClient client(server.port());

  // Anna, told by three sources: the shop's record holds the CRM's email
  // and the web form's phone, and merges the two persons (person 2 into 1);
  // its postal code is one more contact value, which does not count.
  CHECK(Upsert(client, R"({"identifiers":[{"type":"email","value":"Anna@Example.com"},
      {"type":"name","value":"Anna Schmidt"},{"type":"birth_date","value":"1985-03-14"},
      {"type":"postal_code","value":"10115"}],
      "traits":{"plan":"pro"},"source":"crm","recordId":"c-1"})")["personId"] == "1");
  CHECK(Upsert(client, R"({"identifiers":[{"type":"phone","value":"0170 1234567"},
      {"type":"name","value":"Anna Schmidt"},{"type":"cookie","value":"ck-anna"}],
      "traits":{"newsletter":true},"source":"web","recordId":"w-7"})")["personId"] == "2");
  const json bridge = Upsert(client, R"({"identifiers":[{"type":"email","value":"anna@example.com"},
      {"type":"phone","value":"+49 170 1234567"},{"type":"name","value":"Anna Schmidt"},
      {"type":"postal_code","value":"10115"}],"traits":{"plan":"team"},
      "source":"shop","recordId":"s-3"})");
  CHECK(bridge["outcome"] == "OUTCOME_MERGED");
  CHECK(bridge["mergedPersonIds"] == json::array({"2"}));
  // Two namesakes: one full name, two towns. They score in the review band
  // and stay two persons (3 and 4).
  CHECK(Upsert(client, R"({"identifiers":[{"type":"name","value":"Lena Weber"},
      {"type":"city","value":"Bonn"}],"source":"crm","recordId":"c-2"})")["personId"] == "3");
  CHECK(Upsert(client, R"({"identifiers":[{"type":"name","value":"Lena Weber"},
      {"type":"city","value":"Kiel"}],"source":"web","recordId":"w-8"})")["personId"] == "4");

  const std::string command =
      std::string("cd '") + source +
      "/tests/console' && node console_test.mjs http://127.0.0.1:" + std::to_string(server.port()) +
      " '" + kToken + "' '" + kAdminToken + "' '" + screenshots + "'";
  CHECK(std::system(command.c_str()) == 0);
}

}  // namespace
}  // namespace idres::testing
