#include "api/connect/server.h"

// Boost 1.74's asio/awaitable.hpp uses std::exchange without <utility>.
#include <utility>

#include <spdlog/spdlog.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/signal_set.hpp>

#include <csignal>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

#include "api/connect/connection_registry.h"
#include "api/connect/rpc_handler.h"
#include "api/connect/session.h"

namespace idres::api {

namespace asio = boost::asio;

// After the shutdown bound closed every connection, how long sessions get
// to end before their calls are abandoned.
constexpr std::chrono::milliseconds kAbandonGrace{200};
using asio::ip::tcp;

namespace {

tcp::endpoint ParseListen(const std::string& listen) {
  const auto colon = listen.rfind(':');
  if (colon == std::string::npos) throw std::runtime_error("--listen must be host:port");
  std::string host = listen.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  boost::system::error_code ec;
  const auto address = asio::ip::make_address(host.empty() ? "0.0.0.0" : host, ec);
  if (ec) throw std::runtime_error("--listen: not an IP address: " + host);
  int port = 0;
  try {
    port = std::stoi(listen.substr(colon + 1));
  } catch (const std::exception&) {
    port = -1;
  }
  if (port < 0 || port > 65535) throw std::runtime_error("--listen: bad port in " + listen);
  return {address, static_cast<unsigned short>(port)};
}

}  // namespace

struct Server::Impl {
  Impl(ServerOptions opts, const IdentityService& service, Metrics* metrics)
      : options(std::move(opts)),
        handler(service, metrics, {options.pool_size}),
        work(static_cast<std::size_t>(std::max(1, options.worker_threads))),
        acceptor(io),
        signals(io, SIGINT, SIGTERM),
        context{handler, work, options.limits, options.read_timeout, stopping, registry} {}

  void Listen() {
    const auto endpoint = ParseListen(options.listen);
    acceptor.open(endpoint.protocol());
    acceptor.set_option(asio::socket_base::reuse_address(true));
    boost::system::error_code ec;
    acceptor.bind(endpoint, ec);
    if (ec) throw std::runtime_error("cannot listen on " + options.listen + ": " + ec.message());
    acceptor.listen(asio::socket_base::max_listen_connections);
    if (!options.tls_cert.empty() || !options.tls_key.empty()) LoadTls();
  }

  void LoadTls() {
    if (options.tls_cert.empty() || options.tls_key.empty()) {
      throw std::runtime_error("--tls-cert and --tls-key go together");
    }
    tls.emplace(asio::ssl::context::tls_server);
    tls->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                     asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                     asio::ssl::context::no_tlsv1_1);
    boost::system::error_code ec;
    tls->use_certificate_chain_file(options.tls_cert, ec);
    if (ec) throw std::runtime_error("--tls-cert " + options.tls_cert + ": " + ec.message());
    tls->use_private_key_file(options.tls_key, asio::ssl::context::pem, ec);
    if (ec) throw std::runtime_error("--tls-key " + options.tls_key + ": " + ec.message());
  }

  asio::awaitable<void> Accept() {
    for (;;) {
      boost::system::error_code ec;
      tcp::socket socket = co_await acceptor.async_accept(
          asio::make_strand(io), asio::redirect_error(asio::use_awaitable, ec));
      if (ec) {
        if (stopping) co_return;
        spdlog::warn("accept failed: {}", ec.message());
        continue;
      }
      auto executor = socket.get_executor();
      if (tls) {
        asio::co_spawn(executor, ServeTls(std::move(socket), *tls, context), asio::detached);
      } else {
        asio::co_spawn(executor, ServePlain(std::move(socket), context), asio::detached);
      }
    }
  }

  // A hangup calls on_hangup and waits for the next signal; SIGINT and
  // SIGTERM stop.
  void WaitForSignal() {
    signals.async_wait([this](const boost::system::error_code& ec, int signal) {
      if (ec) return;
      spdlog::info("signal {} received", signal);
      if (signal != SIGHUP) return BeginStop();
      options.on_hangup();
      WaitForSignal();
    });
  }

  // Graceful stop: no new connections, idle ones closed now, busy ones
  // after their response; whatever is left at the bound is closed.
  void BeginStop() {
    if (stopping.exchange(true)) return;
    spdlog::info("stopping: finishing in-flight calls (up to {} ms)",
                 options.shutdown_timeout.count());
    boost::system::error_code ignored;
    acceptor.close(ignored);
    signals.cancel(ignored);
    registry.Close(/*all=*/false);
    if (options.on_stop) options.on_stop();
    asio::co_spawn(io, Drain(), asio::detached);
  }

  asio::awaitable<void> Drain() {
    const auto deadline = std::chrono::steady_clock::now() + options.shutdown_timeout;
    asio::steady_timer timer(io);
    while (registry.size() > 0 && std::chrono::steady_clock::now() < deadline) {
      registry.Close(/*all=*/false);  // busy ones that went idle meanwhile
      timer.expires_after(std::chrono::milliseconds(20));
      co_await timer.async_wait(asio::use_awaitable);
    }
    if (registry.size() == 0) co_return;
    spdlog::warn("shutdown bound reached: closing {} connections", registry.size());
    registry.Close(/*all=*/true);
    // Closed sessions end at once unless a call of theirs still runs on a
    // database thread or waits in the engine's queue, which nothing can
    // interrupt: do not wait for it.
    timer.expires_after(kAbandonGrace);
    co_await timer.async_wait(asio::use_awaitable);
    if (registry.size() > 0) {
      spdlog::error("{} calls still running at the shutdown bound: exiting without them",
                    registry.size());
      spdlog::default_logger()->flush();
      std::_Exit(1);
    }
  }

  ServerOptions options;
  RpcHandler handler;
  asio::io_context io;
  asio::thread_pool work;
  tcp::acceptor acceptor;
  asio::signal_set signals;
  std::optional<asio::ssl::context> tls;
  std::atomic<bool> stopping{false};
  ConnectionRegistry registry;
  SessionContext context;
};

Server::Server(ServerOptions options, const IdentityService& service, Metrics* metrics)
    : impl_(std::make_unique<Impl>(std::move(options), service, metrics)) {
  impl_->Listen();
}

Server::~Server() { impl_->work.join(); }

int Server::port() const { return impl_->acceptor.local_endpoint().port(); }

void Server::Run() {
  auto& impl = *impl_;
  if (impl.options.on_hangup) impl.signals.add(SIGHUP);
  impl.WaitForSignal();
  asio::co_spawn(impl.io, impl.Accept(), asio::detached);
  spdlog::info("serving {} on {}:{}", impl.tls ? "https" : "http",
               impl.acceptor.local_endpoint().address().to_string(), port());
  std::vector<std::thread> threads;
  for (int i = 1; i < std::max(1, impl.options.io_threads); ++i) {
    threads.emplace_back([&impl] { impl.io.run(); });
  }
  impl.io.run();
  for (auto& t : threads) t.join();
  impl.work.join();  // in-flight database calls end before the pool closes
  spdlog::info("stopped");
}

void Server::Stop() {
  asio::post(impl_->io, [impl = impl_.get()] { impl->BeginStop(); });
}

}  // namespace idres::api
