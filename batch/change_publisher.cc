#include "batch/change_publisher.h"

#include <librdkafka/rdkafkacpp.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>

#include "batch/detail/kafka_conf.h"
#include "batch/kafka_producer.h"

namespace idres::batch {
namespace {

constexpr int kTimeoutMs = 10000;
constexpr char kPositionHeader[] = "idres.position";

std::int64_t PositionOf(RdKafka::Message& m) {
  const RdKafka::Headers* headers = m.headers();
  if (headers != nullptr) {
    const RdKafka::Headers::Header h = headers->get_last(kPositionHeader);
    if (h.err() == RdKafka::ERR_NO_ERROR && h.value() != nullptr) {
      try {
        return std::stoll(std::string(static_cast<const char*>(h.value()), h.value_size()));
      } catch (const std::exception&) {
      }
    }
  }
  throw std::runtime_error("the last message of " + m.topic_name() + "/" +
                           std::to_string(m.partition()) + " has no " + kPositionHeader +
                           " header: the topic holds something else than the change feed");
}

// Reads message `offset` of each partition in `at` with a consumer that
// joins no group and commits nothing.
std::map<std::int32_t, std::int64_t> ReadLast(const KafkaSettings& settings,
                                              const std::string& topic,
                                              const std::map<std::int32_t, std::int64_t>& at) {
  std::map<std::int32_t, std::int64_t> last;
  if (at.empty()) return last;
  auto conf = detail::MakeConf(
      settings, {{"group.id", "idres-changes-tail"}, {"enable.auto.commit", "false"}});
  std::string error;
  std::unique_ptr<RdKafka::KafkaConsumer> c(RdKafka::KafkaConsumer::create(conf.get(), error));
  if (!c) throw std::invalid_argument("Kafka consumer: " + error);
  std::vector<RdKafka::TopicPartition*> parts;
  for (const auto& [p, offset] : at)
    parts.push_back(RdKafka::TopicPartition::create(topic, p, offset));
  c->assign(parts);
  RdKafka::TopicPartition::destroy(parts);
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(3 * kTimeoutMs);
  while (last.size() < at.size() && std::chrono::steady_clock::now() < until) {
    std::unique_ptr<RdKafka::Message> m(c->consume(200));
    if (m->err() != RdKafka::ERR_NO_ERROR) continue;
    if (m->offset() == at.at(m->partition())) last[m->partition()] = PositionOf(*m);
  }
  c->close();
  if (last.size() < at.size())
    throw std::runtime_error("cannot read the last messages of " + topic);
  return last;
}

}  // namespace

std::int64_t PublishedTail::ResumeAfter() const {
  std::int64_t after = -1;
  for (std::int32_t p = 0; p < partitions; ++p) {
    const auto it = last.find(p);
    const std::int64_t here = it == last.end() ? 0 : it->second;
    after = after < 0 ? here : std::min(after, here);
  }
  return std::max<std::int64_t>(after, 0);
}

bool PublishedTail::Holds(const Change& change) const {
  const auto it = last.find(ChangePartition(change, partitions));
  return it != last.end() && change.position <= it->second;
}

std::string ChangeKey(const Change& change) { return std::to_string(change.person_id); }

std::int32_t ChangePartition(const Change& change, std::int32_t partitions) {
  return KafkaProducer::PartitionFor(ChangeKey(change), partitions);
}

PublishedTail ReadPublishedTail(const KafkaSettings& settings, const std::string& topic) {
  PublishedTail tail;
  {
    KafkaProducer producer(settings);
    tail.partitions = producer.PartitionCount(topic);
  }
  auto conf = detail::MakeConf(settings, {});
  std::string error;
  std::unique_ptr<RdKafka::Producer> probe(RdKafka::Producer::create(conf.get(), error));
  if (!probe) throw std::invalid_argument("Kafka: " + error);
  std::map<std::int32_t, std::int64_t> at;
  for (std::int32_t p = 0; p < tail.partitions; ++p) {
    std::int64_t low = 0, high = 0;
    const auto err = probe->query_watermark_offsets(topic, p, &low, &high, kTimeoutMs);
    if (err != RdKafka::ERR_NO_ERROR) {
      throw std::runtime_error("the end of " + topic + "/" + std::to_string(p) + ": " +
                               RdKafka::err2str(err));
    }
    if (high > low) at[p] = high - 1;
  }
  tail.last = ReadLast(settings, topic, at);
  return tail;
}

FollowRun PublishChanges(const ChangeLister& list, FollowOptions options,
                         const KafkaSettings& settings, const std::string& topic) {
  FollowRun failed;
  failed.last = options.after;
  try {
    const PublishedTail tail = ReadPublishedTail(settings, topic);
    options.after = std::max(options.after, tail.ResumeAfter());
    spdlog::info("changes: publishing to {} ({} partitions) after position {}", topic,
                 tail.partitions, options.after);
    KafkaProducer producer(settings);
    FollowRun run = FollowChangeValues(list, options, [&](const Change& c) {
      if (tail.Holds(c)) return;
      producer.Produce(topic, ChangePartition(c, tail.partitions), ChangeKey(c), ChangeJson(c),
                       {{kPositionHeader, std::to_string(c.position)}});
    });
    producer.Flush();
    return run;
  } catch (const std::exception& e) {
    failed.error = e.what();
    return failed;
  }
}

}  // namespace idres::batch
