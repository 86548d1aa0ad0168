#include "batch/detail/rebalance.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <memory>
#include <set>
#include <thread>

namespace idres::batch::detail {
namespace {

constexpr auto kRetryPause = std::chrono::milliseconds(500);
constexpr int kSeekTimeoutMs = 10000;

using Parts = std::vector<RdKafka::TopicPartition*>;

// Owns librdkafka partition lists it builds.
struct OwnedParts {
  Parts parts;
  ~OwnedParts() { RdKafka::TopicPartition::destroy(parts); }
};

std::vector<TopicPartition> Names(const Parts& parts) {
  std::vector<TopicPartition> out;
  for (const RdKafka::TopicPartition* p : parts) out.push_back({p->topic(), p->partition()});
  return out;
}

std::string List(const std::vector<TopicPartition>& parts) {
  std::string out;
  for (const TopicPartition& tp : parts) out += (out.empty() ? "" : " ") + tp.Name();
  return out.empty() ? "none" : out;
}

bool Cooperative(RdKafka::KafkaConsumer& consumer) {
  return consumer.rebalance_protocol() == "COOPERATIVE";
}

void Report(RdKafka::Error* error, const char* what) {
  if (error == nullptr) return;
  spdlog::error("consume: {}: {}", what, error->str());
  delete error;
}

}  // namespace

void Rebalance::rebalance_cb(RdKafka::KafkaConsumer* consumer, RdKafka::ErrorCode err,
                             Parts& partitions) {
  if (err == RdKafka::ERR__ASSIGN_PARTITIONS) {
    Assign(*consumer, partitions);
  } else if (err == RdKafka::ERR__REVOKE_PARTITIONS) {
    Revoke(*consumer, partitions);
  } else {
    spdlog::error("consume: rebalance failed: {}", RdKafka::err2str(err));
    Revoke(*consumer, partitions);
  }
}

std::optional<std::map<TopicPartition, std::int64_t>> Rebalance::Stored(
    const std::vector<TopicPartition>& parts) {
  std::set<std::string> topics;
  for (const TopicPartition& tp : parts) topics.insert(tp.topic);
  std::map<TopicPartition, std::int64_t> stored;
  for (const std::string& topic : topics) {
    for (;;) {
      try {
        for (const auto& [p, next] : c_.engine.StreamPositions(c_.group, topic)) {
          stored[{topic, p}] = next;
        }
        break;
      } catch (const EngineError& e) {
        if (c_.stopping()) return std::nullopt;
        spdlog::warn("consume: reading the stored positions of {}: {}", topic, e.what());
        std::this_thread::sleep_for(kRetryPause);
      }
    }
  }
  return stored;
}

void Rebalance::Assign(RdKafka::KafkaConsumer& consumer, Parts& parts) {
  const std::vector<TopicPartition> names = Names(parts);
  const auto stored = Stored(names);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    // Stopping before the positions could be read: fetch, but queue nothing.
    if (!stored) break;
    const auto it = stored->find(names[i]);
    const std::optional<std::int64_t> at =
        it == stored->end() ? std::nullopt : std::optional(it->second);
    parts[i]->set_offset(at ? *at : RdKafka::Topic::OFFSET_BEGINNING);
    c_.queues.Assign(names[i], at);
  }
  if (Cooperative(consumer)) {
    Report(consumer.incremental_assign(parts), "assigning");
  } else {
    consumer.assign(parts);
  }
  // librdkafka keeps a partition's pause across assignments: a partition
  // paused when it was revoked would never be fetched again.
  if (paused_) {
    consumer.pause(parts);
  } else {
    consumer.resume(parts);
  }
  spdlog::info("consume: assigned {} (from the stored positions)", List(names));
}

void Rebalance::Revoke(RdKafka::KafkaConsumer& consumer, Parts& parts) {
  const std::vector<TopicPartition> names = Names(parts);
  std::map<TopicPartition, std::int64_t> positions;
  for (const TopicPartition& tp : names) {
    // Waits for the partition's batch in flight: its position is stored
    // (or it rolled back) before the partition can go elsewhere.
    if (const auto stored = c_.queues.Revoke(tp)) positions[tp] = *stored;
    c_.metrics.Forget(tp);
  }
  if (c_.positions_outside_tx) c_.applier->StoreLatePositions();
  if (!consumer.assignment_lost()) CommitOffsets(consumer, positions, /*sync=*/true);
  if (Cooperative(consumer)) {
    Report(consumer.incremental_unassign(parts), "unassigning");
  } else {
    consumer.unassign();
  }
  spdlog::info("consume: revoked {}", List(names));
}

std::optional<std::string> Rebalance::RereadMoved(RdKafka::KafkaConsumer& consumer) {
  const std::vector<TopicPartition> moved = c_.queues.TakeMoved();
  if (moved.empty()) return std::nullopt;
  const auto stored = Stored(moved);
  if (!stored) return std::nullopt;  // stopping
  for (const TopicPartition& tp : moved) {
    const auto it = stored->find(tp);
    const std::optional<std::int64_t> at =
        it == stored->end() ? std::nullopt : std::optional(it->second);
    c_.queues.Reread(tp, at);
    std::unique_ptr<RdKafka::TopicPartition> p(RdKafka::TopicPartition::create(
        tp.topic, tp.partition, at ? *at : RdKafka::Topic::OFFSET_BEGINNING));
    if (const auto err = consumer.seek(*p, kSeekTimeoutMs); err != RdKafka::ERR_NO_ERROR) {
      return "seeking " + tp.Name() + " to its stored position: " + RdKafka::err2str(err);
    }
    spdlog::info("consume: {} goes on from the stored position {}", tp.Name(),
                 at ? std::to_string(*at) : "(none)");
  }
  return std::nullopt;
}

void Rebalance::SetPaused(RdKafka::KafkaConsumer& consumer, bool paused) {
  OwnedParts assigned;
  if (consumer.assignment(assigned.parts) != RdKafka::ERR_NO_ERROR) return;
  if (paused) {
    consumer.pause(assigned.parts);
  } else {
    consumer.resume(assigned.parts);
  }
  paused_ = paused;
}

void CommitOffsets(RdKafka::KafkaConsumer& consumer,
                   const std::map<TopicPartition, std::int64_t>& positions, bool sync) {
  if (positions.empty()) return;
  OwnedParts offsets;
  for (const auto& [tp, position] : positions) {
    offsets.parts.push_back(RdKafka::TopicPartition::create(tp.topic, tp.partition, position));
  }
  const auto err = sync ? consumer.commitSync(offsets.parts) : consumer.commitAsync(offsets.parts);
  if (err != RdKafka::ERR_NO_ERROR && err != RdKafka::ERR__NO_OFFSET) {
    spdlog::warn("consume: committing Kafka offsets (for lag only): {}", RdKafka::err2str(err));
  }
}

}  // namespace idres::batch::detail
