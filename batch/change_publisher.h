// PublishChanges: `idres changes --follow --to-kafka TOPIC` (docs/batch.md,
// "The change feed to Kafka"): every change of the feed as one message:
// key the person id (so one person's changes stay in order within one
// partition), value the change as JSON (batch/change_follow.h's
// ChangeJson), the feed position in header idres.position; through an
// idempotent producer (batch/kafka_producer.h), so each partition holds a
// prefix of what was produced to it, in order, without duplicates.
//
// Resuming after a crash: the last message of each partition names the
// last position that reached it, and every earlier change bound for that
// partition reached it too. So a new run reads the feed again from the
// smallest of those positions and publishes a change only when it lies past
// the last position of its own partition: each change reaches the topic
// once, whenever the previous run died.
//
// Thread-safety: one run per thread.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "batch/change_follow.h"
#include "batch/kafka_settings.h"

namespace idres::batch {

// What a topic holds of the feed: per partition, the position of its last
// message (0: none).
struct PublishedTail {
  std::int32_t partitions = 0;
  std::map<std::int32_t, std::int64_t> last;

  // Where to read the feed again from: the smallest last position.
  std::int64_t ResumeAfter() const;
  // Whether `change` is on the topic already.
  bool Holds(const Change& change) const;
};

// The person id as a message key, and its partition among `partitions`.
std::string ChangeKey(const Change& change);
std::int32_t ChangePartition(const Change& change, std::int32_t partitions);

// Reads the last message of each partition of `topic`. Throws
// std::runtime_error when the topic cannot be read, or a last message has
// no idres.position header (the topic holds something else).
PublishedTail ReadPublishedTail(const KafkaSettings& settings, const std::string& topic);

// Follows the feed as FollowChangeValues does, from where `topic` stands
// (or options.after, if later), producing each change not yet there;
// before it returns, everything produced is acknowledged. A failure of the
// producer ends the run with the reason.
FollowRun PublishChanges(const ChangeLister& list, FollowOptions options,
                         const KafkaSettings& settings, const std::string& topic);

}  // namespace idres::batch
