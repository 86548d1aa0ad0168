// The watchdog (engine/detail/watchdog.h) cuts a socket whose wait outlived
// its moment. The caller learns of the cut from its wait failing, and must
// then find the watch fired: otherwise a call cut at its deadline is
// reported as a database that went away (stop 13's red CI run).
#include "engine/detail/watchdog.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>

namespace idres::detail {
namespace {

using std::chrono::milliseconds;

// A connected pair of sockets, closed at the end of the scope.
struct SocketPair {
  SocketPair() { REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0); }
  ~SocketPair() {
    ::close(fds[0]);
    ::close(fds[1]);
  }
  int fds[2];
};

// Waits, as libpq does, until the socket can be read (or is cut).
void WaitReadable(int fd) {
  pollfd p{fd, POLLIN, 0};
  while (::poll(&p, 1, -1) < 0) {
  }
}

TEST_CASE("a cut socket's watch has fired by the time the wait on it returns", "[engine]") {
  Watchdog dog;
  // Many rounds: the wait returns the moment the socket is shut down, on
  // the other core, so a flag set after the cut is seen late now and then.
  for (int round = 0; round < 300; ++round) {
    SocketPair pair;
    auto watch = dog.Arm(pair.fds[0], Deadline::Clock::now() + milliseconds(1));
    WaitReadable(pair.fds[0]);
    const bool fired = watch->fired();
    REQUIRE(fired);
    char byte;
    CHECK(::read(pair.fds[0], &byte, 1) == 0);  // shut down, not data
  }
}

TEST_CASE("a watch that ends before its moment never cuts", "[engine]") {
  Watchdog dog;
  SocketPair pair;
  {
    // Two ticks ahead: ended long before the watchdog looks at it.
    auto watch = dog.Arm(pair.fds[0], Deadline::Clock::now() + 2 * Watchdog::kTick);
    CHECK(watch->End() == false);
  }
  // Past the moment and two ticks more: the socket still carries data.
  pollfd p{pair.fds[0], POLLIN, 0};
  CHECK(::poll(&p, 1, static_cast<int>(4 * Watchdog::kTick.count())) == 0);
  REQUIRE(::write(pair.fds[1], "x", 1) == 1);
  char byte = 0;
  CHECK(::read(pair.fds[0], &byte, 1) == 1);
  CHECK(byte == 'x');
}

TEST_CASE("ending a watch says whether the cut came first", "[engine]") {
  Watchdog dog;
  SocketPair pair;
  auto watch = dog.Arm(pair.fds[0], Deadline::Clock::now());
  WaitReadable(pair.fds[0]);
  CHECK(watch->End());
  CHECK(watch->End());  // ending twice changes nothing
}

}  // namespace
}  // namespace idres::detail
