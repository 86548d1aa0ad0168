#include "tests/batch/kafka_cluster.h"

#include <librdkafka/rdkafkacpp.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "batch/kafka_producer.h"

namespace idres::testing {
namespace {

std::unique_ptr<RdKafka::KafkaConsumer> Reader(const std::string& bootstrap) {
  std::unique_ptr<RdKafka::Conf> conf(RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL));
  std::string error;
  conf->set("bootstrap.servers", bootstrap, error);
  conf->set("group.id", "idres-test-reader", error);
  conf->set("enable.auto.commit", "false", error);
  conf->set("enable.partition.eof", "true", error);
  std::unique_ptr<RdKafka::KafkaConsumer> c(RdKafka::KafkaConsumer::create(conf.get(), error));
  REQUIRE(c);
  return c;
}

}  // namespace

MockKafka::MockKafka(const TempDir& dir, const std::vector<std::string>& topics) {
  std::vector<std::string> argv{IDRES_KAFKA_MOCK};
  argv.insert(argv.end(), topics.begin(), topics.end());
  process_ = std::make_unique<ChildProcess>(argv, dir.File("kafka.log"));
  // It prints its address once it listens; a process that ended says why.
  for (int i = 0; i < 600 && bootstrap_.empty(); ++i) {
    const std::string log = process_->Log();
    const auto at = log.find("bootstrap ");
    if (at != std::string::npos && log.find('\n', at) != std::string::npos) {
      bootstrap_ = log.substr(at + 10, log.find('\n', at) - at - 10);
      break;
    }
    REQUIRE_FALSE(process_->Poll().has_value());
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  INFO(process_->Log());
  REQUIRE_FALSE(bootstrap_.empty());
}

void ProduceTo(const std::string& bootstrap, const std::string& topic, std::int32_t partition,
               const std::vector<std::string>& values) {
  batch::KafkaProducer producer(batch::KafkaSettings{bootstrap, {}});
  for (const std::string& value : values) producer.Produce(topic, partition, "", value, {});
  producer.Flush();
}

std::int64_t TopicSize(const std::string& bootstrap, const std::string& topic,
                       std::int32_t partitions) {
  auto c = Reader(bootstrap);
  std::int64_t size = 0;
  for (std::int32_t p = 0; p < partitions; ++p) {
    std::int64_t low = 0, high = 0;
    REQUIRE(c->query_watermark_offsets(topic, p, &low, &high, 10000) == RdKafka::ERR_NO_ERROR);
    size += high;
  }
  c->close();
  return size;
}

std::vector<batch::StreamMessage> ReadTopic(const std::string& bootstrap, const std::string& topic,
                                            std::int32_t partitions) {
  auto c = Reader(bootstrap);
  std::vector<RdKafka::TopicPartition*> parts;
  for (std::int32_t p = 0; p < partitions; ++p) {
    parts.push_back(RdKafka::TopicPartition::create(topic, p, RdKafka::Topic::OFFSET_BEGINNING));
  }
  REQUIRE(c->assign(parts) == RdKafka::ERR_NO_ERROR);
  RdKafka::TopicPartition::destroy(parts);
  std::map<std::int32_t, std::vector<batch::StreamMessage>> by_partition;
  for (std::int32_t at_end = 0; at_end < partitions;) {
    std::unique_ptr<RdKafka::Message> m(c->consume(1000));
    if (m->err() == RdKafka::ERR__PARTITION_EOF) ++at_end;
    if (m->err() != RdKafka::ERR_NO_ERROR) continue;
    batch::StreamMessage s;
    s.from = {m->topic_name(), m->partition()};
    s.offset = m->offset();
    if (m->key() != nullptr) s.key = *m->key();
    s.value.assign(static_cast<const char*>(m->payload()), m->len());
    if (m->headers() != nullptr) {
      for (const auto& h : m->headers()->get_all()) {
        s.headers.emplace_back(h.key(),
                               std::string(static_cast<const char*>(h.value()), h.value_size()));
      }
    }
    by_partition[s.from.partition].push_back(std::move(s));
  }
  c->close();
  std::vector<batch::StreamMessage> all;
  for (auto& [p, messages] : by_partition) {
    all.insert(all.end(), messages.begin(), messages.end());
  }
  return all;
}

std::string Header(const batch::StreamMessage& m, const std::string& name) {
  std::string value;
  for (const auto& [key, v] : m.headers) {
    if (key == name) value = v;
  }
  return value;
}

}  // namespace idres::testing
