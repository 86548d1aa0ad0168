#include "api/grpc/grpc_server.h"

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>
#include <boost/asio/thread_pool.hpp>

#include <climits>
#include <condition_variable>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "api/grpc/health_callbacks.h"
#include "api/grpc/identity_callbacks.h"

namespace idres::api {
namespace {

// After the shutdown bound, how long cancelled calls get to end before they
// are abandoned.
constexpr std::chrono::milliseconds kAbandonGrace{500};

std::string ReadPem(const std::string& path, const std::string& flag) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in || text.str().empty()) throw std::runtime_error(flag + " " + path + ": cannot be read");
  return text.str();
}

std::shared_ptr<grpc::ServerCredentials> Credentials(const GrpcOptions& options) {
  if (options.tls_cert.empty() && options.tls_key.empty()) {
    return grpc::InsecureServerCredentials();
  }
  if (options.tls_cert.empty() || options.tls_key.empty()) {
    throw std::runtime_error("--tls-cert and --tls-key go together");
  }
  grpc::SslServerCredentialsOptions ssl;
  ssl.pem_key_cert_pairs.push_back(
      {ReadPem(options.tls_key, "--tls-key"), ReadPem(options.tls_cert, "--tls-cert")});
  return grpc::SslServerCredentials(ssl);
}

}  // namespace

struct GrpcServer::Impl {
  Impl(GrpcOptions opts, const IdentityService& service)
      : options(std::move(opts)),
        work(static_cast<std::size_t>(std::max(1, options.worker_threads))),
        identity(service, work, in_flight, streams),
        health(service.backend(), work, in_flight) {}

  void Start() {
    // Registers reflection with every server built from here on.
    grpc::reflection::InitProtoReflectionServerBuilderPlugin();
    grpc::ServerBuilder builder;
    builder.AddListeningPort(options.listen, Credentials(options), &port);
    const auto most = std::min<std::size_t>(options.max_message_bytes, INT_MAX);
    builder.SetMaxReceiveMessageSize(static_cast<int>(most));
    builder.RegisterService(&identity);
    builder.RegisterService(&health);
    server = builder.BuildAndStart();
    if (!server || port == 0) throw std::runtime_error("cannot listen on " + options.listen);
  }

  void Stop() {
    streams.StopAll();
    server->Shutdown(std::chrono::system_clock::now() + options.shutdown_timeout);
    {
      std::lock_guard lock(mu);
      stopped = true;
    }
    cv.notify_all();
  }

  GrpcOptions options;
  boost::asio::thread_pool work;
  InFlight in_flight;
  Streams streams;
  IdentityCallbacks identity;
  HealthCallbacks health;
  std::unique_ptr<grpc::Server> server;
  int port = 0;
  bool begun = false;  // BeginShutdown() was called
  std::thread stopper;
  std::mutex mu;
  std::condition_variable cv;
  bool stopped = false;
};

GrpcServer::GrpcServer(GrpcOptions options, const IdentityService& service)
    : impl_(std::make_unique<Impl>(std::move(options), service)) {
  impl_->Start();
  spdlog::info("serving gRPC{} on port {}", impl_->options.tls_cert.empty() ? "" : " (TLS)",
               impl_->port);
}

GrpcServer::~GrpcServer() {
  BeginShutdown();
  Wait();
  impl_->work.join();
}

int GrpcServer::port() const { return impl_->port; }

void GrpcServer::BeginShutdown() {
  if (impl_->begun) return;
  impl_->begun = true;
  impl_->stopper = std::thread([impl = impl_.get()] { impl->Stop(); });
}

void GrpcServer::Wait() {
  if (!impl_->stopper.joinable()) return;
  {
    std::unique_lock lock(impl_->mu);
    const auto bound =
        std::chrono::steady_clock::now() + impl_->options.shutdown_timeout + kAbandonGrace;
    if (!impl_->cv.wait_until(lock, bound, [this] { return impl_->stopped; })) {
      spdlog::error("{} gRPC calls still running at the shutdown bound: exiting without them",
                    impl_->in_flight.count());
      spdlog::default_logger()->flush();
      std::_Exit(1);
    }
  }
  impl_->stopper.join();
}

}  // namespace idres::api
