// Upsert and BatchUpsert: one path. An Upsert is a batch of one record.
// Records go in order, one transaction per bounded chunk. Every key of the
// chunk is locked up front in one sorted statement sent with BEGIN (so
// chunks cannot deadlock on keys); then engine/detail/resolve.h reads,
// locks, re-reads and decides for all its records at once, each record
// seeing the ones before it, and writes them with the COMMIT: a chunk of new
// persons takes two round trips, a chunk of known ones three (four when it
// writes a person found through a blocking key alone).
#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

#include "engine/detail/audit_log.h"
#include "engine/detail/engine_impl.h"
#include "engine/detail/merge_helpers.h"
#include "engine/detail/pg_array.h"
#include "engine/detail/resolve.h"
#include "engine/detail/statements.h"
#include "engine/detail/stream_position.h"
#include "engine/engine.h"

namespace idres {
namespace {

struct Chunk {
  std::vector<std::size_t> records;  // indexes into the batch
  std::vector<std::int64_t> keys;    // sorted, unique
};

// Chunks in order, each within the batch limits and naming each record
// identity once (a record and its replacement are different transactions'
// business, so each transaction writes a record row once).
std::vector<Chunk> MakeChunks(const std::vector<detail::PreparedRecord>& prepared,
                              const EngineOptions& o) {
  std::vector<Chunk> chunks;
  Chunk current;
  std::set<std::pair<std::string, std::string>> named;
  for (std::size_t i = 0; i < prepared.size(); ++i) {
    if (prepared[i].error) continue;
    const auto& keys = prepared[i].plan.lock_keys;
    const auto identities = prepared[i].Identities();
    const bool repeats = std::any_of(identities.begin(), identities.end(),
                                     [&](const auto& id) { return named.contains(id); });
    if (!current.records.empty() &&
        (current.records.size() >= o.batch_max_records ||
         current.keys.size() + keys.size() > o.batch_max_keys || repeats)) {
      chunks.push_back(std::move(current));
      current = Chunk{};
      named.clear();
    }
    named.insert(identities.begin(), identities.end());
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

// The chunk's lock keys: its records' own, and for a record naming a stored
// one every key of that record's person, read now (docs/design.md, "Records,
// judgements and the change feed": the keys are known only once the person
// is read, and all of them are locked in one statement).
// `read` runs a transaction.
using RunRead = std::function<void(const std::function<void(detail::Tx&)>&)>;
void PlanWithdrawals(const RunRead& read, const LockPlanner& planner,
                     std::vector<detail::PreparedRecord>& prepared,
                     std::span<const std::size_t> which, const std::vector<LockPlan>& plans) {
  std::vector<std::string> sources, ids;
  std::vector<std::size_t> at;  // the prepared record of each identity read
  for (std::size_t i : which) {
    if (prepared[i].error) continue;
    for (const auto& [source, record_id] : prepared[i].Identities()) {
      sources.push_back(source);
      ids.push_back(record_id);
      at.push_back(i);
    }
  }
  if (at.empty()) return;
  std::map<std::size_t, detail::NamedRecord> found;
  read([&](detail::Tx& tx) { found = detail::ReadNamedRecords(tx, sources, ids); });
  for (std::size_t i : std::set<std::size_t>(at.begin(), at.end())) {
    prepared[i].plan.lock_keys = plans[i].lock_keys;
    prepared[i].prior_values.clear();
  }
  for (std::size_t k = 0; k < at.size(); ++k) {
    auto it = found.find(k);
    if (it == found.end()) continue;
    detail::PreparedRecord& r = prepared[at[k]];
    r.prior_values.insert(r.prior_values.end(), it->second.person_values.begin(),
                          it->second.person_values.end());
    detail::Dedup(r.prior_values);
    const auto keys = detail::PersonLockKeys(
        planner, it->second.person_values, detail::VariantsOf(planner, it->second.person_records));
    r.plan.lock_keys.insert(r.plan.lock_keys.end(), keys.begin(), keys.end());
    detail::Dedup(r.plan.lock_keys);
  }
}

std::vector<std::int64_t> ChunkKeys(const std::vector<detail::PreparedRecord>& prepared,
                                    const Chunk& chunk) {
  std::vector<std::int64_t> keys;
  for (std::size_t i : chunk.records) {
    keys.insert(keys.end(), prepared[i].plan.lock_keys.begin(), prepared[i].plan.lock_keys.end());
  }
  detail::Dedup(keys);
  return keys;
}

// Runs chunk `c` of `count` with `apply` under its keys; when a record's
// person gained keys meanwhile, plans them again and starts over. A
// deadline passing after the first chunk says how much of the batch stays.
using RunLocked =
    std::function<void(std::span<const std::int64_t>, const std::function<void(detail::Tx&)>&)>;
struct ChunkRun {
  const RunLocked& locked;
  const RunRead& read;
  const LockPlanner& planner;
  int max_retries;
};
void RunChunk(const ChunkRun& run, Chunk& chunk, std::size_t c, std::size_t count,
              const std::function<void(detail::Tx&)>& apply,
              std::vector<detail::PreparedRecord>& prepared, const std::vector<LockPlan>& plans) {
  try {
    detail::Replanning(
        run.max_retries, [&] { run.locked(chunk.keys, apply); },
        [&] {
          PlanWithdrawals(run.read, run.planner, prepared, chunk.records, plans);
          chunk.keys = ChunkKeys(prepared, chunk);
        });
  } catch (const DeadlineError& e) {
    if (c == 0) throw;
    // This chunk's own words (it may have been cut while committing).
    throw DeadlineError(std::to_string(c) + " of " + std::to_string(count) +
                        " transactions of the batch committed; then " + e.what() +
                        "; the transactions after it wrote nothing");
  }
}

// The answer of a record refused before any transaction.
UpsertResult RefusedResult(const detail::PreparedRecord& p) {
  UpsertResult r;
  r.error = p.error;
  r.rejected = p.rejected;
  r.source = p.source;
  r.record_id = p.record_id;
  return r;
}

// What a chunk's transaction writes beside its records: the receipts of a
// BatchReceipt, the stream position of a StreamPosition moved from
// `stored` to `next`, or a steward's action's actor and audit entry. All
// commit with the writes: the same transaction either way.
struct ChunkMarks {
  const BatchReceipt* receipt;
  const StreamPosition* position;
  std::optional<std::int64_t> stored;
  std::int64_t next;
  const detail::AuditNote* audit = nullptr;

  // The chunk's records to apply: with a position, first row-locked and
  // checked (it travels with the key locks); with a receipt, those whose
  // item an earlier attempt has not committed.
  std::vector<std::size_t> Todo(detail::Tx& tx, const Chunk& chunk,
                                const std::vector<detail::PreparedRecord>& prepared,
                                std::vector<UpsertResult>& results) const {
    if (position) detail::LockStreamPosition(tx, *position, stored);
    if (!receipt) return chunk.records;
    const std::set<std::int64_t> done = StoredItems(tx, *receipt, chunk);
    std::vector<std::size_t> todo;
    for (std::size_t i : chunk.records) {
      if (!done.contains(receipt->items[i])) {
        todo.push_back(i);
        continue;
      }
      // Committed by an earlier attempt: report, do not apply again.
      results[i] = UpsertResult{};
      results[i].rejected = prepared[i].rejected;
    }
    return todo;
  }

  // Queues the marks of the records of `todo` once decided. A receipt says
  // its record is stored: none for a refused record.
  void Write(detail::Tx& tx, const std::vector<std::size_t>& todo,
             const std::vector<UpsertResult>& results) const {
    std::vector<std::int64_t> written;
    std::vector<std::size_t> refused;
    for (std::size_t i : todo) {
      if (results[i].ok() && receipt) written.push_back(receipt->items[i]);
      if (!results[i].ok()) refused.push_back(i);
    }
    if (!written.empty()) {
      tx.Defer(detail::kWriteReceipts, receipt->job, detail::BigintArray(written));
    }
    if (position) WritePosition(tx, results, refused);
    if (audit) WriteAudit(tx, todo, results);
  }

  // A steward's action (its one record) that did something: its actor,
  // before the writes queued after this name it, and its entry.
  void WriteAudit(detail::Tx& tx, const std::vector<std::size_t>& todo,
                  const std::vector<UpsertResult>& results) const {
    if (todo.size() != 1 || !results[todo.front()].ok()) return;
    detail::SetActor(tx, *audit);
    const std::int64_t persons[] = {results[todo.front()].person_id};
    detail::WriteAudit(tx, *audit, persons);
  }

  // Refused records are told before the position passes them.
  void WritePosition(detail::Tx& tx, const std::vector<UpsertResult>& results,
                     const std::vector<std::size_t>& refused) const {
    if (position->on_refused && !refused.empty()) position->on_refused(refused, results);
    detail::WriteStreamPosition(tx, *position, stored, next);
  }
};

}  // namespace

void Engine::Committed(std::span<const std::size_t> records,
                       const std::vector<UpsertResult>& results) {
  std::int64_t written = 0;
  for (std::size_t i : records) {
    if (!results[i].ok()) continue;
    ++written;
    if (impl_->options.observer) impl_->options.observer->OnOutcome(results[i].outcome);
  }
  if (impl_->stats) impl_->stats->Wrote(written);
}

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

std::optional<DeletedRecord> Engine::DeleteRecord(const std::string& source,
                                                  const std::string& record_id,
                                                  const Deadline& deadline,
                                                  std::string_view actor) {
  std::vector<detail::PreparedRecord> prepared{detail::PrepareDeletion(source, record_id)};
  if (prepared.front().error) throw std::invalid_argument(*prepared.front().error);
  const detail::AuditNote note{actor, "DeleteRecord", detail::RecordRequest(source, record_id)};
  const UpsertResult r = Run(prepared, nullptr, deadline, false, nullptr, &note).front();
  if (r.not_applied) return std::nullopt;  // no such record is stored
  if (!r.ok()) throw std::logic_error("DeleteRecord refused: " + *r.error);
  DeletedRecord out;
  out.person_id = r.person_id;
  out.person_removed = r.person_removed;
  out.split_person_ids = r.split_person_ids;
  return out;
}

SplitResult Engine::SplitPerson(std::int64_t person_id, std::vector<std::vector<RecordRef>> groups,
                                const Deadline& deadline, std::string_view actor) {
  const detail::AuditNote note{actor, "SplitPerson", detail::SplitRequest(person_id, groups)};
  std::vector<std::vector<detail::RecordIdentity>> identities;
  for (const auto& group : groups) {
    auto& g = identities.emplace_back();
    for (const RecordRef& r : group) g.emplace_back(r.source, r.record_id);
  }
  std::vector<detail::PreparedRecord> prepared{
      detail::PrepareSplit(person_id, std::move(identities))};
  if (prepared.front().error) throw std::invalid_argument(*prepared.front().error);
  const UpsertResult r = Run(prepared, nullptr, deadline, false, nullptr, &note).front();
  SplitResult out;
  if (r.not_applied) {
    switch (*r.not_applied) {
      case UpsertResult::NotApplied::kNoSuchRecord:
        out.status = SplitResult::Status::kNoSuchRecord;
        break;
      case UpsertResult::NotApplied::kNotThePersons:
        out.status = SplitResult::Status::kNotThePersons;
        break;
      case UpsertResult::NotApplied::kSharedExclusive:
        out.status = SplitResult::Status::kSharedExclusive;
        break;
    }
    out.reason = r.error.value_or("");
    return out;
  }
  if (!r.ok()) throw std::logic_error("SplitPerson refused: " + *r.error);
  out.person_id = r.person_id;
  out.part_ids = r.split_person_ids;
  return out;
}

std::vector<UpsertResult> Engine::BatchUpsert(std::span<const Record> records,
                                              const StreamPosition& position,
                                              const Deadline& deadline) {
  position.RequireOnePerRecord(records.size());
  std::vector<detail::PreparedRecord> prepared;
  prepared.reserve(records.size());
  for (const Record& record : records) prepared.push_back(impl_->Prepare(record));
  return Run(prepared, nullptr, deadline, /*dry_run=*/false, &position);
}

std::map<std::int32_t, std::int64_t> Engine::StreamPositions(const std::string& group,
                                                             const std::string& topic) {
  std::map<std::int32_t, std::int64_t> positions;
  impl_->RunTx([&](detail::Tx& tx) {
    positions.clear();
    for (const auto& row : tx.Exec(detail::kReadStreamPositions, group, topic)) {
      positions[static_cast<std::int32_t>(row[0].as<std::int64_t>())] = row[1].as<std::int64_t>();
    }
  });
  return positions;
}

std::vector<UpsertResult> Engine::Batch(std::span<const Record> records,
                                        const BatchReceipt* receipt, const Deadline& deadline,
                                        std::vector<std::optional<UpsertResult>>* committed) {
  std::vector<detail::PreparedRecord> prepared;
  prepared.reserve(records.size());
  for (const Record& record : records) prepared.push_back(impl_->Prepare(record));
  return Run(prepared, receipt, deadline, false, nullptr, nullptr, committed);
}

std::vector<UpsertResult> Engine::Run(std::vector<detail::PreparedRecord>& prepared,
                                      const BatchReceipt* receipt, const Deadline& deadline,
                                      bool dry_run, const StreamPosition* position,
                                      const detail::AuditNote* audit,
                                      std::vector<std::optional<UpsertResult>>* committed) {
  detail::UpsertContext context = impl_->Context();
  context.dry_run = dry_run;
  std::vector<UpsertResult> results(prepared.size());
  std::vector<LockPlan> plans;
  std::vector<std::size_t> all, refused;
  for (std::size_t i = 0; i < prepared.size(); ++i) {
    plans.push_back(prepared[i].plan);
    all.push_back(i);
    if (prepared[i].error) {
      results[i] = RefusedResult(prepared[i]);
      refused.push_back(i);
    }
  }
  // Before any transaction can store a position past them.
  if (position && position->on_refused && !refused.empty()) position->on_refused(refused, results);
  const RunRead read = [&](const std::function<void(detail::Tx&)>& fn) {
    impl_->RunTx(fn, deadline);
  };
  const RunLocked locked = [&](std::span<const std::int64_t> keys,
                               const std::function<void(detail::Tx&)>& fn) {
    impl_->RunLockedTx(keys, fn, deadline);
  };
  PlanWithdrawals(read, impl_->planner, prepared, all, plans);
  std::vector<Chunk> chunks = MakeChunks(prepared, impl_->options);
  ChunkMarks marks{receipt, position, position ? position->from : std::nullopt, 0, audit};
  if (position && chunks.empty()) {
    marks.next = position->end;
    impl_->RunTx(
        [&](detail::Tx& tx) {
          detail::LockStreamPosition(tx, *position, marks.stored);
          marks.WritePosition(tx, results, {});
        },
        deadline);
  }
  for (std::size_t c = 0; c < chunks.size(); ++c) {
    Chunk& chunk = chunks[c];
    if (position) {
      marks.next = c + 1 == chunks.size() ? position->end : position->after[chunk.records.back()];
    }
    // A retry runs the whole chunk again and overwrites its results.
    const auto apply = [&](detail::Tx& tx) {
      const std::vector<std::size_t> todo = marks.Todo(tx, chunk, prepared, results);
      detail::ResolveAndCommit(tx, prepared, todo, results, context, chunk.keys,
                               [&] { marks.Write(tx, todo, results); });
    };
    RunChunk({locked, read, impl_->planner, impl_->options.max_retries}, chunk, c, chunks.size(),
             apply, prepared, plans);
    marks.stored = marks.next;
    if (!dry_run) Committed(chunk.records, results);
    if (committed != nullptr) {
      for (std::size_t i : chunk.records) (*committed)[i] = results[i];
    }
  }
  return results;
}

}  // namespace idres
