#include "bench/suite/serve_child.h"

#include <chrono>
#include <stdexcept>
#include <thread>

#include "client/http_client.h"

namespace idres::bench {

ServeChild::ServeChild(const SuiteContext& ctx, const std::string& database_url, int pool) {
  for (int p = ctx.http_port_first; p <= ctx.http_port_last; ++p) {
    if (client::PortOpen("127.0.0.1", p)) continue;
    if (port_ == 0) {
      port_ = p;
    } else {
      grpc_port_ = p;
      break;
    }
  }
  if (grpc_port_ == 0) throw std::runtime_error("no free ports for idres serve");
  std::vector<std::string> argv =
      Expand(ctx.serve_args, std::to_string(port_), database_url, std::to_string(pool));
  argv.insert(argv.begin(), ctx.idres_binary);
  argv.insert(argv.end(), {"--grpc-listen", grpc_target()});
  child_ = std::make_unique<ChildProcess>(argv, ctx.work_dir + "/serve.log");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!client::PortOpen("127.0.0.1", port_) || !client::PortOpen("127.0.0.1", grpc_port_)) {
    if (child_->Poll() || std::chrono::steady_clock::now() > deadline) {
      const std::string tail = child_->Log(2000);
      child_->Stop();
      throw std::runtime_error("idres serve did not start: " + tail);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

ServeChild::~ServeChild() { Stop(); }

int ServeChild::Stop() { return child_->Stop(); }

}  // namespace idres::bench
