// Where `idres consume` sends the messages it cannot apply (not a record,
// or a record the engine refuses whole), each with the reason: a dead-letter
// topic, or a dead-letter file in `idres import`'s format. Deliver()
// returns only once the letters are durable, so the consumer can store a
// position past them afterwards and never lose one.
//
// Thread-safety: Deliver() may be called from every worker at once.
#pragma once

#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "batch/kafka_settings.h"
#include "batch/stream_message.h"

namespace idres::batch {

// Letters their destination will never take: the consumer stops rather
// than store a position past them or try them again for ever.
class UndeliverableLetters : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct StreamDeadLetter {
  const StreamMessage* message = nullptr;
  std::string reason;
};

class StreamDeadLetters {
 public:
  virtual ~StreamDeadLetters() = default;
  // Hands `letters` on and returns once they are acknowledged by the broker
  // (or written and fsynced). Throws UndeliverableLetters when they never
  // can be, std::runtime_error when they could not be now.
  virtual void Deliver(const std::vector<StreamDeadLetter>& letters) = 0;
};

// To `topic`: the message's own key, value and headers, with the reason and
// where it came from added as headers (idres.reason, idres.topic,
// idres.partition, idres.offset). Deliver() gives up waiting for the broker
// once `stop` (may be null) is raised. Throws std::invalid_argument for bad
// settings.
std::unique_ptr<StreamDeadLetters> DeadLetterTopic(const KafkaSettings& settings,
                                                   const std::string& topic,
                                                   const std::atomic<bool>* stop);

// Appended to the file at `path` as `idres import` writes dead letters:
// "file" is topic/partition, "line" the offset, "input" the value.
// Throws std::runtime_error when it cannot be opened.
std::unique_ptr<StreamDeadLetters> DeadLetterFileAt(const std::string& path);

}  // namespace idres::batch
