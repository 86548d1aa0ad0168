// The engine's connection pool serves its callers in the order they came:
// with more callers than connections, one that returns a connection and
// borrows again goes behind those already waiting; one whose deadline passes
// leaves the queue without disturbing it. A connection the server closed
// while it sat idle is replaced before anyone uses it.
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <pqxx/pqxx>
#include <string>
#include <thread>
#include <vector>

#include "engine/detail/pool.h"
#include "engine/errors.h"
#include "tests/support/test_db.h"

namespace idres::testing {
namespace {

// Blocks until `pool` has `n` callers waiting in Borrow().
void AwaitWaiting(const detail::Pool& pool, int n) {
  while (pool.Waiting() < n) std::this_thread::yield();
}

TEST_CASE("the pool serves waiting callers first come, first served", "[pg][engine]") {
  TestDatabase db;
  detail::Pool pool(db.url(), 1, false);
  std::mutex mu;
  std::vector<int> order;  // who got the connection, in turn
  const auto record = [&](int who) {
    std::lock_guard lock(mu);
    order.push_back(who);
  };

  std::optional<detail::Pool::Lease> held(pool.Borrow());
  std::vector<std::thread> waiters;
  for (int who = 1; who <= 3; ++who) {
    waiters.emplace_back([&, who] {
      detail::Pool::Lease lease = pool.Borrow();
      record(who);
    });
    AwaitWaiting(pool, who);  // queued strictly one after the other
  }
  // The holder returns its connection and at once asks for it again, as a
  // busy caller does: it must not overtake the three waiting callers.
  held.reset();
  {
    detail::Pool::Lease again = pool.Borrow();
    record(0);
  }
  for (std::thread& t : waiters) t.join();

  CHECK(order == std::vector<int>{1, 2, 3, 0});
  CHECK(pool.InUse() == 0);
  CHECK(pool.Waiting() == 0);
}

TEST_CASE("a waiting caller gets the slot of a connection returned broken", "[pg][engine]") {
  TestDatabase db;
  detail::Pool pool(db.url(), 1, false);
  std::optional<detail::Pool::Lease> held(pool.Borrow());
  std::thread waiter([&] {
    detail::Pool::Lease lease = pool.Borrow();
    // The slot reconnected for this caller.
    CHECK(lease.conn().ok());
  });
  AwaitWaiting(pool, 1);
  held->MarkBroken();
  held.reset();
  waiter.join();
  CHECK(pool.InUse() == 0);
}

TEST_CASE("a caller whose deadline passes in the queue leaves it, the others keep their turn",
          "[pg][engine]") {
  TestDatabase db;
  detail::Pool pool(db.url(), 1, false);
  std::mutex mu;
  std::vector<int> order;
  const auto borrow = [&](int who) {
    detail::Pool::Lease lease = pool.Borrow();
    std::lock_guard lock(mu);
    order.push_back(who);
  };

  std::optional<detail::Pool::Lease> held(pool.Borrow());
  std::thread first(borrow, 1);
  AwaitWaiting(pool, 1);
  // Queued between two patient callers, long enough to see the third join.
  std::thread impatient([&] {
    CHECK_THROWS_AS(pool.Borrow(Deadline::After(std::chrono::milliseconds(1000))), DeadlineError);
  });
  AwaitWaiting(pool, 2);
  std::thread third(borrow, 3);
  AwaitWaiting(pool, 3);
  impatient.join();
  CHECK(pool.Waiting() == 2);
  // Were the impatient caller still queued, its slot would go to a waiter
  // that no longer exists, and the third caller would never be served.
  held.reset();
  first.join();
  third.join();
  CHECK(order == std::vector<int>{1, 3});
  CHECK(pool.InUse() == 0);
  CHECK(pool.Waiting() == 0);
}

std::int64_t BackendPid(detail::PgConn& conn) {
  const detail::Call pid{nullptr, "SELECT pg_backend_pid()", {}};
  return conn.Run(std::span<const detail::Call>(&pid, 1)).at(0).at(0)[0].as<std::int64_t>();
}

TEST_CASE("a connection the server closed while idle is replaced, not lent out", "[pg][engine]") {
  TestDatabase db;
  detail::Pool pool(db.url(), 2, true);
  std::string pids;
  std::vector<std::int64_t> backends;
  {
    detail::Pool::Lease a = pool.Borrow();
    detail::Pool::Lease b = pool.Borrow();
    for (detail::Pool::Lease* lease : {&a, &b}) {
      backends.push_back(BackendPid(lease->conn()));
      if (!pids.empty()) pids += ",";
      pids += std::to_string(backends.back());
    }
  }
  // What a restart does to every pooled connection.
  REQUIRE(db.Count("SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM "
                   "pg_stat_activity WHERE pid IN (" +
                   pids + ")) t") == 2);
  while (db.Count("SELECT count(*) FROM pg_stat_activity WHERE pid IN (" + pids + ")") > 0) {
    std::this_thread::yield();
  }
  // A backend leaves pg_stat_activity before its process exits and closes
  // the socket; the pool can only see a socket that is closed. Wait for the
  // processes themselves (the test server runs on this machine; the bound
  // only keeps a remote one from hanging the test).
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (const std::int64_t pid : backends) {
    while (std::filesystem::exists("/proc/" + std::to_string(pid)) &&
           std::chrono::steady_clock::now() < give_up) {
      std::this_thread::yield();
    }
  }

  detail::Pool::Lease a = pool.Borrow();
  detail::Pool::Lease b = pool.Borrow();
  for (detail::Pool::Lease* lease : {&a, &b}) {
    CHECK_NOTHROW(BackendPid(lease->conn()));
  }
}

}  // namespace
}  // namespace idres::testing
