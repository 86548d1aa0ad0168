#include "engine/detail/watchdog.h"

#include <sys/socket.h>

#include <algorithm>

namespace idres::detail {

Watchdog::~Watchdog() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::unique_ptr<Watchdog::Watch> Watchdog::Arm(int fd, Deadline::Clock::time_point at) {
  auto fired = std::make_shared<std::atomic<bool>>(false);
  std::uint64_t id;
  {
    std::lock_guard lock(mu_);
    if (!thread_.joinable()) thread_ = std::thread([this] { Run(); });
    id = next_id_++;
    entries_.emplace(id, Entry{fd, at, fired});
  }
  changed_.notify_all();
  return std::unique_ptr<Watch>(new Watch(this, id, std::move(fired)));
}

void Watchdog::Disarm(std::uint64_t id) {
  std::lock_guard lock(mu_);
  entries_.erase(id);
}

Watchdog::Watch::~Watch() { dog_->Disarm(id_); }

void Watchdog::Run() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    const auto now = Deadline::Clock::now();
    auto next = Deadline::Clock::time_point::max();
    for (auto it = entries_.begin(); it != entries_.end();) {
      if (it->second.at <= now) {
        // Under the mutex: the Watch, and so the connection, still lives.
        ::shutdown(it->second.fd, SHUT_RDWR);
        it->second.fired->store(true);
        it = entries_.erase(it);
      } else {
        next = std::min(next, it->second.at);
        ++it;
      }
    }
    if (next == Deadline::Clock::time_point::max()) {
      changed_.wait(lock);
    } else {
      changed_.wait_until(lock, next);
    }
  }
}

}  // namespace idres::detail
