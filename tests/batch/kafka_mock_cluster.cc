// A Kafka cluster for the tests: librdkafka's mock cluster (rdkafka_mock.h,
// the real Kafka protocol on the loopback, no broker to install), kept
// alive in a process of its own so that the consumers and publishers under
// test can be killed and started again against the same topics.
//
//   kafka_mock_cluster TOPIC:PARTITIONS...
//
// Creates the topics, prints "bootstrap <host:port,...>" on a line of its
// own, and runs until SIGTERM or SIGINT.
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

#include <unistd.h>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

volatile std::sig_atomic_t g_stop = 0;
void OnSignal(int) { g_stop = 1; }

}  // namespace

int main(int argc, char** argv) {
  char error[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "log_level", "3", error, sizeof error);
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof error);
  if (rk == nullptr) {
    std::fprintf(stderr, "kafka_mock_cluster: %s\n", error);
    return 1;
  }
  rd_kafka_mock_cluster_t* cluster = rd_kafka_mock_cluster_new(rk, 1);
  if (cluster == nullptr) {
    std::fprintf(stderr, "kafka_mock_cluster: cannot create the cluster\n");
    return 1;
  }
  for (int i = 1; i < argc; ++i) {
    const std::string spec = argv[i];
    const auto colon = spec.rfind(':');
    const int partitions = colon == std::string::npos ? 1 : std::atoi(spec.c_str() + colon + 1);
    const std::string topic = spec.substr(0, colon);
    if (rd_kafka_mock_topic_create(cluster, topic.c_str(), partitions, 1) != 0) {
      std::fprintf(stderr, "kafka_mock_cluster: cannot create topic %s\n", topic.c_str());
      return 1;
    }
  }
  std::printf("bootstrap %s\n", rd_kafka_mock_cluster_bootstraps(cluster));
  std::fflush(stdout);
  std::signal(SIGTERM, OnSignal);
  std::signal(SIGINT, OnSignal);
  while (!g_stop) ::usleep(100 * 1000);
  rd_kafka_mock_cluster_destroy(cluster);
  rd_kafka_destroy(rk);
  return 0;
}
