// The generated Connect client (tests/connect/client.mjs, run with the
// machine's Node.js) against the real `idres serve` and database.
#include <catch2/catch.hpp>
#include <cstdlib>

#include "tests/api/server_process.h"
#include "tests/support/test_db.h"

namespace idres::testing {
namespace {

TEST_CASE(
    "A Connect client generated from the .proto calls the record, feed and explanation methods",
    "[pg]") {
  const char* source = std::getenv("IDRES_SOURCE_DIR");
  REQUIRE(source != nullptr);
  TestDatabase db;
  ServerProcess server(db.url());
  const std::string command =
      std::string("cd '") + source +
      "/tests/connect' && node client.mjs http://127.0.0.1:" + std::to_string(server.port());
  CHECK(std::system(command.c_str()) == 0);
  // client.mjs makes one pass in binary proto and one in JSON, each leaving
  // 4 live persons: A (its two records), X (n-3, split off N when n-2 was
  // deleted), S (s-1) and T (s-2, s-3: the part SplitPerson made). N was
  // removed with its last record, C was erased with D, which AlwaysMatch had
  // merged into it: removed_persons keeps those 3 ids per pass, without data.
  // And the twins of each pass, kept apart: a possible match, then judged
  // (the never-match deleted the pair it closed).
  CHECK(db.Count("SELECT count(*) FROM persons") == 12);
  CHECK(db.Count("SELECT count(*) FROM records") == 16);
  CHECK(db.Count("SELECT count(*) FROM possible_matches") == 0);
  CHECK(db.Count("SELECT count(*) FROM removed_persons WHERE why = 'emptied'") == 2);
  CHECK(db.Count("SELECT count(*) FROM removed_persons WHERE why = 'erased'") == 4);
}

}  // namespace
}  // namespace idres::testing
