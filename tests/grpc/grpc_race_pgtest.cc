// 32 identical Upserts over gRPC, on 32 connections released at one moment,
// end as one person; and with the engine's locks switched off they do not.
// The gRPC server runs in the test's own process, on an engine built with
// the test seams (engine/testing.h), which no `idres serve` can reach: the
// locked and the unlocked rounds differ in nothing else. As in the engine's
// race tests (tests/engine/race_check.cc), the racers line up right after
// their key locks: with the locks a 10 ms pause inside the locked section,
// without them a rendezvous, so that every unprotected racer reads the same
// stale state; and the unlocked rounds drop the unique index, which alone
// would otherwise keep duplicates of the email out.
#include <catch2/catch.hpp>
#include <memory>
#include <thread>

#include "api/grpc/grpc_server.h"
#include "api/service/engine_backend.h"
#include "api/service/service.h"
#include "client/grpc_client.h"
#include "engine/testing.h"
#include "tests/support/race.h"
#include "tests/support/test_db.h"

namespace idres::testing {
namespace {

constexpr int kClients = 32;
constexpr int kRunners = 8;  // upserts applied at once, each on its own connection

Record Twin() {
  Record record;
  record.identifiers = {{"email", "twin@example.com"}, {"phone", "+4917011112222"}};
  return record;
}

// One round: the persons holding the twin's email afterwards.
std::int64_t Round(bool locks, std::size_t group_max_records) {
  TestDatabase db;
  if (!locks) db.Exec("DROP INDEX identifiers_unique_value");
  EngineOptions options;
  options.database_url = db.url();
  options.pool_size = 2 * kRunners;
  options.upsert_runners = kRunners;
  options.group_max_records = group_max_records;
  options.lock_timeout = std::chrono::milliseconds(60000);
  EngineSeams seams;
  seams.skip_locks = !locks;
  auto meet = std::make_shared<Rendezvous>(kRunners);
  seams.after_key_locks = [locks, meet](std::span<const std::int64_t>) {
    if (locks) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    } else {
      meet->Arrive();
    }
  };
  auto engine = EngineTesting::Make(options, seams);
  REQUIRE(engine->options().pool_size >= kRunners);
  api::EngineBackend backend(*engine);
  const api::IdentityService service(backend, nullptr, {});
  api::GrpcServer server({"127.0.0.1:0", "", "", 1 << 20, 4, std::chrono::seconds(10)}, service);
  const std::string target = "127.0.0.1:" + std::to_string(server.port());
  std::vector<std::unique_ptr<client::GrpcClient>> clients;
  for (int i = 0; i < kClients; ++i) {
    clients.push_back(std::make_unique<client::GrpcClient>(target));
    clients.back()->Stats();  // connected before the race
  }
  RunConcurrently(kClients, [&](int i) {
    try {
      clients[i]->Upsert(Twin());
    } catch (const std::exception&) {
      if (locks) throw;  // without locks a racer may fail; the count shows what happened
    }
  });
  return db.Count(
      "SELECT count(DISTINCT person_id) FROM identifiers WHERE value = 'twin@example.com'");
}

TEST_CASE("32 identical Upserts over gRPC at one moment make one person, and without locks not",
          "[pg]") {
  for (int round = 0; round < 2; ++round) {
    INFO("locks on, one transaction per upsert, round " << round);
    REQUIRE(Round(true, 1) == 1);
  }
  INFO("locks on, queued upserts sharing transactions");
  REQUIRE(Round(true, 32) == 1);
  std::int64_t persons = 1;
  int round = 0;
  for (; round < 10 && persons == 1; ++round) persons = Round(false, 1);
  INFO("locks off: one person in every one of " << round << " rounds");
  REQUIRE(persons > 1);
  WARN("locks off: " << persons << " persons in round " << round);
}

}  // namespace
}  // namespace idres::testing
