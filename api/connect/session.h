// The per-connection HTTP/1.1 loop: read a request (every read under a
// deadline, the body limit enforced by the parser so an oversized body is
// refused before it is read whole), answer it, write the response, repeat
// while keep-alive. An Upsert is decoded on the session's network thread
// and handed to the backend, with no thread waiting for it; any other call
// runs the handler on the database thread pool. It does I/O only; what to
// answer is RpcHandler's business. Internal to api/.
#pragma once

// Boost 1.74's asio/awaitable.hpp uses std::exchange without <utility>.
#include <utility>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/thread_pool.hpp>

#include <atomic>
#include <chrono>

#include "api/connect/connection_registry.h"
#include "api/connect/rpc_handler.h"
#include "api/service/limits.h"

namespace idres::api {

// What all sessions share; outlives every session.
struct SessionContext {
  const RpcHandler& handler;
  boost::asio::thread_pool& work;  // database work runs here, never on I/O threads
  Limits limits;
  std::chrono::milliseconds read_timeout;
  const std::atomic<bool>& stopping;
  ConnectionRegistry& registry;
};

// Serves one accepted connection until the client closes it, a deadline
// passes, an error occurs or the server stops. Runs on the socket's strand.
boost::asio::awaitable<void> ServePlain(boost::asio::ip::tcp::socket socket,
                                        SessionContext& context);

// The same over TLS, after a handshake under the read deadline.
boost::asio::awaitable<void> ServeTls(boost::asio::ip::tcp::socket socket,
                                      boost::asio::ssl::context& tls, SessionContext& context);

}  // namespace idres::api
