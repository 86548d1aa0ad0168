// IdentityBackend: what the RPC handler needs from the store, as an
// interface so that the protocol layer can be tested without a database
// (api/engine_backend.h adapts the real idres::Engine). The contract of each
// method is that of the Engine method of the same name (engine/engine.h),
// including its exceptions (engine/errors.h) and its deadlines
// (engine/deadline.h). An Upsert goes through Submit only: the engine
// groups queued upserts itself, and no thread waits for one.
//
// Thread-safety: implementations must allow calls from many threads at once.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/change.h"
#include "engine/deadline.h"
#include "engine/record.h"
#include "engine/submit.h"
#include "matcher/model.h"

namespace idres::api {

class IdentityBackend {
 public:
  virtual ~IdentityBackend() = default;
  // Calls `done` exactly once with the outcome, on a thread of the
  // backend's (never inside Submit); throws, without calling it, when the
  // call cannot be queued.
  virtual void Submit(Record record, const Deadline& deadline, UpsertCallback done) = 0;
  virtual std::vector<UpsertResult> BatchUpsert(std::span<const Record> records,
                                                const Deadline& deadline) = 0;
  // With exactly-once receipts; receipt.items has one item per record.
  virtual std::vector<UpsertResult> BatchUpsert(std::span<const Record> records,
                                                const BatchReceipt& receipt,
                                                const Deadline& deadline) = 0;
  // A steward's or admin's action names its `actor` (the caller's token):
  // the engine writes it in the audit log and the person's history.
  virtual std::optional<DeletedRecord> DeleteRecord(const std::string& source,
                                                    const std::string& record_id,
                                                    const Deadline& deadline,
                                                    std::string_view actor) = 0;
  virtual std::optional<ErasedPerson> ForgetPerson(std::int64_t id, const Deadline& deadline,
                                                   std::string_view actor) = 0;
  virtual std::optional<PersonRemoval> Removal(std::int64_t id, const Deadline& deadline) = 0;
  virtual SplitResult SplitPerson(std::int64_t id, std::vector<std::vector<RecordRef>> groups,
                                  const Deadline& deadline, std::string_view actor) = 0;
  virtual JudgeResult NeverMatch(std::int64_t a, std::int64_t b, const Deadline& deadline,
                                 std::string_view actor) = 0;
  virtual std::optional<ReconcileResult> AlwaysMatch(std::int64_t a, std::int64_t b,
                                                     const Deadline& deadline,
                                                     std::string_view actor) = 0;
  virtual std::vector<PersonEvent> GetPersonHistory(std::int64_t id, const Deadline& deadline) = 0;
  virtual void ForgetReceipts(std::int64_t job) = 0;
  virtual std::optional<Person> GetPerson(std::int64_t id, const Deadline& deadline) = 0;
  virtual std::variant<std::vector<Person>, Rejection> Lookup(const RawIdentifier& identifier,
                                                              std::string_view region,
                                                              const Deadline& deadline) = 0;
  virtual StoreStats Stats() = 0;
  // The model the backend decides with; it does not change while the
  // backend lives.
  virtual const Model& model() const = 0;
  // At most `limit` changes after `after_position` (Engine::ListChanges).
  virtual std::vector<Change> ListChanges(std::int64_t after_position, std::size_t limit,
                                          const Deadline& deadline) = 0;
  virtual Explanation Explain(const Record& record, const Deadline& deadline) = 0;
  virtual std::optional<PairExplanation> ExplainPair(std::int64_t a, std::int64_t b,
                                                     const Deadline& deadline) = 0;
  virtual PossibleMatchPage ListPossibleMatches(const std::string& cursor, std::size_t limit,
                                                std::int64_t person_id,
                                                const Deadline& deadline) = 0;
  // Why `record` is over the engine's record limits (Engine::OverLimit);
  // nullopt when it is not. Pure; never throws.
  virtual std::optional<std::string> OverLimit(const Record& record) const = 0;
  // Whether the database answers right now; never throws.
  virtual bool Healthy() = 0;
  // Connections currently borrowed from the pool.
  virtual int ConnectionsInUse() const = 0;
};

}  // namespace idres::api
