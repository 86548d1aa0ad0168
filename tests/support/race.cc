#include "tests/support/race.h"

#include <exception>
#include <latch>
#include <mutex>
#include <thread>
#include <vector>

namespace idres::testing {

void RunConcurrently(int n, const std::function<void(int)>& fn) {
  std::latch start(n);
  std::mutex mu;
  std::exception_ptr first_error;
  std::vector<std::thread> threads;
  threads.reserve(n);
  for (int i = 0; i < n; ++i) {
    threads.emplace_back([&, i] {
      start.arrive_and_wait();
      try {
        fn(i);
      } catch (...) {
        std::lock_guard lock(mu);
        if (!first_error) first_error = std::current_exception();
      }
    });
  }
  for (auto& t : threads) t.join();
  if (first_error) std::rethrow_exception(first_error);
}

}  // namespace idres::testing
