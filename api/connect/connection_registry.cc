#include "api/connect/connection_registry.h"

#include <boost/asio/post.hpp>

namespace idres::api {

void ConnectionRegistry::Add(const std::shared_ptr<Connection>& connection) {
  MutexLock lock(&mu_);
  connections_.insert(connection);
}

void ConnectionRegistry::Remove(const std::shared_ptr<Connection>& connection) {
  MutexLock lock(&mu_);
  connections_.erase(connection);
}

std::size_t ConnectionRegistry::size() const {
  MutexLock lock(&mu_);
  return connections_.size();
}

void ConnectionRegistry::Close(bool all) const {
  MutexLock lock(&mu_);
  for (const auto& connection : connections_) {
    boost::asio::post(connection->strand, [connection, all] {
      if (all || connection->idle) connection->close();
    });
  }
}

}  // namespace idres::api
