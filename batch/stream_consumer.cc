#include "batch/stream_consumer.h"

#include <librdkafka/rdkafkacpp.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <thread>

#include "batch/detail/kafka_conf.h"
#include "batch/detail/rebalance.h"
#include "batch/partition_queues.h"
#include "batch/stream_dead_letters.h"

namespace idres::batch {
namespace {

constexpr int kPollMs = 100;
constexpr auto kPeriod = std::chrono::seconds(1);  // Kafka commits, lag, late positions
constexpr auto kRetryPause = std::chrono::milliseconds(500);

StreamMessage ToStreamMessage(RdKafka::Message& m) {
  StreamMessage s;
  s.from = {m.topic_name(), m.partition()};
  s.offset = m.offset();
  if (m.key() != nullptr) s.key = *m.key();
  s.value.assign(static_cast<const char*>(m.payload()), m.len());
  if (const RdKafka::Headers* headers = m.headers()) {
    for (const RdKafka::Headers::Header& h : headers->get_all()) {
      const char* v = static_cast<const char*>(h.value());
      s.headers.emplace_back(h.key(),
                             v == nullptr ? std::string() : std::string(v, h.value_size()));
    }
  }
  return s;
}

class Consumer {
 public:
  Consumer(const ConsumeOptions& o, Engine& engine, StreamDeadLetters& dead_letters,
           ConsumeMetrics& metrics)
      : o_(o),
        metrics_(metrics),
        applier_(engine, dead_letters, metrics, o.applier),
        queues_(o.batch),
        rebalance_(detail::RebalanceContext{engine, queues_, metrics, o.applier.group, &applier_,
                                            o.applier.positions_outside_tx,
                                            [this] { return Stopping(); }}) {}

  ConsumeRun Run();

 private:
  bool Stopping() const { return failed_ || (o_.stop != nullptr && o_.stop->load()); }
  void Fail(const std::string& why);
  void Work();
  void Handle(RdKafka::Message& m);
  void BackPressure();
  void Periodic();

  const ConsumeOptions& o_;
  ConsumeMetrics& metrics_;
  StreamApplier applier_;
  PartitionQueues queues_;
  detail::Rebalance rebalance_;
  std::unique_ptr<RdKafka::KafkaConsumer> consumer_;
  std::atomic<bool> failed_{false};
  Mutex mutex_;
  std::optional<std::string> error_ GUARDED_BY(mutex_);
};

void Consumer::Fail(const std::string& why) {
  MutexLock lock(&mutex_);
  if (!error_) error_ = why;
  failed_ = true;
}

ConsumeRun Consumer::Run() {
  auto conf = detail::MakeConf(o_.kafka, {{"group.id", o_.applier.group},
                                          {"enable.auto.commit", "false"},
                                          {"enable.auto.offset.store", "false"},
                                          {"auto.offset.reset", "earliest"},
                                          {"queued.max.messages.kbytes", "16384"}});
  std::string error;
  if (conf->set("rebalance_cb", &rebalance_, error) != RdKafka::Conf::CONF_OK) {
    throw std::invalid_argument(error);
  }
  consumer_.reset(RdKafka::KafkaConsumer::create(conf.get(), error));
  if (!consumer_) throw std::invalid_argument("Kafka consumer: " + error);
  if (const auto err = consumer_->subscribe(o_.topics); err != RdKafka::ERR_NO_ERROR) {
    return {"subscribing: " + RdKafka::err2str(err)};
  }
  std::vector<std::thread> workers;
  for (int i = 0; i < o_.workers; ++i) workers.emplace_back([this] { Work(); });
  auto last = std::chrono::steady_clock::now();
  while (!Stopping()) {
    std::unique_ptr<RdKafka::Message> m(consumer_->consume(kPollMs));
    Handle(*m);
    BackPressure();
    if (auto why = rebalance_.RereadMoved(*consumer_)) Fail(*why);
    if (std::chrono::steady_clock::now() - last >= kPeriod) {
      Periodic();
      last = std::chrono::steady_clock::now();
    }
  }
  // Revokes every partition: the batches in flight finish and their
  // positions are committed to Kafka too; then the group is left.
  consumer_->close();
  queues_.Stop();
  for (std::thread& t : workers) t.join();
  MutexLock lock(&mutex_);
  return {error_};
}

void Consumer::Work() {
  while (auto batch = queues_.Take()) {
    try {
      if (applier_.Apply(*batch)) {
        queues_.Applied(*batch);
      } else {
        queues_.Moved(*batch);
      }
      continue;
    } catch (const EngineError& e) {
      if (!e.retryable()) {
        queues_.PutBack(std::move(*batch));
        Fail(e.what());
        return;
      }
      spdlog::warn("consume: {}: {}; trying again", batch->from.Name(), e.what());
    } catch (const std::invalid_argument& e) {
      queues_.PutBack(std::move(*batch));
      Fail(e.what());
      return;
    } catch (const UndeliverableLetters& e) {
      queues_.PutBack(std::move(*batch));
      Fail(std::string("dead letters cannot be delivered: ") + e.what());
      return;
    } catch (const std::exception& e) {  // dead letters not delivered now
      spdlog::warn("consume: {}: {}; trying again", batch->from.Name(), e.what());
    }
    queues_.PutBack(std::move(*batch));
    std::this_thread::sleep_for(kRetryPause);
  }
}

void Consumer::Handle(RdKafka::Message& m) {
  switch (m.err()) {
    case RdKafka::ERR_NO_ERROR:
      queues_.Push(ToStreamMessage(m));
      return;
    case RdKafka::ERR__TIMED_OUT:
    case RdKafka::ERR__PARTITION_EOF:
      return;
    case RdKafka::ERR__FATAL: {
      std::string why;
      consumer_->fatal_error(why);
      Fail("Kafka: " + why);
      return;
    }
    default:
      spdlog::warn("consume: Kafka: {}", m.errstr());
  }
}

void Consumer::BackPressure() {
  const std::size_t buffered = queues_.Buffered();
  const bool over = buffered >= o_.max_buffered;
  const bool under = buffered <= o_.max_buffered / 2;
  if (rebalance_.paused() ? under : over) rebalance_.SetPaused(*consumer_, !rebalance_.paused());
}

void Consumer::Periodic() {
  if (o_.applier.positions_outside_tx) applier_.StoreLatePositions();
  const auto positions = queues_.StoredPositions();
  detail::CommitOffsets(*consumer_, positions, /*sync=*/false);
  for (const auto& [tp, position] : positions) {
    std::int64_t low = 0, high = 0;
    if (consumer_->get_watermark_offsets(tp.topic, tp.partition, &low, &high) ==
        RdKafka::ERR_NO_ERROR) {
      metrics_.OnPosition(tp, position, high);
    }
  }
  metrics_.OnBuffered(queues_.Buffered());
}

}  // namespace

ConsumeRun RunConsume(const ConsumeOptions& options, Engine& engine,
                      StreamDeadLetters& dead_letters, ConsumeMetrics& metrics) {
  Consumer consumer(options, engine, dead_letters, metrics);
  return consumer.Run();
}

}  // namespace idres::batch
