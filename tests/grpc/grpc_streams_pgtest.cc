// The two streams of a real `idres serve --grpc-listen`, driven by the
// Python client (tests/grpc/client.py): an UpsertStream of 100,000 records
// with receipts cut by kill -9 and sent again ends as a single clean run
// does, and a WatchChanges follower sees every change of 10,000 upserts once,
// in position order, across a restart of the server.
#include <signal.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "tests/api/server_process.h"
#include "tests/batch/store_snapshot.h"
#include "tests/grpc/python_client.h"
#include "tests/support/test_db.h"

namespace idres::testing {
namespace {

constexpr int kStreamRecords = 100000;

ServeOptions Grpc(const TestDatabase& db) { return {db.url(), {}, {}, false, 4, true}; }

std::string Records(int n) { return std::to_string(n); }

// The number the client last wrote to `path`; 0 before it wrote one.
int Progress(const std::string& path) {
  std::ifstream in(path);
  int n = 0;
  in >> n;
  return n;
}

TEST_CASE("An UpsertStream cut by kill -9 and sent again with its receipts applies each once",
          "[pg]") {
  const std::vector<std::string> stream = {"--records", Records(kStreamRecords), "--job", "41"};
  TestDatabase clean;
  {
    ServerProcess server(Grpc(clean));
    REQUIRE(RunClient("stream", server.grpc_target(), stream) == 0);
  }
  TestDatabase cut;
  ServerProcess server(Grpc(cut));
  ScratchDir dir;
  std::vector<std::string> watched = stream;
  watched.insert(watched.end(), {"--progress", dir.Path("progress")});
  {
    PythonClient first("stream", server.grpc_target(), watched);
    // Readiness, not timing: kill once half the records were answered.
    while (Progress(dir.Path("progress")) < kStreamRecords / 2) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    server.Signal(SIGKILL);
    server.Wait();
    INFO(first.Log());
    CHECK(first.Wait() == 3);  // the stream was cut
  }
  server.Restart();
  REQUIRE(RunClient("stream", server.grpc_target(), stream) == 0);
  CHECK(PersonsByIdentifiers(cut, false) == PersonsByIdentifiers(clean, false));
  CHECK(cut.Count("SELECT count(*) FROM records") == clean.Count("SELECT count(*) FROM records"));
  CHECK(cut.Count("SELECT count(*) FROM persons") == clean.Count("SELECT count(*) FROM persons"));
}

// Each line the follower wrote: "<position> <person id> <kind>".
std::vector<std::string> Lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST_CASE("WatchChanges follows 10,000 upserts across a restart: every change once, in order",
          "[pg]") {
  TestDatabase db;
  ServerProcess server(Grpc(db));
  ScratchDir dir;
  PythonClient follower("watch", server.grpc_target(),
                        {"--out", dir.Path("seen"), "--target-file", dir.Path("target")});
  REQUIRE(RunClient("stream", server.grpc_target(), {"--records", "5000"}) == 0);
  server.Signal(SIGTERM);  // the follower's stream ends with OK
  REQUIRE(server.Wait() == 0);
  server.Restart();
  REQUIRE(RunClient("stream", server.grpc_target(), {"--records", "5000", "--first", "5000"}) == 0);
  {
    std::ofstream target(dir.Path("target"));
    target << db.Count("SELECT count(*) FROM changes");
  }
  INFO(follower.Log());
  REQUIRE(follower.Wait() == 0);
  CHECK_THAT(follower.Log(), Catch::Contains("ends: OK"));
  const auto rows = db.Rows("SELECT position, person_id FROM changes ORDER BY position");
  const auto seen = Lines(dir.Path("seen"));
  REQUIRE(seen.size() == rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::istringstream line(seen[i]);
    std::string position, person;
    line >> position >> person;
    REQUIRE(position == std::to_string(i + 1));
    CHECK(position == rows[i][0]);
    CHECK(person == rows[i][1]);
  }
}

}  // namespace
}  // namespace idres::testing
