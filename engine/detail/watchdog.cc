#include "engine/detail/watchdog.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>

#include "base/thread.h"

namespace idres::detail {

Watchdog::~Watchdog() {
  {
    MutexLock lock(&mu_);
    stopping_ = true;
  }
  stopped_.NotifyAll();
  if (thread_.joinable()) thread_.join();
}

std::unique_ptr<Watchdog::Watch> Watchdog::Arm(int fd, Deadline::Clock::time_point at) {
  auto fired = std::make_shared<std::atomic<bool>>(false);
  // A descriptor of our own for the same socket: libpq may close its own
  // when the connection fails, and the number may then name another file.
  const int own = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  std::uint64_t id;
  {
    MutexLock lock(&mu_);
    if (!thread_.joinable()) {
      thread_ = std::thread([this] { Run(); });
      NameThread(thread_, "idres-watchdog");
    }
    id = next_id_++;
    entries_.emplace(id, Entry{own, at, fired});
  }
  // No wake-up: the thread looks every kTick, so arming (once per round
  // trip of a call with a deadline) costs no context switch.
  return std::unique_ptr<Watch>(new Watch(this, id, std::move(fired)));
}

void Watchdog::Disarm(std::uint64_t id) {
  MutexLock lock(&mu_);
  auto it = entries_.find(id);
  if (it == entries_.end()) return;  // fired: already closed
  if (it->second.fd >= 0) ::close(it->second.fd);
  entries_.erase(it);
}

bool Watchdog::Watch::End() {
  if (!ended_) {
    ended_ = true;
    dog_->Disarm(id_);  // under the watchdog's mutex: no cut is half done
  }
  return fired();
}

void Watchdog::Run() {
  MutexLock lock(&mu_);
  while (!stopping_) {
    const auto now = Deadline::Clock::now();
    auto next = Deadline::Clock::time_point::max();
    for (auto it = entries_.begin(); it != entries_.end();) {
      if (it->second.at <= now) {
        // Marked first: the caller's wait may return the moment the socket
        // is shut down, and must then find the watch fired.
        it->second.fired->store(true);
        // Cuts the socket for every descriptor of it, libpq's included.
        if (it->second.fd >= 0) {
          ::shutdown(it->second.fd, SHUT_RDWR);
          ::close(it->second.fd);
        }
        it = entries_.erase(it);
      } else {
        next = std::min(next, it->second.at);
        ++it;
      }
    }
    stopped_.WaitUntil(&mu_, std::min(next, now + kTick));
  }
}

}  // namespace idres::detail
