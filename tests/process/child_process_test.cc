#include "process/child_process.h"

#include <catch2/catch.hpp>
#include <csignal>
#include <cstdlib>
#include <string>
#include <thread>

#include "tests/support/temp_dir.h"

namespace idres {
namespace {

// The children's logs, in a directory removed when the tests end.
std::string LogPath(const std::string& name) {
  static const testing::TempDir dir;
  return dir.File(name);
}

TEST_CASE("an exit status is the program's exit code", "[process]") {
  CHECK(RunToEnd({"sh", "-c", "exit 0"}, LogPath("zero")) == 0);
  CHECK(RunToEnd({"sh", "-c", "exit 3"}, LogPath("three")) == 3);
}

TEST_CASE("output and the given variables reach the log", "[process]") {
  ChildProcess child({"sh", "-c", "echo \"out $IDRES_TEST_VALUE\"; echo err >&2"}, LogPath("log"),
                     {"IDRES_TEST_VALUE=42"});
  CHECK(child.Wait() == 0);
  const std::string log = child.Log();
  CHECK(log.find("out 42") != std::string::npos);
  CHECK(log.find("err") != std::string::npos);
  CHECK(child.Log(3) == "rr\n");
}

TEST_CASE("a child ended by a signal has minus the signal as its status", "[process]") {
  ChildProcess child({"sleep", "30"}, LogPath("killed"));
  CHECK_FALSE(child.Poll().has_value());
  child.Signal(SIGKILL);
  CHECK(child.Wait() == -SIGKILL);
  CHECK(child.Poll() == -SIGKILL);
}

TEST_CASE("Stop ends a child that ignores SIGTERM with SIGKILL", "[process]") {
  ChildProcess child({"sh", "-c", "trap '' TERM; echo ready; while :; do sleep 0.1; done"},
                     LogPath("stubborn"));
  // Only once the trap is set: a SIGTERM before it would end the shell.
  while (child.Log().find("ready") == std::string::npos) {
    REQUIRE_FALSE(child.Poll().has_value());
    std::this_thread::yield();
  }
  CHECK(child.Stop(std::chrono::seconds(1)) == -SIGKILL);
}

TEST_CASE("a program that cannot be run exits 127, as in a shell", "[process]") {
  CHECK(RunToEnd({"/nonexistent/idres-no-such-program"}, LogPath("none")) == 127);
}

}  // namespace
}  // namespace idres
