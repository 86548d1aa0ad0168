#include "batch/consume_metrics.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "batch/metrics_listener.h"

namespace idres::batch {
namespace {

TEST_CASE("consume metrics: counts per topic, batch sizes, position and lag per partition",
          "[consume]") {
  ConsumeMetrics m;
  m.OnBatch("in", 500, 497, 3, 3);
  m.OnBatch("in", 7, 7, 0, 0);
  m.OnPosition({"in", 2}, 507, 900);
  m.OnBuffered(12);
  const std::string text = m.Text();
  CHECK_THAT(text, Catch::Contains("idres_consume_messages_total{topic=\"in\"} 507\n"));
  CHECK_THAT(text, Catch::Contains("idres_consume_records_applied_total{topic=\"in\"} 504\n"));
  CHECK_THAT(text, Catch::Contains("idres_consume_dead_letters_total{topic=\"in\"} 3\n"));
  CHECK_THAT(text, Catch::Contains("idres_consume_batch_size_bucket{le=\"10\"} 1\n"));
  CHECK_THAT(text, Catch::Contains("idres_consume_batch_size_bucket{le=\"500\"} 2\n"));
  CHECK_THAT(text, Catch::Contains("idres_consume_lag{topic=\"in\",partition=\"2\"} 393\n"));
  CHECK_THAT(text, Catch::Contains("idres_consume_buffered 12\n"));
  m.Forget({"in", 2});
  CHECK_THAT(m.Text(), !Catch::Contains("partition=\"2\""));
}

std::string Get(int port, const std::string& path) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  ::inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
  REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  const std::string request = "GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n";
  REQUIRE(::send(fd, request.data(), request.size(), 0) == static_cast<ssize_t>(request.size()));
  std::string response;
  char buffer[4096];
  for (ssize_t n; (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;) response.append(buffer, n);
  ::close(fd);
  return response;
}

TEST_CASE("metrics listener: GET /metrics answers the text, anything else 404", "[consume]") {
  MetricsListener listener("127.0.0.1:0", [] { return std::string("idres_up 1\n"); });
  REQUIRE(listener.port() > 0);
  const std::string ok = Get(listener.port(), "/metrics");
  CHECK(ok.starts_with("HTTP/1.1 200 OK\r\n"));
  CHECK(ok.ends_with("\r\n\r\nidres_up 1\n"));
  CHECK(Get(listener.port(), "/other").starts_with("HTTP/1.1 404"));
  CHECK_THROWS_WITH(MetricsListener("nowhere", [] { return std::string(); }),
                    Catch::Contains("expected IPv4-ADDRESS:PORT"));
}

}  // namespace
}  // namespace idres::batch
