// BatchUpsert: records in order, one transaction per bounded chunk. Every
// key of the chunk is locked up front in one sorted statement (so chunks
// cannot deadlock on keys), then the records are applied one after the
// other inside the transaction: each sees the ones before it, so records of
// one batch that match each other end as one person.
#include <algorithm>
#include <set>
#include <stdexcept>

#include "engine/detail/engine_impl.h"
#include "engine/detail/pg_array.h"
#include "engine/detail/statements.h"
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

// The items of `receipt` for the records of `chunk` that are stored already.
// An earlier attempt's transaction wrote its records and their receipts
// together, so a receipt is there exactly when its record is.
std::set<std::int64_t> StoredItems(detail::Tx& tx, const BatchReceipt& receipt,
                                   const Chunk& chunk) {
  std::vector<std::int64_t> items;
  for (std::size_t i : chunk.records) items.push_back(receipt.items[i]);
  std::set<std::int64_t> stored;
  for (const auto& row : tx.Exec(detail::kReadReceipts, receipt.job, detail::BigintArray(items))) {
    stored.insert(row[0].as<std::int64_t>());
  }
  return stored;
}

}  // namespace

std::vector<UpsertResult> Engine::BatchUpsert(std::span<const Record> records) {
  return Batch(records, nullptr);
}

std::vector<UpsertResult> Engine::BatchUpsert(std::span<const Record> records,
                                              const BatchReceipt& receipt) {
  if (receipt.items.size() != records.size()) {
    throw std::invalid_argument("BatchUpsert: one receipt item per record is needed");
  }
  return Batch(records, &receipt);
}

void Engine::ForgetReceipts(std::int64_t job) {
  impl_->RunTx([&](detail::Tx& tx) { tx.Exec(detail::kForgetReceipts, job); });
}

std::vector<UpsertResult> Engine::Batch(std::span<const Record> records,
                                        const BatchReceipt* receipt) {
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
    impl_->RunLockedTx(chunk.keys, [&](detail::Tx& tx) {
      const std::set<std::int64_t> stored =
          receipt ? StoredItems(tx, *receipt, chunk) : std::set<std::int64_t>{};
      std::vector<std::int64_t> written;
      for (std::size_t i : chunk.records) {
        if (receipt && stored.contains(receipt->items[i])) {
          // Committed by an earlier attempt: report, do not apply again.
          results[i] = UpsertResult{};
          results[i].rejected = prepared[i].rejected;
          continue;
        }
        results[i] = detail::ApplyRecord(tx, prepared[i], impl_->Context());
        if (receipt) written.push_back(receipt->items[i]);
      }
      if (!written.empty()) {
        tx.Exec(detail::kWriteReceipts, receipt->job, detail::BigintArray(written));
      }
    });
    if (impl_->options.observer) {
      for (std::size_t i : chunk.records) impl_->options.observer->OnOutcome(results[i].outcome);
    }
  }
  return results;
}

}  // namespace idres
