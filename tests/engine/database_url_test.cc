#include "engine/database_url.h"

#include <catch2/catch.hpp>

namespace idres {
namespace {

TEST_CASE("WithDatabase swaps only the database name") {
  CHECK(WithDatabase("postgresql://postgres@127.0.0.1:5432/postgres", "x") ==
        "postgresql://postgres@127.0.0.1:5432/x");
  CHECK(WithDatabase("postgresql://u:p@h:1/db?sslmode=disable", "y") ==
        "postgresql://u:p@h:1/y?sslmode=disable");
  CHECK(WithDatabase("postgresql://h:1", "z") == "postgresql://h:1/z");
}

TEST_CASE("HostPortOf reads host and port, with libpq's defaults") {
  const HostPort hp = HostPortOf("postgresql://postgres@10.0.0.7:55501/postgres");
  CHECK(hp.host == "10.0.0.7");
  CHECK(hp.port == 55501);
  CHECK(HostPortOf("postgresql://u@h/db").port == 5432);
}

TEST_CASE("WithHostPort and WithParameter keep the rest of the URI") {
  CHECK(WithHostPort("postgresql://u@h:1/db?application_name=b", {"127.0.0.1", 9}) ==
        "postgresql://u@127.0.0.1:9/db?application_name=b");
  CHECK(WithParameter("postgresql://u@h:1/db", "connect_timeout", "3") ==
        "postgresql://u@h:1/db?connect_timeout=3");
  CHECK_THROWS_AS(WithParameter("postgresql://u@h:1/db", "no_such", "1"), std::invalid_argument);
}

TEST_CASE("what is not a plain host, or needs escaping, survives the round trip") {
  // A socket directory cannot stand in the authority: it goes as a parameter.
  CHECK(WithDatabase("postgresql://u@%2Ftmp%2Fpg:5433/a", "b") ==
        "postgresql://u@/b?host=%2Ftmp%2Fpg&port=5433");
  CHECK(WithDatabase("postgresql://u:p%40ss@h/a", "b c") == "postgresql://u:p%40ss@h/b%20c");
}

TEST_CASE("a connection string that is not a URI is refused") {
  CHECK_THROWS_AS(WithDatabase("host=h dbname=x", "y"), std::invalid_argument);
  CHECK_THROWS_AS(HostPortOf("postgresql://u@h:1/db?a=b"), std::invalid_argument);
}

}  // namespace
}  // namespace idres
