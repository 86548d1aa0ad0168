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

Rendezvous::Rendezvous(int n, std::chrono::milliseconds give_up) : n_(n), give_up_(give_up) {}

void Rendezvous::Arrive() {
  MutexLock lock(&mu_);
  const std::uint64_t mine = generation_;
  if (++arrived_ < n_) {
    const auto give_up = std::chrono::steady_clock::now() + give_up_;
    while (generation_ == mine) {
      if (!cv_.WaitUntil(&mu_, give_up)) break;
    }
  }
  if (generation_ == mine) {  // complete, or given up on: open the next one
    arrived_ = 0;
    ++generation_;
    cv_.NotifyAll();
  }
}

}  // namespace idres::testing
