// A stop of `idres serve --grpc-listen` drains gRPC as it drains Connect: a
// call in flight at SIGTERM finishes and the server exits 0; a call stuck
// past --shutdown-timeout-ms is abandoned, the server exits 1 and nothing of
// it is written. The calls are made with the C++ client (client/).
#include <signal.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <future>
#include <optional>
#include <thread>

#include "client/grpc_client.h"
#include "tests/api/held_key.h"
#include "tests/api/server_process.h"
#include "tests/support/records.h"
#include "tests/support/test_db.h"

namespace idres::testing {
namespace {

// Until the call waits for the held key.
void WaitForWaiter(const TestDatabase& db) {
  const std::string sql =
      "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted";
  for (int i = 0; i < 1200 && db.Count(sql) == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  REQUIRE(db.Count(sql) > 0);
}

TEST_CASE("SIGTERM lets a gRPC call in flight finish, then the server exits 0", "[pg]") {
  TestDatabase db;
  ServerProcess server({db.url(), {"--lock-timeout-ms", "60000"}, {}, false, 4, true});
  std::optional<HeldKey> held(std::in_place, db, "email", "inflight@x.org");
  client::GrpcClient grpc(server.grpc_target());
  auto in_flight =
      std::async(std::launch::async, [&] { return grpc.Upsert(EmailRecord("inflight@x.org")); });
  WaitForWaiter(db);
  server.Signal(SIGTERM);
  for (int i = 0; i < 1200 && server.Log().find("stopping") == std::string::npos; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  REQUIRE_THAT(server.Log(), Catch::Contains("stopping"));
  held.reset();  // the call in flight can now finish
  CHECK(in_flight.get().outcome == Outcome::kCreated);
  CHECK(server.Wait() == 0);
  CHECK(db.Count("SELECT count(*) FROM persons") == 1);
}

TEST_CASE("A gRPC call stuck past the shutdown bound is abandoned: exit 1, nothing written",
          "[pg]") {
  TestDatabase db;
  ServerProcess server({db.url(),
                        {"--lock-timeout-ms", "600000", "--shutdown-timeout-ms", "300"},
                        {},
                        false,
                        4,
                        true});
  std::optional<HeldKey> held(std::in_place, db, "email", "stuck@x.org");
  client::GrpcClient grpc(server.grpc_target());
  auto stuck = std::async(std::launch::async, [&] {
    try {
      grpc.Upsert(EmailRecord("stuck@x.org"));
      return true;
    } catch (const std::exception&) {
      return false;  // cancelled, or the connection closed without an answer
    }
  });
  WaitForWaiter(db);
  server.Signal(SIGTERM);
  CHECK(server.Wait() == 1);
  CHECK_FALSE(stuck.get());
  CHECK_THAT(server.Log(), Catch::Contains("1 gRPC calls still running at the shutdown bound"));
  held.reset();
  CHECK(db.Count("SELECT count(*) FROM persons") == 0);
}

}  // namespace
}  // namespace idres::testing
