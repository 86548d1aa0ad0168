// Upsert and BatchUpsert: one path. An Upsert is a batch of one record.
// Records go in order, one transaction per bounded chunk. Every key of the
// chunk is locked up front in one sorted statement sent with BEGIN (so
// chunks cannot deadlock on keys); then engine/detail/resolve.h reads,
// locks, re-reads and decides for all its records at once, each record
// seeing the ones before it, and writes them with the COMMIT: a chunk of new
// persons takes two round trips, a chunk of known ones three.
#include <set>

#include "engine/detail/engine_impl.h"
#include "engine/detail/pg_array.h"
#include "engine/detail/resolve.h"
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
    detail::Dedup(current.keys);
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

UpsertResult Engine::Upsert(const Record& record, const Deadline& deadline) {
  return Batch(std::span<const Record>(&record, 1), nullptr, deadline).front();
}

std::vector<UpsertResult> Engine::BatchUpsert(std::span<const Record> records,
                                              const Deadline& deadline) {
  return Batch(records, nullptr, deadline);
}

std::vector<UpsertResult> Engine::BatchUpsert(std::span<const Record> records,
                                              const BatchReceipt& receipt,
                                              const Deadline& deadline) {
  receipt.RequireOnePerRecord(records.size());
  return Batch(records, &receipt, deadline);
}

void Engine::ForgetReceipts(std::int64_t job) {
  impl_->RunTx([&](detail::Tx& tx) { tx.Exec(detail::kForgetReceipts, job); });
}

std::vector<UpsertResult> Engine::Batch(std::span<const Record> records,
                                        const BatchReceipt* receipt, const Deadline& deadline) {
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
  const std::vector<Chunk> chunks = MakeChunks(prepared, impl_->options);
  for (std::size_t c = 0; c < chunks.size(); ++c) {
    const Chunk& chunk = chunks[c];
    // A retry runs the whole chunk again and overwrites its results.
    const auto apply = [&](detail::Tx& tx) {
      const std::set<std::int64_t> stored =
          receipt ? StoredItems(tx, *receipt, chunk) : std::set<std::int64_t>{};
      std::vector<std::size_t> todo;
      for (std::size_t i : chunk.records) {
        if (receipt && stored.contains(receipt->items[i])) {
          // Committed by an earlier attempt: report, do not apply again.
          results[i] = UpsertResult{};
          results[i].rejected = prepared[i].rejected;
        } else {
          todo.push_back(i);
        }
      }
      // A receipt says its record is stored: none for a refused record. It
      // commits with the writes: the same transaction either way.
      const auto receipts = [&] {
        std::vector<std::int64_t> written;
        for (std::size_t i : todo) {
          if (receipt && results[i].ok()) written.push_back(receipt->items[i]);
        }
        if (!written.empty()) {
          tx.Defer(detail::kWriteReceipts, receipt->job, detail::BigintArray(written));
        }
      };
      detail::ResolveAndCommit(tx, prepared, todo, results, impl_->Context(), receipts);
    };
    try {
      impl_->RunLockedTx(chunk.keys, apply, deadline);
    } catch (const DeadlineError& e) {
      if (c == 0) throw;
      // This chunk's own words (it may have been cut while committing).
      throw DeadlineError(std::to_string(c) + " of " + std::to_string(chunks.size()) +
                          " transactions of the batch committed; then " + e.what() +
                          "; the transactions after it wrote nothing");
    }
    if (impl_->options.observer) {
      for (std::size_t i : chunk.records) {
        if (results[i].ok()) impl_->options.observer->OnOutcome(results[i].outcome);
      }
    }
  }
  return results;
}

}  // namespace idres
