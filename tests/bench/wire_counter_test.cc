#include "bench/suite/wire_counter.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

namespace idres::bench {
namespace {

std::string U32(std::uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
          static_cast<char>(v)};
}

std::string Message(char type, const std::string& payload) {
  return std::string(1, type) + U32(static_cast<std::uint32_t>(payload.size() + 4)) + payload;
}

std::string Startup() {
  const std::string params = std::string("user\0postgres\0\0", 15);
  return U32(static_cast<std::uint32_t>(8 + params.size())) + U32(196608) + params;
}

TEST_CASE("a simple query is one round trip however many statements it holds") {
  const std::string q = std::string("BEGIN ISOLATION LEVEL READ COMMITTED; SET LOCAL x = 1") + '\0';
  const WireTotals t = WireCounter::CountStream(Startup() + Message('Q', q));
  CHECK(t.round_trips == 1);
  CHECK(t.statements == 2);
  CHECK(t.transactions == 1);
}

TEST_CASE("an extended-protocol statement counts one Execute and one Sync") {
  const std::string ext =
      Message('B', "xx") + Message('E', std::string(5, '\0')) + Message('S', "");
  const WireTotals t = WireCounter::CountStream(Startup() + ext + ext);
  CHECK(t.round_trips == 2);
  CHECK(t.statements == 2);
  CHECK(t.transactions == 0);
}

TEST_CASE("an Execute of a prepared BEGIN counts as a transaction, once per Execute") {
  using namespace std::string_literals;
  // Parse: name, query, no parameter types (int16 0).
  const std::string parse = Message('P', "P_0\0BEGIN ISOLATION LEVEL READ COMMITTED\0\0\0"s) +
                            Message('P', "P_1\0SELECT 1\0\0\0"s) + Message('S', "");
  // Bind (unnamed portal, no formats or values) and Execute of `name`.
  const auto run = [](const std::string& name) {
    return Message('B', "\0"s + name + "\0\0\0\0\0\0\0"s) + Message('E', std::string(5, '\0'));
  };
  const WireTotals t = WireCounter::CountStream(Startup() + parse + run("P_0") + run("P_1") +
                                                run("P_0") + Message('S', ""));
  CHECK(t.statements == 3);
  CHECK(t.transactions == 2);
  CHECK(t.round_trips == 2);
}

TEST_CASE("an SSL request before the startup packet is skipped") {
  const std::string ssl = U32(8) + U32(80877103);
  const WireTotals t =
      WireCounter::CountStream(ssl + Startup() + Message('Q', std::string("COMMIT") + '\0'));
  CHECK(t.round_trips == 1);
  CHECK(t.statements == 1);
}

TEST_CASE("a message split across reads is counted once, when complete") {
  const std::string all = Startup() + Message('Q', std::string("SELECT 1") + '\0');
  const WireTotals head = WireCounter::CountStream(all.substr(0, all.size() - 3));
  CHECK(head.round_trips == 0);
  CHECK(WireCounter::CountStream(all).round_trips == 1);
}

TEST_CASE("ThroughProxy points at the proxy with encryption off") {
  CHECK(ThroughProxy("postgresql://u@h:1/db", {"127.0.0.1", 9}) ==
        "postgresql://u@127.0.0.1:9/db?sslmode=disable&gssencmode=disable");
  CHECK(ThroughProxy("postgresql://u@h:1/db?application_name=b", {"127.0.0.1", 9}) ==
        "postgresql://u@127.0.0.1:9/db?application_name=b&sslmode=disable&gssencmode=disable");
}

}  // namespace
}  // namespace idres::bench
