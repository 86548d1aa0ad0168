#include "bench/suite/cluster.h"

#include <unistd.h>
#include <catch2/catch.hpp>

#include <atomic>
#include <string>
#include <utility>
#include <vector>

#include "bench/suite/preload_check.h"
#include "bench/suite/scratch_database.h"
#include "bench/suite/workload.h"
#include "engine/engine.h"
#include "tests/support/test_db.h"

namespace idres::bench {
namespace {

Record Rec(std::vector<RawIdentifier> identifiers, Traits traits = {}) {
  Record r;
  r.identifiers = std::move(identifiers);
  r.traits = std::move(traits);
  return r;
}

std::string UniqueName(const char* what) {
  static std::atomic<int> n{0};
  return "idres_bench_test_" + std::to_string(::getpid()) + "_" + what + std::to_string(n++);
}

TEST_CASE("the SQL preload is what the engine writes: it finds, matches and merges it", "[pg]") {
  const Cluster cluster(testing::AdminUrl());
  ScratchDatabase db(cluster, UniqueName("preload"));
  cluster.Preload(db.name(), 200);
  REQUIRE_FALSE(PreloadShapeProblem(cluster, db.name()).has_value());
  CHECK(cluster.Check(db.name(), 200).ok);

  EngineOptions options;
  options.database_url = db.url();
  options.pool_size = 1;
  Engine engine(options);
  // By a strong identifier.
  const UpsertResult by_email = engine.Upsert(Rec({{"email", PreloadEmail(7)}}));
  CHECK(by_email.person_id == 7);
  // By weak values only: only the preloaded match key (its birth date and
  // postal code) can find person 3.
  const UpsertResult by_weak = engine.Upsert(
      Rec({{"name", "person 3"}, {"birth_date", "1950-01-02"}, {"postal_code", "10003"}},
          {{"seen", true}}));
  CHECK(by_weak.person_id == 3);
  CHECK(by_weak.outcome == Outcome::kUpdated);
  // A bridging record, as scenario (d) sends them.
  const UpsertResult bridge =
      engine.Upsert(Workload('d', 200).Next(0).record);  // email of 1, phone of 2
  CHECK(bridge.outcome == Outcome::kMerged);
  CHECK(cluster.Check(db.name(), 199).ok);
}

TEST_CASE("the store check reports a wrong person count", "[pg]") {
  const Cluster cluster(testing::AdminUrl());
  ScratchDatabase db(cluster, UniqueName("count"));
  cluster.Preload(db.name(), 10);
  const StoreCheck check = cluster.Check(db.name(), 11);
  CHECK_FALSE(check.ok);
  CHECK(check.persons == 10);
  CHECK(check.detail.find("expected 11") != std::string::npos);
}

TEST_CASE("the store check reports a unique value held by two persons", "[pg]") {
  const Cluster cluster(testing::AdminUrl());
  ScratchDatabase db(cluster, UniqueName("dup"));
  cluster.DropUniqueIndex(db.name());
  cluster.Exec(db.name(),
               "INSERT INTO persons DEFAULT VALUES; INSERT INTO persons DEFAULT VALUES; "
               "INSERT INTO identifiers (person_id, type, value, is_unique) "
               "SELECT id, 'email', 'twice@example.org', true FROM persons");
  const StoreCheck check = cluster.Check(db.name(), 2);
  CHECK_FALSE(check.ok);
  CHECK(check.duplicated_values == 1);
}

}  // namespace
}  // namespace idres::bench
