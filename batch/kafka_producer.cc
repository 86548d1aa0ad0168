#include "batch/kafka_producer.h"

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafkacpp.h>

#include <chrono>
#include <optional>
#include <stdexcept>

#include "base/mutex.h"
#include "batch/detail/kafka_conf.h"

namespace idres::batch {
namespace {

constexpr int kFlushSliceMs = 200;

// The first delivery failure, kept: the report comes to whichever thread
// polls, not to the one that produced the message.
class Deliveries : public RdKafka::DeliveryReportCb {
 public:
  void dr_cb(RdKafka::Message& message) override {
    if (message.err() == RdKafka::ERR_NO_ERROR) return;
    MutexLock lock(&mutex_);
    if (!failure_) {
      failure_ = "delivery to " + message.topic_name() + " failed: " + message.errstr();
    }
  }
  // Throws KafkaDeliveryError once a delivery failed.
  void Check() {
    MutexLock lock(&mutex_);
    if (failure_) throw KafkaDeliveryError(*failure_);
  }

 private:
  Mutex mutex_;
  std::optional<std::string> failure_ GUARDED_BY(mutex_);
};

}  // namespace

struct KafkaProducer::Impl {
  Deliveries deliveries;
  std::unique_ptr<RdKafka::Producer> producer;
};

KafkaProducer::KafkaProducer(const KafkaSettings& settings) : impl_(std::make_unique<Impl>()) {
  auto conf = detail::MakeConf(settings, {{"enable.idempotence", "true"},
                                          {"message.timeout.ms", "0"},
                                          {"linger.ms", "5"},
                                          {"partitioner", "murmur2_random"}});
  std::string error;
  if (conf->set("dr_cb", &impl_->deliveries, error) != RdKafka::Conf::CONF_OK) {
    throw std::invalid_argument(error);
  }
  impl_->producer.reset(RdKafka::Producer::create(conf.get(), error));
  if (!impl_->producer) throw std::invalid_argument("Kafka producer: " + error);
}

KafkaProducer::~KafkaProducer() {
  if (impl_->producer) impl_->producer->flush(5000);
}

void KafkaProducer::Produce(const std::string& topic, std::int32_t partition, std::string_view key,
                            std::string_view value, const KafkaHeaders& headers) {
  for (;;) {
    impl_->deliveries.Check();
    RdKafka::Headers* h = RdKafka::Headers::create();
    for (const auto& [name, text] : headers) h->add(name, text);
    const RdKafka::ErrorCode err =
        impl_->producer->produce(topic, partition == -1 ? RdKafka::Topic::PARTITION_UA : partition,
                                 RdKafka::Producer::RK_MSG_COPY, const_cast<char*>(value.data()),
                                 value.size(), key.data(), key.size(), 0, h, nullptr);
    if (err == RdKafka::ERR_NO_ERROR) {
      impl_->producer->poll(0);  // serve delivery reports as they come
      return;
    }
    delete h;  // only a produced message takes its headers
    if (err != RdKafka::ERR__QUEUE_FULL) {
      throw KafkaDeliveryError("producing to " + topic + ": " + RdKafka::err2str(err));
    }
    impl_->producer->poll(100);
  }
}

void KafkaProducer::Flush(const std::atomic<bool>* stop) {
  while (impl_->producer->flush(kFlushSliceMs) == RdKafka::ERR__TIMED_OUT) {
    impl_->deliveries.Check();
    if (stop != nullptr && stop->load()) {
      throw std::runtime_error("stopped before Kafka acknowledged every message");
    }
  }
  impl_->deliveries.Check();
}

std::int32_t KafkaProducer::PartitionCount(const std::string& topic) {
  std::string error;
  std::unique_ptr<RdKafka::Topic> t(
      RdKafka::Topic::create(impl_->producer.get(), topic, nullptr, error));
  if (!t) throw std::runtime_error("topic " + topic + ": " + error);
  RdKafka::Metadata* raw = nullptr;
  const auto err = impl_->producer->metadata(false, t.get(), &raw, 10000);
  std::unique_ptr<RdKafka::Metadata> metadata(raw);
  if (err != RdKafka::ERR_NO_ERROR) {
    throw std::runtime_error("metadata of " + topic + ": " + RdKafka::err2str(err));
  }
  for (const RdKafka::TopicMetadata* tm : *metadata->topics()) {
    if (tm->topic() == topic && tm->err() == RdKafka::ERR_NO_ERROR) {
      return static_cast<std::int32_t>(tm->partitions()->size());
    }
  }
  throw std::runtime_error("topic " + topic + " has no partitions the broker would name");
}

std::int32_t KafkaProducer::PartitionFor(std::string_view key, std::int32_t partitions) {
  return rd_kafka_msg_partitioner_murmur2(nullptr, key.data(), key.size(), partitions, nullptr,
                                          nullptr);
}

}  // namespace idres::batch
