// StallProxy: a TCP relay between the engine and PostgreSQL that can stop
// relaying, for tests of a database that does not answer (a frozen host, a
// network partition): bytes sent to it are taken and never delivered, and
// nothing comes back, while both connections stay open.
//
// Thread-safety: Stall() and Resume() may be called from any thread.
#pragma once

#include <atomic>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "base/mutex.h"

namespace idres::testing {

class StallProxy {
 public:
  // Relays to the host and port of libpq URL `url`
  // (postgresql://user@host:port/db).
  explicit StallProxy(const std::string& url);
  ~StallProxy();
  StallProxy(const StallProxy&) = delete;
  StallProxy& operator=(const StallProxy&) = delete;

  // `url` with its host and port replaced by the proxy's.
  std::string url() const { return url_; }
  void Stall() { stalled_ = true; }
  // Stalls once bytes from a client contain the word `marker` (e.g.
  // "COMMIT", which "COMMITTED" does not match): those bytes are dropped,
  // and nothing more is relayed on any connection until Resume().
  void StallAt(const std::string& marker) EXCLUDES(marker_mu_);
  void Resume() { stalled_ = false; }

 private:
  void Accept() EXCLUDES(mu_);
  void Relay(int client, int server);
  // Whether `bytes` from a client carry the marker (then stalls, once).
  bool Withheld(std::string_view bytes) EXCLUDES(marker_mu_);

  std::string host_, port_, url_;
  int listener_ = -1;
  std::atomic<bool> stalled_{false};
  Mutex marker_mu_;
  std::string marker_ GUARDED_BY(marker_mu_);  // empty: none
  std::atomic<bool> stopping_{false};
  Mutex mu_;
  std::vector<std::thread> relays_ GUARDED_BY(mu_);
  std::thread acceptor_;
};

}  // namespace idres::testing
