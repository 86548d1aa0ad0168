// The generated Connect client (tests/connect/client.mjs, run with the
// machine's Node.js) against the real `idres serve` and database.
#include <catch2/catch.hpp>
#include <cstdlib>

#include "tests/api/server_process.h"
#include "tests/support/test_db.h"

namespace idres::testing {
namespace {

TEST_CASE("A Connect client generated from the .proto calls Upsert, GetPerson and Lookup", "[pg]") {
  const char* source = std::getenv("IDRES_SOURCE_DIR");
  REQUIRE(source != nullptr);
  TestDatabase db;
  ServerProcess server(db.url());
  const std::string command =
      std::string("cd '") + source +
      "/tests/connect' && node client.mjs http://127.0.0.1:" + std::to_string(server.port());
  CHECK(std::system(command.c_str()) == 0);
  CHECK(db.Count("SELECT count(*) FROM persons") == 2);
}

}  // namespace
}  // namespace idres::testing
