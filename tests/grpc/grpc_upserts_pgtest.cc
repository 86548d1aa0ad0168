// The suite's gRPC load generator (client::GrpcUpserts, gRPC over nghttp2)
// against a real `idres serve --grpc-listen`: many calls in flight from one
// thread, each answered once and for its own slot; a refused call answered
// with its gRPC code, and the same call with the token accepted; an error's
// message as the server wrote it (gRPC percent-encodes it on the wire); a
// call on a connection the server dropped answered with its error, not lost;
// many slots' calls on fewer connections, and every call open on a dropped
// one answered.
#include "client/grpc_upserts.h"

#include <signal.h>
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <string>

#include "tests/api/server_process.h"
#include "tests/support/records.h"
#include "tests/support/test_db.h"

namespace idres::testing {
namespace {

// `rounds` Upserts of new people on each of `slots` slots, a slot's next
// started when its last is answered; each answered once, without error,
// for its own slot.
void RunRounds(client::GrpcUpserts& calls, int slots, int rounds) {
  std::map<int, int> answered;  // slot -> calls answered
  int started = 0;
  for (int slot = 0; slot < slots; ++slot) {
    calls.Start(slot, EmailRecord("p" + std::to_string(started++) + "@x.org"));
  }
  for (int done = 0; done < slots * rounds; ++done) {
    const client::GrpcUpserts::Answer answer = calls.Next();
    CHECK(answer.error.empty());
    REQUIRE(answer.slot >= 0);
    REQUIRE(answer.slot < slots);
    if (++answered[answer.slot] < rounds) {
      calls.Start(answer.slot, EmailRecord("p" + std::to_string(started++) + "@x.org"));
    }
  }
  for (int slot = 0; slot < slots; ++slot) CHECK(answered[slot] == rounds);
}

// The sockets this process has open.
int OpenSockets() {
  int sockets = 0;
  for (const auto& fd : std::filesystem::directory_iterator("/proc/self/fd")) {
    std::error_code error;
    const auto target = std::filesystem::read_symlink(fd.path(), error);
    if (!error && target.string().starts_with("socket:")) ++sockets;
  }
  return sockets;
}

TEST_CASE("GrpcUpserts keeps many Upserts in flight and answers each once, for its slot", "[pg]") {
  TestDatabase db;
  ServerProcess server({db.url(), {}, {}, false, 4, true});
  constexpr int kSlots = 8;
  constexpr int kRounds = 25;
  client::GrpcUpserts calls(server.grpc_target(), kSlots);
  RunRounds(calls, kSlots, kRounds);
  CHECK(db.Count("SELECT count(*) FROM persons") == kSlots * kRounds);
}

TEST_CASE("GrpcUpserts carries many slots' calls on fewer connections, each answered once",
          "[pg]") {
  TestDatabase db;
  ServerProcess server({db.url(), {}, {}, false, 4, true});
  constexpr int kSlots = 8;
  constexpr int kConnections = 3;  // slots 0, 3, 6 share one; 2 and 5 another
  constexpr int kRounds = 25;
  const int sockets_before = OpenSockets();
  client::GrpcUpserts calls(server.grpc_target(), kSlots, {}, kConnections);
  CHECK(OpenSockets() - sockets_before == kConnections);
  RunRounds(calls, kSlots, kRounds);
  CHECK(db.Count("SELECT count(*) FROM persons") == kSlots * kRounds);
}

TEST_CASE("GrpcUpserts answers a refused call with its gRPC code, and sends the token", "[pg]") {
  TestDatabase db;
  ServerProcess server({db.url(), {"--auth-token", "t0ken"}, {}, false, 4, true});
  {
    client::GrpcUpserts calls(server.grpc_target(), 1);
    calls.Start(0, EmailRecord("refused@x.org"));
    const client::GrpcUpserts::Answer answer = calls.Next();
    CHECK(answer.slot == 0);
    CHECK_THAT(answer.error, Catch::StartsWith("unauthenticated: "));
    CHECK(db.Count("SELECT count(*) FROM persons") == 0);
  }
  client::GrpcClientOptions options;
  options.token = "t0ken";
  client::GrpcUpserts calls(server.grpc_target(), 1, options);
  calls.Start(0, EmailRecord("accepted@x.org"));
  CHECK(calls.Next().error.empty());
  CHECK(db.Count("SELECT count(*) FROM persons") == 1);
}

TEST_CASE("GrpcUpserts gives a refused record's message as the server wrote it", "[pg]") {
  TestDatabase db;
  ServerProcess server({db.url(), {}, {}, false, 4, true});
  client::GrpcUpserts calls(server.grpc_target(), 1);
  calls.Start(0, EmailRecord("jürgen-at-example"));  // no @: rejected
  const client::GrpcUpserts::Answer answer = calls.Next();
  CHECK_THAT(answer.error, Catch::StartsWith("invalid_argument: record rejected"));
  CHECK_THAT(answer.error, Catch::Contains("\"jürgen-at-example\""));
  CHECK(db.Count("SELECT count(*) FROM persons") == 0);
}

TEST_CASE("GrpcUpserts answers a call on a connection the server dropped as unavailable", "[pg]") {
  TestDatabase db;
  ServerProcess server({db.url(), {}, {}, false, 4, true});
  client::GrpcUpserts calls(server.grpc_target(), 1);
  calls.Start(0, EmailRecord("before@x.org"));
  REQUIRE(calls.Next().error.empty());
  server.Signal(SIGKILL);
  server.Wait();
  calls.Start(0, EmailRecord("after@x.org"));
  const client::GrpcUpserts::Answer answer = calls.Next();
  CHECK(answer.slot == 0);
  CHECK_THAT(answer.error, Catch::StartsWith("unavailable: "));
  calls.Start(0, EmailRecord("later@x.org"));  // the slot's connection is gone
  CHECK_THAT(calls.Next().error, Catch::StartsWith("unavailable: "));
  CHECK(db.Count("SELECT count(*) FROM persons") == 1);
}

TEST_CASE("GrpcUpserts answers every call open on a shared connection the server dropped", "[pg]") {
  TestDatabase db;
  ServerProcess server({db.url(), {}, {}, false, 4, true});
  constexpr int kSlots = 4;
  client::GrpcUpserts calls(server.grpc_target(), kSlots, {}, 1);
  // Stopped, the server answers none of the calls; killed, it drops them.
  server.Signal(SIGSTOP);
  for (int slot = 0; slot < kSlots; ++slot) {
    calls.Start(slot, EmailRecord("s" + std::to_string(slot) + "@x.org"));
  }
  server.Signal(SIGKILL);
  server.Wait();
  std::map<int, int> answered;  // slot -> calls answered
  for (int done = 0; done < kSlots; ++done) {
    const client::GrpcUpserts::Answer answer = calls.Next();
    CHECK_THAT(answer.error, Catch::StartsWith("unavailable: "));
    ++answered[answer.slot];
  }
  for (int slot = 0; slot < kSlots; ++slot) CHECK(answered[slot] == 1);
  CHECK(db.Count("SELECT count(*) FROM persons") == 0);
}

}  // namespace
}  // namespace idres::testing
