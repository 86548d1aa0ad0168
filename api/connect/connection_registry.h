// ConnectionRegistry: the open client connections, so that a graceful stop
// can close the idle ones at once and the busy ones after their response
// (or all of them when the shutdown bound is reached). Internal to api/.
//
// Thread-safety: all methods may be called from any thread. Each
// Connection's fields are only touched on that connection's strand.
#pragma once

#include <boost/asio/any_io_executor.hpp>

#include <cstddef>
#include <functional>
#include <memory>
#include <set>

#include "base/mutex.h"

namespace idres::api {

struct Connection {
  boost::asio::any_io_executor strand;
  std::function<void()> close;  // cancels pending I/O and closes the socket
  bool idle = true;             // waiting for the next request's headers
};

class ConnectionRegistry {
 public:
  void Add(const std::shared_ptr<Connection>& connection) EXCLUDES(mu_);
  void Remove(const std::shared_ptr<Connection>& connection) EXCLUDES(mu_);
  std::size_t size() const EXCLUDES(mu_);

  // Closes every connection that waits for a request (busy ones notice the
  // stop themselves after their response), or every one when `all`.
  void Close(bool all) const EXCLUDES(mu_);

 private:
  mutable Mutex mu_;
  std::set<std::shared_ptr<Connection>> connections_ GUARDED_BY(mu_);
};

}  // namespace idres::api
