// `idres explain`: the real binary, a record on stdin, on the database and
// through a running service; the table a person reads.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "engine/engine.h"
#include "tests/api/server_process.h"
#include "tests/support/idres_process.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_db.h"

namespace idres::testing {
namespace {

struct Run {
  int status;
  std::string out;
};

// `idres explain <args>` with `record` on stdin.
Run Explain(const std::string& record, const std::string& args) {
  TempDir dir;
  std::ofstream(dir.File("in")) << record;
  const std::string command = "'" + IdresBinary() + "' explain " + args + " < '" + dir.File("in") +
                              "' > '" + dir.File("out") + "' 2> '" + dir.File("err") + "'";
  const int raw = std::system(command.c_str());
  std::stringstream out;
  out << std::ifstream(dir.File("out")).rdbuf();
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, out.str()};
}

const char* kJon =
    R"({"identifiers":[{"type":"name","value":"Jon Smyth"},{"type":"birth_date","value":"04/01/1978"},
        {"type":"postal_code","value":"10115"}],"defaultRegion":"US"})";

void Seed(const TestDatabase& db) {
  EngineOptions o;
  o.database_url = db.url();
  o.pool_size = 1;
  Engine engine(std::move(o));
  Record john;
  john.identifiers = {
      {"name", "John Smith"}, {"birth_date", "1978-04-01"}, {"postal_code", "10115"}};
  REQUIRE(engine.Upsert(john).person_id == 1);
  Record namesake;
  namesake.identifiers = {{"name", "Jon Smyth"}, {"postal_code", "99501"}};
  REQUIRE(engine.Upsert(namesake).person_id == 2);
}

void CheckTable(const std::string& out) {
  INFO(out);
  CHECK(out.find("record: birth_date 1978-04-01, name jon smyth, postal_code 10115\n") == 0);
  CHECK(out.find("  name_phonetic_year         SM0 1978\n") != std::string::npos);
  CHECK(out.find("candidate person 1: chosen\n") != std::string::npos);
  CHECK(out.find("  birth_date     exact                  +13.48              13.48\n") !=
        std::string::npos);
  CHECK(out.find("  name           jaro_winkler_88        +10.38              23.86\n") !=
        std::string::npos);
  CHECK(out.find("  postal_code    exact                   +9.64              33.51\n") !=
        std::string::npos);
  CHECK(out.find("33.51  >= threshold 14.00\n") != std::string::npos);
  // The namesake of another postcode: a possible match, its total against both bounds.
  CHECK(out.find("candidate person 2: possible match (review)\n") != std::string::npos);
  CHECK(out.find("11.17  < threshold 14.00, >= review 8.00\n") != std::string::npos);
  CHECK(out.find("\ndecision: update person 1\n") != std::string::npos);
}

TEST_CASE("idres explain prints the decision as a table, on the database", "[pg][explain]") {
  TestDatabase db;
  Seed(db);
  const Run run = Explain(kJon, "--database-url '" + db.url() + "'");
  CHECK(run.status == 0);
  CheckTable(run.out);
  CHECK(db.Count("SELECT count(*) FROM records") == 2);  // nothing written

  const Run refused = Explain(R"({"identifiers":[{"type":"phone","value":"0000"}]})",
                              "--database-url '" + db.url() + "'");
  CHECK(refused.status == 1);
  CHECK(refused.out.find("refused: no valid identifier") != std::string::npos);
  CHECK(Explain("{not json", "--database-url '" + db.url() + "'").status == 2);
}

TEST_CASE("idres explain --server asks a running service", "[pg][explain]") {
  TestDatabase db;
  Seed(db);
  ServerProcess server(db.url());
  const Run run = Explain(kJon, "--server http://127.0.0.1:" + std::to_string(server.port()));
  CHECK(run.status == 0);
  CheckTable(run.out);
}

}  // namespace
}  // namespace idres::testing
