#include "batch/stream_dead_letters.h"

#include <cstdint>
#include <limits>

#include "base/mutex.h"
#include "batch/dead_letter.h"
#include "batch/kafka_producer.h"

namespace idres::batch {
namespace {

class TopicLetters : public StreamDeadLetters {
 public:
  TopicLetters(const KafkaSettings& settings, std::string topic, const std::atomic<bool>* stop)
      : producer_(settings), topic_(std::move(topic)), stop_(stop) {}

  void Deliver(const std::vector<StreamDeadLetter>& letters) override {
    try {
      for (const StreamDeadLetter& letter : letters) {
        const StreamMessage& m = *letter.message;
        KafkaHeaders headers = m.headers;
        headers.emplace_back("idres.reason", letter.reason);
        headers.emplace_back("idres.topic", m.from.topic);
        headers.emplace_back("idres.partition", std::to_string(m.from.partition));
        headers.emplace_back("idres.offset", std::to_string(m.offset));
        producer_.Produce(topic_, -1, m.key, m.value, headers);
      }
      // Every worker's letters so far: a flush waits for all of them.
      producer_.Flush(stop_);
    } catch (const KafkaDeliveryError& e) {
      throw UndeliverableLetters(e.what());
    }
  }

 private:
  KafkaProducer producer_;
  const std::string topic_;
  const std::atomic<bool>* const stop_;
};

class FileLetters : public StreamDeadLetters {
 public:
  // Appends; the file's earlier entries stay (no checkpoint cuts it).
  explicit FileLetters(const std::string& path)
      : file_(path, std::numeric_limits<std::int64_t>::max()) {}

  void Deliver(const std::vector<StreamDeadLetter>& letters) override {
    MutexLock lock(&mutex_);
    for (const StreamDeadLetter& letter : letters) {
      const StreamMessage& m = *letter.message;
      file_.Append({m.from.Name(), static_cast<std::uint64_t>(m.offset), m.value, letter.reason,
                    /*whole_record=*/true});
    }
    file_.Sync();
  }

 private:
  Mutex mutex_;
  DeadLetterFile file_ GUARDED_BY(mutex_);
};

}  // namespace

std::unique_ptr<StreamDeadLetters> DeadLetterTopic(const KafkaSettings& settings,
                                                   const std::string& topic,
                                                   const std::atomic<bool>* stop) {
  return std::make_unique<TopicLetters>(settings, topic, stop);
}

std::unique_ptr<StreamDeadLetters> DeadLetterFileAt(const std::string& path) {
  return std::make_unique<FileLetters>(path);
}

}  // namespace idres::batch
