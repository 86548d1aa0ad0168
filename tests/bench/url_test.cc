#include "bench/suite/url.h"

#include <catch2/catch.hpp>

namespace idres::bench {
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

TEST_CASE("ThroughProxy points at the proxy with encryption off") {
  CHECK(ThroughProxy("postgresql://u@h:1/db", {"127.0.0.1", 9}) ==
        "postgresql://u@127.0.0.1:9/db?sslmode=disable&gssencmode=disable");
  CHECK(ThroughProxy("postgresql://u@h:1/db?a=b", {"127.0.0.1", 9}) ==
        "postgresql://u@127.0.0.1:9/db?a=b&sslmode=disable&gssencmode=disable");
}

TEST_CASE("a connection string that is not a URI is refused") {
  CHECK_THROWS_AS(WithDatabase("host=h dbname=x", "y"), std::invalid_argument);
}

}  // namespace
}  // namespace idres::bench
