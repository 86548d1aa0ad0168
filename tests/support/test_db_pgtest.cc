#include "tests/support/test_db.h"

#include <catch2/catch.hpp>
#include <string>

using idres::testing::TestDatabase;

TEST_CASE("a test database has the schema and belongs to one test", "[pg]") {
  TestDatabase a;
  TestDatabase b;
  CHECK(a.name() != b.name());
  CHECK(a.Count("SELECT max(version) FROM idres_schema_version") >= 1);
  a.Exec("INSERT INTO persons DEFAULT VALUES");
  CHECK(a.Count("SELECT count(*) FROM persons") == 1);
  CHECK(b.Count("SELECT count(*) FROM persons") == 0);
}

TEST_CASE("text key columns compare bytewise", "[pg]") {
  TestDatabase db;
  auto rows = db.Rows(
      "SELECT collation_name FROM information_schema.columns "
      "WHERE table_name = 'identifiers' AND column_name IN ('type', 'value')");
  REQUIRE(rows.size() == 2);
  for (const auto& r : rows) CHECK(r[0] == "C");
}

TEST_CASE("the default isolation of a test database can be changed", "[pg]") {
  TestDatabase db;
  db.SetDefaultIsolation("repeatable read");
  auto rows = db.Rows("SHOW default_transaction_isolation");
  REQUIRE(rows.size() == 1);
  CHECK(rows[0][0] == "repeatable read");
}

TEST_CASE("WithDatabase swaps only the database name") {
  using idres::testing::WithDatabase;
  CHECK(WithDatabase("postgresql://u@h:5/postgres", "x") == "postgresql://u@h:5/x");
  CHECK(WithDatabase("postgresql://u@h:5/postgres?sslmode=disable", "x") ==
        "postgresql://u@h:5/x?sslmode=disable");
  CHECK(WithDatabase("postgresql://u@h:5", "x") == "postgresql://u@h:5/x");
}
