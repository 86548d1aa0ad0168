#include "batch/consume_metrics.h"

#include <algorithm>

namespace idres::batch {
namespace {

// A label value as Prometheus' text format quotes it.
std::string Quoted(const std::string& value) {
  std::string out = "\"";
  for (char c : value) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string Labels(const TopicPartition& tp) {
  return "{topic=" + Quoted(tp.topic) + ",partition=\"" + std::to_string(tp.partition) + "\"}";
}

}  // namespace

void ConsumeMetrics::OnBatch(const std::string& topic, std::uint64_t messages,
                             std::uint64_t applied, std::uint64_t partial,
                             std::uint64_t dead_letters) {
  MutexLock lock(&mutex_);
  TopicCounts& t = topics_[topic];
  t.messages += messages;
  t.applied += applied;
  t.partial += partial;
  t.dead_letters += dead_letters;
  ++batches_;
  batch_sum_ += messages;
  for (std::size_t b = 0; b < kBatchBuckets.size(); ++b) {
    if (messages <= kBatchBuckets[b]) ++batch_buckets_[b];
  }
}

void ConsumeMetrics::OnPosition(const TopicPartition& tp, std::int64_t position, std::int64_t end) {
  MutexLock lock(&mutex_);
  partitions_[tp] = {position, std::max(end, position)};
}

void ConsumeMetrics::Forget(const TopicPartition& tp) {
  MutexLock lock(&mutex_);
  partitions_.erase(tp);
}

void ConsumeMetrics::OnBuffered(std::uint64_t messages) {
  MutexLock lock(&mutex_);
  buffered_ = messages;
}

std::string ConsumeMetrics::Text() const {
  MutexLock lock(&mutex_);
  std::string out;
  const auto counter = [&](const char* name, const char* help, auto field) {
    out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " counter\n";
    for (const auto& [topic, t] : topics_) {
      out += std::string(name) + "{topic=" + Quoted(topic) + "} " + std::to_string(t.*field) + "\n";
    }
  };
  counter("idres_consume_messages_total", "Messages taken from Kafka and settled.",
          &TopicCounts::messages);
  counter("idres_consume_records_applied_total", "Records the store took, whole or in part.",
          &TopicCounts::applied);
  counter("idres_consume_records_partial_total", "Records applied without some identifiers.",
          &TopicCounts::partial);
  counter("idres_consume_dead_letters_total", "Messages sent to the dead letters.",
          &TopicCounts::dead_letters);
  out += "# HELP idres_consume_batch_size Messages per applied batch.\n";
  out += "# TYPE idres_consume_batch_size histogram\n";
  for (std::size_t b = 0; b < kBatchBuckets.size(); ++b) {
    out += "idres_consume_batch_size_bucket{le=\"" + std::to_string(kBatchBuckets[b]) + "\"} " +
           std::to_string(batch_buckets_[b]) + "\n";
  }
  out += "idres_consume_batch_size_bucket{le=\"+Inf\"} " + std::to_string(batches_) + "\n";
  out += "idres_consume_batch_size_sum " + std::to_string(batch_sum_) + "\n";
  out += "idres_consume_batch_size_count " + std::to_string(batches_) + "\n";
  out += "# TYPE idres_consume_position gauge\n# TYPE idres_consume_lag gauge\n";
  for (const auto& [tp, w] : partitions_) {
    out += "idres_consume_position" + Labels(tp) + " " + std::to_string(w.position) + "\n";
    out += "idres_consume_lag" + Labels(tp) + " " + std::to_string(w.end - w.position) + "\n";
  }
  out += "# TYPE idres_consume_buffered gauge\nidres_consume_buffered " +
         std::to_string(buffered_) + "\n";
  return out;
}

}  // namespace idres::batch
