#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

// `idres import --server`: the real binaries, a served and a direct store.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "tests/batch/child_process.h"
#include "tests/batch/data_sets.h"
#include "tests/batch/splink_args.h"
#include "tests/batch/store_snapshot.h"
#include "tests/batch/temp_dir.h"
#include "tests/support/test_db.h"

namespace idres::batch {
namespace {

using testing::TempDir;
using testing::TestDatabase;

// A port nobody listens on right now (the kernel picks it).
int FreePort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

bool Accepts(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  ::close(fd);
  return ok;
}

TEST_CASE("import --server goes through the service's BatchUpsert to the same store",
          "[pg][import][server]") {
  const std::string splink = testing::DataSet("splink_fake_1000.csv");
  TempDir dir;
  TestDatabase direct;
  std::vector<std::string> args = testing::SplinkImportArgs(splink, dir, "direct");
  args.insert(args.end(), {"--database-url", direct.url()});
  REQUIRE(testing::RunToEnd(args, dir.File("log")) == 0);

  TestDatabase served;
  const int port = FreePort();
  testing::ChildProcess server(
      {testing::IdresBinary(), "serve", "--listen", "127.0.0.1:" + std::to_string(port),
       "--database-url", served.url()},
      dir.File("serve.log"));
  // Waiting for start-up, not asserting on time: the loop ends when the
  // port accepts, or fails when the server died.
  while (!Accepts(port)) {
    if (server.Poll()) FAIL("idres serve exited; see " + dir.File("serve.log"));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  args = testing::SplinkImportArgs(splink, dir, "served");
  args.insert(args.end(), {"--server", "http://127.0.0.1:" + std::to_string(port)});
  REQUIRE(testing::RunToEnd(args, dir.File("log")) == 0);

  CHECK(testing::PersonsByIdentifiers(served, false) ==
        testing::PersonsByIdentifiers(direct, false));
  CHECK(testing::ReadFile(dir.File("served.dead")) == testing::ReadFile(dir.File("direct.dead")));
}

}  // namespace
}  // namespace idres::batch
