#include "tests/support/race.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <latch>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

using idres::testing::Rendezvous;
using idres::testing::RunConcurrently;

TEST_CASE("RunConcurrently calls every index once, each on its own thread") {
  std::mutex mu;
  std::multiset<int> seen;
  std::set<std::thread::id> threads;
  RunConcurrently(8, [&](int i) {
    std::lock_guard lock(mu);
    seen.insert(i);
    threads.insert(std::this_thread::get_id());
  });
  CHECK(seen == std::multiset<int>{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(threads.size() == 8);
}

TEST_CASE("RunConcurrently runs all functions at the same time") {
  // Every function waits for all the others to arrive: run one after
  // another, this would never finish (ctest's timeout fails it).
  std::latch all_inside(16);
  std::atomic<int> done{0};
  RunConcurrently(16, [&](int) {
    all_inside.arrive_and_wait();
    ++done;
  });
  CHECK(done == 16);
}

TEST_CASE("RunConcurrently rethrows after every function ended") {
  std::atomic<int> finished{0};
  CHECK_THROWS_AS(RunConcurrently(4,
                                  [&](int i) {
                                    ++finished;
                                    if (i == 2) throw std::runtime_error("boom");
                                  }),
                  std::runtime_error);
  CHECK(finished == 4);
}

TEST_CASE("Rendezvous holds every thread until all of a generation arrived") {
  // Each thread records how many had arrived before it left: with a working
  // rendezvous (and a give-up far beyond any scheduling delay) every thread
  // of a round leaves after all four arrived.
  Rendezvous meet(4, std::chrono::minutes(10));
  std::atomic<int> arrived{0};
  std::atomic<int> left_early{0};
  RunConcurrently(4, [&](int) {
    for (int round = 1; round <= 3; ++round) {
      ++arrived;
      meet.Arrive();
      if (arrived.load() < 4 * round) ++left_early;
    }
  });
  CHECK(arrived == 12);
  CHECK(left_early == 0);
}
