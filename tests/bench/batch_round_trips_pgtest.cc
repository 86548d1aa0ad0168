// Round trips of the engine's one upsert path, counted on the wire by the
// benchmark's WireCounter: each round trip is a wait the connection spends
// idle, and under load batches are what `idres serve` sends (grouped
// Upserts), so a change that adds one shows here, not only in a benchmark.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "bench/suite/url.h"
#include "bench/suite/wire_counter.h"
#include "engine/engine.h"
#include "tests/support/test_db.h"

namespace idres::bench {
namespace {

std::vector<Record> Records(const std::string& prefix, int n) {
  std::vector<Record> out;
  for (int i = 0; i < n; ++i) {
    Record r;
    r.identifiers.push_back({"email", prefix + std::to_string(i) + "@example.org"});
    r.traits["plan"] = std::string("pro");
    out.push_back(std::move(r));
  }
  return out;
}

struct Counted {
  std::int64_t round_trips;
  std::int64_t transactions;
};

// (No ';' in the name: ctest would split the name there and run two filters
// that match nothing, which Catch passes.)
TEST_CASE("a batch of new persons takes 2 round trips, of known persons 3", "[pg][bench]") {
  testing::TestDatabase db;
  WireCounter counter(HostPortOf(db.url()));
  EngineOptions options;
  options.database_url = ThroughProxy(db.url(), counter.address());
  options.pool_size = 1;
  Engine engine(std::move(options));
  // Statements are prepared on first use: count from the second batch on.
  engine.BatchUpsert(Records("warm", 8));
  engine.BatchUpsert(Records("warm", 8));
  const auto count = [&](const std::vector<Record>& batch) {
    const WireTotals before = counter.Totals();
    for (const auto& result : engine.BatchUpsert(batch)) REQUIRE(result.ok());
    const WireTotals after = counter.Totals();
    return Counted{after.round_trips - before.round_trips,
                   after.transactions - before.transactions};
  };
  // Key locks and candidates; writes (ids handed out) and COMMIT.
  const Counted created = count(Records("new", 8));
  CHECK(created.transactions == 1);
  CHECK(created.round_trips == 2);
  // Key locks and candidates; row locks and the persons re-read; writes and
  // COMMIT.
  const Counted updated = count(Records("new", 8));
  CHECK(updated.transactions == 1);
  CHECK(updated.round_trips == 3);
  // A single upsert is a batch of one: the same.
  const auto one = [&](const std::string& email) {
    Record r;
    r.identifiers.push_back({"email", email});
    return count(std::vector<Record>{r});
  };
  CHECK(one("single@example.org").round_trips == 2);
  CHECK(one("single@example.org").round_trips == 3);
}

}  // namespace
}  // namespace idres::bench
