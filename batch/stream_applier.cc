#include "batch/stream_applier.h"

#include <spdlog/spdlog.h>

#include <exception>
#include <optional>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include "batch/import_summary.h"

namespace idres::batch {
namespace {

// The batch's messages parsed: the records, for each record the message it
// came from and the position after it, and the messages that are no record.
struct Parsed {
  std::vector<Record> records;
  std::vector<std::size_t> message_of;
  std::vector<std::int64_t> after;
  std::vector<StreamDeadLetter> letters;
};

// A record naming no source, with no --source either, is of "kafka:<topic>".
Parsed Parse(const PartitionBatch& batch, StreamFormat format, StreamDefaults defaults) {
  if (defaults.source.empty()) defaults.source = "kafka:" + batch.from.topic;
  Parsed p;
  for (std::size_t m = 0; m < batch.messages.size(); ++m) {
    const StreamMessage& message = batch.messages[m];
    auto parsed = ParseStreamRecord(message.value, format, defaults);
    if (auto* reason = std::get_if<std::string>(&parsed)) {
      p.letters.push_back({&message, "not a record: " + *reason});
      continue;
    }
    p.records.push_back(std::move(std::get<Record>(parsed)));
    p.message_of.push_back(m);
    p.after.push_back(message.offset + 1);
  }
  return p;
}

}  // namespace

StreamApplier::StreamApplier(Engine& engine, StreamDeadLetters& dead_letters,
                             ConsumeMetrics& metrics, ApplierOptions options)
    : engine_(engine),
      dead_letters_(dead_letters),
      metrics_(metrics),
      options_(std::move(options)) {}

bool StreamApplier::Apply(const PartitionBatch& batch) {
  Parsed p = Parse(batch, options_.format, options_.defaults);
  // Before any position past them can be stored.
  if (!p.letters.empty()) dead_letters_.Deliver(p.letters);
  std::set<std::size_t> refused;
  // Inside a transaction the engine reports any exception as its own
  // failure; the dead letters' is kept to be thrown instead.
  std::exception_ptr undelivered;
  const auto on_refused = [&](const std::vector<std::size_t>& which,
                              const std::vector<UpsertResult>& results) {
    std::vector<StreamDeadLetter> letters;
    for (std::size_t i : which) {
      letters.push_back(
          {&batch.messages[p.message_of[i]], "refused: " + DeadLetterReason(results[i])});
    }
    try {
      dead_letters_.Deliver(letters);
    } catch (...) {
      undelivered = std::current_exception();
      throw;
    }
    refused.insert(which.begin(), which.end());
  };
  std::vector<UpsertResult> results;
  if (options_.positions_outside_tx) {
    if (!ApplyUnsafe(batch, p.records, results)) return false;
  } else {
    StreamPosition position{options_.group, batch.from.topic, batch.from.partition,
                            batch.stored,   p.after,          batch.End(),
                            on_refused};
    try {
      results = engine_.BatchUpsert(p.records, position);
    } catch (const PositionMovedError& e) {
      spdlog::warn("consume: {}", e.what());
      return false;
    } catch (const EngineError&) {
      if (undelivered) std::rethrow_exception(undelivered);
      throw;
    }
  }
  std::uint64_t applied = 0, partial = 0;
  for (const UpsertResult& r : results) {
    if (!r.ok()) continue;
    ++applied;
    if (!r.rejected.empty()) ++partial;
  }
  metrics_.OnBatch(batch.from.topic, batch.messages.size(), applied, partial,
                   p.letters.size() + refused.size());
  return true;
}

bool StreamApplier::ApplyUnsafe(const PartitionBatch& batch, const std::vector<Record>& records,
                                std::vector<UpsertResult>& results) {
  results = engine_.BatchUpsert(records);
  MutexLock lock(&mutex_);
  auto [it, added] = late_.try_emplace(batch.from, Late{batch.stored, 0});
  it->second.end = batch.End();
  return true;
}

void StreamApplier::StoreLatePositions() {
  std::map<TopicPartition, Late> late;
  {
    MutexLock lock(&mutex_);
    late.swap(late_);
  }
  for (const auto& [tp, l] : late) {
    StreamPosition position{options_.group, tp.topic, tp.partition, l.from, {}, l.end, {}};
    try {
      engine_.BatchUpsert({}, position);
    } catch (const EngineError& e) {
      spdlog::warn("consume: storing the position of {}: {}", tp.Name(), e.what());
    }
  }
}

}  // namespace idres::batch
