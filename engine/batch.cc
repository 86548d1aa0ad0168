// BatchUpsert: records in order, one transaction per bounded chunk. Every
// key of the chunk is locked up front in one sorted statement (so chunks
// cannot deadlock on keys), then the records are applied one after the
// other inside the transaction: each sees the ones before it, so records of
// one batch that match each other end as one person.
#include <algorithm>

#include "engine/detail/engine_impl.h"
#include "engine/engine.h"

namespace idres {
namespace {

struct Chunk {
  std::vector<std::size_t> records;  // indexes into the batch
  std::vector<std::int64_t> keys;    // sorted, unique
};

std::vector<Chunk> MakeChunks(const std::vector<detail::PreparedRecord>& prepared,
                              const EngineOptions& o) {
  std::vector<Chunk> chunks;
  Chunk current;
  for (std::size_t i = 0; i < prepared.size(); ++i) {
    if (prepared[i].error) continue;
    const auto& keys = prepared[i].plan.lock_keys;
    if (!current.records.empty() && (current.records.size() >= o.batch_max_records ||
                                     current.keys.size() + keys.size() > o.batch_max_keys)) {
      chunks.push_back(std::move(current));
      current = Chunk{};
    }
    current.records.push_back(i);
    current.keys.insert(current.keys.end(), keys.begin(), keys.end());
    std::sort(current.keys.begin(), current.keys.end());
    current.keys.erase(std::unique(current.keys.begin(), current.keys.end()), current.keys.end());
  }
  if (!current.records.empty()) chunks.push_back(std::move(current));
  return chunks;
}

}  // namespace

std::vector<UpsertResult> Engine::BatchUpsert(std::span<const Record> records) {
  std::vector<detail::PreparedRecord> prepared;
  prepared.reserve(records.size());
  std::vector<UpsertResult> results(records.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    prepared.push_back(impl_->Prepare(records[i]));
    if (prepared.back().error) {
      results[i].error = prepared.back().error;
      results[i].rejected = prepared.back().rejected;
    }
  }
  for (const Chunk& chunk : MakeChunks(prepared, impl_->options)) {
    // A retry runs the whole chunk again and overwrites its results.
    impl_->RunTx([&](detail::Tx& tx) {
      impl_->LockKeys(tx, chunk.keys);
      for (std::size_t i : chunk.records) {
        results[i] = detail::ApplyRecord(tx, prepared[i], impl_->Context());
      }
    });
    if (impl_->options.observer) {
      for (std::size_t i : chunk.records) impl_->options.observer->OnOutcome(results[i].outcome);
    }
  }
  return results;
}

}  // namespace idres
