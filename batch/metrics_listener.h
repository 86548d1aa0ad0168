// MetricsListener: `idres consume --metrics-listen HOST:PORT`: answers
// GET /metrics with the text `render` returns (Prometheus' text format) and
// anything else with 404, one connection at a time on a thread of its own
// (a scraper calls every few seconds; nothing here needs more).
//
// Thread-safety: `render` is called on the listener's thread.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <thread>

namespace idres::batch {

class MetricsListener {
 public:
  // Listens on `listen` ("host:port"; port 0: any free one). Throws
  // std::runtime_error saying why it cannot.
  MetricsListener(const std::string& listen, std::function<std::string()> render);
  // Stops listening and joins the thread.
  ~MetricsListener();
  MetricsListener(const MetricsListener&) = delete;
  MetricsListener& operator=(const MetricsListener&) = delete;

  int port() const { return port_; }

 private:
  void Serve();
  void Answer(int fd);

  std::function<std::string()> render_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace idres::batch
