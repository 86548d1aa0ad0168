// Engine: the identity-resolution upsert on PostgreSQL.
//
// Upsert() normalizes a record, then in one READ COMMITTED transaction takes
// pg_advisory_xact_lock on every lock key of the record (sorted, one
// statement), reads the candidate persons, scores them with the matcher,
// locks and re-reads the matched persons, and creates, updates or merges.
// Two upserts that could match the same person never both miss each other,
// and no concurrent write to a person is lost (docs/design.md, "The upsert
// transaction").
//
// Submit() is the same upsert without a waiting caller: queued records are
// applied by the engine's own runner threads, and those that queue while
// every runner is busy share a transaction (docs/api.md, "Single upserts under
// load share transactions"), each caller still getting the answer it would
// get alone, in arrival order.
//
// Thread-safety: all methods may be called from any number of threads at
// once; each call borrows one connection from a fixed-size pool and blocks
// while none is free, callers served first come, first served. Submit()
// never waits for the database: its runners borrow the connections.
//
// Errors: bad input comes back in UpsertResult; infrastructure failures throw
// the EngineError subclasses of engine/errors.h.
//
// Deadlines: the methods that take one give up with DeadlineError once it
// passes (engine/deadline.h), rolling back the transaction in progress.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/audit.h"
#include "engine/change.h"
#include "engine/deadline.h"
#include "engine/errors.h"
#include "engine/observer.h"
#include "engine/record.h"
#include "engine/submit.h"
#include "matcher/model.h"
#include "normalize/normalizer.h"

namespace idres {
namespace detail {
struct AuditNote;
struct PreparedRecord;
class Tx;
class UpsertQueue;
}  // namespace detail

struct EngineSeams;  // engine/testing.h: for tests only
class EngineTesting;

struct EngineOptions {
  std::string database_url;  // libpq connection string or URI
  // Size it to the database's cores (about 2 per core), not to the callers.
  int pool_size = 16;
  std::chrono::milliseconds lock_timeout{2000};
  // Named prepared statements; off for PgBouncer < 1.21 in transaction mode.
  bool prepared_statements = true;
  // Transparent retries of deadlocks, serialization failures and unique
  // violations before ConflictError.
  int max_retries = 8;
  // Most identifiers one record may carry.
  std::size_t max_identifiers = 100;
  // Most traits one record may carry, and most one person may come to hold
  // by upserts: a record whose traits would grow a person past it is
  // refused (the person stays as it was; merges are never blocked). Bounds
  // what one person costs to read and send.
  std::size_t max_traits = 100;
  std::size_t max_person_traits = 1000;
  NormalizerConfig normalizer = NormalizerConfig::Defaults();
  Model model = Model::Defaults();
  std::shared_ptr<EngineObserver> observer;  // may be null
  // BatchUpsert runs one transaction per chunk of at most this many records
  // and this many lock keys. Every key is a lock-table entry until COMMIT:
  // the server's max_locks_per_transaction * max_connections bounds how
  // many all connections can hold at once.
  std::size_t batch_max_records = 500;
  std::size_t batch_max_keys = 1000;
  // Submit(): threads applying queued upserts, each on a connection while it
  // applies a group; 0: half the pool, at least 1. A runner keeps its
  // connection busy (a group's round trips are few and the next group waits
  // in the queue), so one per database core saturates the database; more
  // only split the queue into smaller groups, each paying for its own
  // transaction. With the pool at about 2 per core that is half the pool;
  // the other half serves the other calls (BENCHMARKS.md, shared 6).
  int upsert_runners = 0;
  // Submit(): most queued upserts one transaction applies together (1: each
  // its own), and most identifiers, unless the first record alone has more:
  // with a lock key or a few per identifier, 16 connections stay well inside
  // PostgreSQL's default lock table (max_locks_per_transaction 64 x
  // max_connections 100).
  std::size_t group_max_records = 32;
  std::size_t group_max_identifiers = 256;
};

class Engine {
 public:
  // Opens the pool (all connections at once). Throws UnavailableError.
  explicit Engine(EngineOptions options);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Upserts one record (see the file comment) on the calling thread: a
  // BatchUpsert of one.
  UpsertResult Upsert(const Record& record, const Deadline& deadline = {});

  // Upserts `record` as Upsert() would, within `deadline`, on a runner
  // thread of the engine's, and calls `done` exactly once with the outcome
  // on such a thread (never inside Submit). Records queued while every
  // runner is busy share transactions, up to group_max_records records and
  // group_max_identifiers identifiers; each gets the result it would get
  // alone in arrival order. A failed group is no record's answer: each
  // record with time left is applied again alone, with its own deadline. A
  // call waits in the queue no longer than its deadline. The runners start
  // with the first call. Throws, without calling `done`, when the call
  // cannot be queued (no memory or no thread). The destructor answers every
  // call submitted before it returns.
  void Submit(Record record, const Deadline& deadline, UpsertCallback done);

  // Upserts records in order, sharing transactions and round trips; records
  // that match each other end as one person. One result per record; a bad
  // record gets its own error and the others still go through. The chunks
  // committed before a DeadlineError stay stored (its message says how many
  // of the transactions); upserting the same records again converges on the
  // same persons.
  std::vector<UpsertResult> BatchUpsert(std::span<const Record> records,
                                        const Deadline& deadline = {});

  // BatchUpsert with exactly-once receipts (see BatchReceipt): safe to send
  // again after a crash, whatever part of it was committed.
  std::vector<UpsertResult> BatchUpsert(std::span<const Record> records,
                                        const BatchReceipt& receipt, const Deadline& deadline = {});

  // BatchUpsert of one stream partition's messages, storing the partition's
  // position (see StreamPosition) in each chunk's transaction with its
  // records. Throws PositionMovedError when another position than the one
  // the batch continues from is stored; std::invalid_argument unless
  // `position` has one ascending position per record.
  std::vector<UpsertResult> BatchUpsert(std::span<const Record> records,
                                        const StreamPosition& position,
                                        const Deadline& deadline = {});

  // The positions stored for consumer group `group` in `topic`, by
  // partition (see StreamPosition); a partition never stored is absent.
  std::map<std::int32_t, std::int64_t> StreamPositions(const std::string& group,
                                                       const std::string& topic);

  // Deletes record (source, record_id) (docs/design.md, "Records, judgements and
  // the change feed"): its contribution leaves its person, which is rebuilt
  // from its other records, split when they no longer hold together (the
  // part with the oldest record keeps the id), and removed when it has none
  // left. Under the upsert's locks: the record key and every key of the
  // person. nullopt when no such record is stored. Throws
  // std::invalid_argument (with the reason) when the identity cannot name
  // a record; EngineError as Upsert. Each steward's call here writes its
  // audit entry (engine/audit.h) in its own transaction, naming `actor`,
  // who is also the actor of every history event it writes.
  std::optional<DeletedRecord> DeleteRecord(const std::string& source, const std::string& record_id,
                                            const Deadline& deadline = {},
                                            std::string_view actor = kInProcessActor);

  // Erases person `id` (or the person it was merged into): every record,
  // identifier, trait, key and redirect of it, in one transaction under
  // the upsert's locks (every key of the person, then its row). Afterwards
  // the id and every id that redirected to it name no person, and
  // Removal() says they were erased and when; nothing else of it stays. A
  // later upsert of the same values creates a new person. nullopt when `id`
  // names no live person.
  std::optional<ErasedPerson> ForgetPerson(std::int64_t id, const Deadline& deadline = {},
                                           std::string_view actor = kInProcessActor);

  // A steward's unmerge: person `person_id` (its id now) is split into
  // `groups` of its records: the first group's part keeps the id (with every
  // record no group names), each other group becomes a new person, and the
  // parts are kept apart by never-match judgements. Under every key of the
  // person and its row lock, through the one resolve path. A group naming
  // a record not stored, or records not the person's, split nothing (the
  // result's status says which). Throws std::invalid_argument when the
  // groups are not a split (fewer than two, an empty one, a record twice).
  SplitResult SplitPerson(std::int64_t person_id, std::vector<std::vector<RecordRef>> groups,
                          const Deadline& deadline = {}, std::string_view actor = kInProcessActor);

  // A steward's judgement that persons `a` and `b` (or the persons they
  // were merged into) are not one: no upsert, batch or reconcile merges
  // them afterwards, also after later merges of either side (a record that
  // matches both joins the better one). Under both persons' keys and row
  // locks. kSamePerson when they are one person already (split it first).
  JudgeResult NeverMatch(std::int64_t a, std::int64_t b, const Deadline& deadline = {},
                         std::string_view actor = kInProcessActor);

  // A steward's judgement that `a` and `b` are one: a never-match between
  // them is dropped, their records are bonded (no later delete or replace
  // parts them), and they are merged, as Reconcile merges a group (with
  // everyone their values reach by now). nullopt when one names no live
  // person. The audit entry commits with the judgement; the merge follows
  // in a transaction of its own.
  std::optional<ReconcileResult> AlwaysMatch(std::int64_t a, std::int64_t b,
                                             const Deadline& deadline = {},
                                             std::string_view actor = kInProcessActor);

  // What an upsert of `record` would decide now (docs/matching.md, "Explanations
  // and possible matches"): the same path — its key locks, candidate read,
  // row locks, re-read and decision — and nothing written; a create shows
  // person 0. A record refused whole comes back with `error` (and its
  // rejections). EngineError as Upsert.
  Explanation Explain(const Record& record, const Deadline& deadline = {});

  // Person `b` scored as a candidate for a record holding person `a`'s
  // values (ids followed through merges), with any judgement between them.
  // A read without locks. nullopt when either names no live person.
  std::optional<PairExplanation> ExplainPair(std::int64_t a, std::int64_t b,
                                             const Deadline& deadline = {});

  // The open possible matches, best score first, after `cursor` (empty: from
  // the first; else a next_cursor), at most min(limit, kMaxPossibleMatches);
  // only person `person_id`'s when not 0. Throws std::invalid_argument for
  // a cursor this did not hand out.
  static constexpr std::size_t kMaxPossibleMatches = 1000;
  PossibleMatchPage ListPossibleMatches(const std::string& cursor, std::size_t limit,
                                        std::int64_t person_id = 0, const Deadline& deadline = {});

  // Every event of person `id` (or of the person it was merged into), oldest
  // first: created, records added / replaced / deleted, persons absorbed
  // (with why and the score breakdown), splits, judgements, erasure. An
  // erased person keeps only its events without data (created, split,
  // erased). Empty when `id` was never handed out.
  std::vector<PersonEvent> GetPersonHistory(std::int64_t id, const Deadline& deadline = {});

  // The audit log (docs/access.md, "Access and audit"): at most `limit` entries
  // written at or after `since` (nullopt: from the first) and after entry
  // `after_seq`, oldest first; fewer when there are no more.
  std::vector<AuditEntry> ReadAudit(std::optional<std::chrono::system_clock::time_point> since,
                                    std::int64_t after_seq, std::size_t limit);

  // Why `id` names no person any more; nullopt when it was never removed
  // (it is live, merged away, or was never handed out).
  std::optional<PersonRemoval> Removal(std::int64_t id, const Deadline& deadline = {});

  // Deletes the receipts of `job` (once an import is complete).
  void ForgetReceipts(std::int64_t job);

  // The person with `id`; an id merged away answers with its survivor and
  // sets redirected_from. nullopt when no such id was ever handed out.
  std::optional<Person> GetPerson(std::int64_t id, const Deadline& deadline = {});

  // Every person holding the identifier after normalization, oldest first,
  // at most kMaxLookupPersons (a shared value — a family's phone, an
  // office's email — has several holders); empty when nobody holds it. A
  // value that cannot be normalized comes back as a Rejection.
  static constexpr std::size_t kMaxLookupPersons = 100;
  std::variant<std::vector<Person>, Rejection> Lookup(const RawIdentifier& identifier,
                                                      std::string_view region = {},
                                                      const Deadline& deadline = {});

  StoreStats Stats();

  // The change feed (docs/batch.md, "The change feed"): the changes after
  // position `after_position` (0: from the first), ascending, at most
  // min(limit, kMaxListChanges) of them; fewer (none) when there are no
  // more yet. Every change to a person is appended in the transaction that
  // makes it, and gets its position once committed: positions are dense
  // from 1, never change and never skip a change that commits late, so a
  // caller that asks again after the last position it processed sees every
  // change exactly once, across restarts of either side. Per person, the
  // changes are in the order they committed; across persons, in an order
  // consistent with the commits of changes that depend on each other. May
  // hand out positions first (a short transaction under one advisory lock;
  // it never waits for writers, nor they for it).
  static constexpr std::size_t kMaxListChanges = 1000;
  std::vector<Change> ListChanges(std::int64_t after_position, std::size_t limit,
                                  const Deadline& deadline = {});

  // Reconcile, step 1 (read-only, no locks): every group of persons that
  // should be one, with phones re-normalized for `region` (empty: the
  // configured default). A snapshot: apply each group with Reconcile().
  std::vector<ReconcileGroup> FindReconcileGroups(std::string_view region = {});

  // Reconcile, step 2: under the upsert's locks (keys of the normalized
  // values, then the persons, re-read), merges into the oldest the group's
  // live persons (following redirects) and everyone their values reach by
  // now — persons matching the values taken together, holders of a strong or
  // unique value, and so on for those taken in — and rewrites stored values
  // to their normalized form. Idempotent.
  ReconcileResult Reconcile(const ReconcileGroup& group);

  // Whether the database answers a trivial query right now.
  bool Healthy();

  // Why `record` is over the record limits (max_identifiers, max_traits),
  // as every upsert would refuse it; nullopt when it is not. Pure.
  std::optional<std::string> OverLimit(const Record& record) const;

  // Connections currently borrowed from the pool.
  int ConnectionsInUse() const;

  const EngineOptions& options() const;

 private:
  friend class EngineTesting;
  Engine(EngineOptions options, EngineSeams seams);

  // `committed` (may be null; sized to the records): on a throw, the
  // results of the records whose chunk committed before it.
  std::vector<UpsertResult> Batch(std::span<const Record> records, const BatchReceipt* receipt,
                                  const Deadline& deadline,
                                  std::vector<std::optional<UpsertResult>>* committed = nullptr);
  // Runs `fn` on the live persons `ids` name under their keys and row locks
  // (engine/steward.cc); false when one names no live person.
  bool OnPersons(std::span<const std::int64_t> ids,
                 const std::function<void(detail::Tx&, const std::vector<std::int64_t>&)>& fn,
                 const Deadline& deadline);
  // The one path of every record, prepared: chunks, keys, transactions.
  // `dry_run`: decided, and nothing written (Explain).
  // `position`: BatchUpsert's StreamPosition, moved by each chunk.
  // `audit`: a steward's action of one record, written with it when done.
  // `committed`: as Batch's.
  std::vector<UpsertResult> Run(std::vector<detail::PreparedRecord>& prepared,
                                const BatchReceipt* receipt, const Deadline& deadline,
                                bool dry_run = false, const StreamPosition* position = nullptr,
                                const detail::AuditNote* audit = nullptr,
                                std::vector<std::optional<UpsertResult>>* committed = nullptr);
  // After a chunk of `records` committed: their outcomes to the observer,
  // and the records written to the planner statistics.
  void Committed(std::span<const std::size_t> records, const std::vector<UpsertResult>& results);

  struct Impl;
  std::unique_ptr<Impl> impl_;
  // Submit()'s queue, applying with Batch. Declared after impl_, so
  // destroyed first: every call is answered while the pool is still open.
  std::unique_ptr<detail::UpsertQueue> queue_;
};

// What MigrateStore did.
struct StoreMigration {
  std::vector<int> applied;                // the schema steps this call applied, ascending
  bool model_synced = false;               // the store was re-shaped for the model
  std::int64_t identifiers_reflagged = 0;  // identifiers whose is_unique changed
  std::int64_t persons_rekeyed = 0;        // live persons whose match keys were rebuilt
};

// Brings the store at `url` in line with this binary and `model`, in one
// transaction under pg_advisory_xact_lock(LockKey("idres", "schema")):
// applies the schema steps it lacks (engine/schema_steps.h), each once and
// recorded in idres_schema_version; then, when the model's
// StoreFingerprint (matcher/store_fingerprint.h) differs from the one the
// store records, sets every identifier's is_unique from the model and
// rebuilds every live person's match keys with the upsert's own key
// derivation, with identifiers and match_keys locked against writers
// (docs/operations.md, "The store and its migrations"). Call it before an Engine
// opens, with the Engine's model. Safe when several processes start at
// once: they run one after the other, and the later ones find nothing to
// do. Throws StoreError (nothing changed) when the model makes a type
// exclusive whose values several persons share, or the store is newer than
// this binary; the other EngineErrors as the engine's calls do.
StoreMigration MigrateStore(const std::string& url, const Model& model);

}  // namespace idres
