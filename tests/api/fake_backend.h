// FakeBackend: an IdentityBackend that answers from fields the test sets and
// records what it was asked, for the protocol-layer tests (nothing here is
// about locking: those tests run against the real engine and database).
#pragma once

#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "api/service/access_control.h"
#include "api/service/backend.h"
#include "api/service/tokens_file.h"

namespace idres::testing {

// Access for a server whose one token is `token`, with the role admin (as
// `idres serve --auth-token`); null (open) for "".
inline std::shared_ptr<const api::AccessControl> AdminOnly(const std::string& token) {
  if (token.empty()) return nullptr;
  return std::make_shared<const api::AccessControl>(api::TokenTable{api::AuthTokenEntry(token)});
}

class FakeBackend : public api::IdentityBackend {
 public:
  UpsertResult upsert_result;
  std::optional<Person> person;
  std::variant<std::vector<Person>, Rejection> lookup_result = std::vector<Person>{};
  StoreStats stats;
  std::vector<Change> changes;          // ListChanges answers these
  Explanation explanation;              // Explain answers this
  std::optional<PairExplanation> pair;  // ExplainPair answers this
  PossibleMatchPage possible;           // ListPossibleMatches answers this
  Model served = Model::Defaults();     // GetModel answers this
  Record asked_explain;
  std::int64_t asked_other = 0;
  std::string asked_cursor;
  bool healthy = true;
  RecordLimits limits;         // OverLimit answers by these, as the engine does
  std::exception_ptr failure;  // thrown by every data method when set

  std::vector<Record> upserted;         // every record passed to Submit or BatchUpsert
  std::vector<BatchReceipt> receipts;   // every receipt passed to BatchUpsert
  std::vector<std::int64_t> forgotten;  // every job passed to ForgetReceipts
  std::int64_t asked_id = 0;
  std::size_t asked_limit = 0;
  RawIdentifier asked_identifier;
  std::pair<std::string, std::string> asked_record;  // DeleteRecord's (source, record_id)
  std::string asked_actor;                           // a steward's action's actor
  std::optional<DeletedRecord> deletion = DeletedRecord{7, false, {12}};
  std::optional<ErasedPerson> erasure = ErasedPerson{7, {3, 7}};
  std::optional<PersonRemoval> removal;
  std::string asked_region;
  Deadline asked_deadline;  // of the last data call that takes one

  FakeBackend() = default;
  FakeBackend(const FakeBackend&) = delete;
  FakeBackend& operator=(const FakeBackend&) = delete;
  ~FakeBackend() override {
    for (auto& thread : answering_) thread.join();
  }

  std::optional<std::string> OverLimit(const Record& record) const override {
    return limits.Refusal(record);
  }

  // Takes the record at once and answers on a thread of its own, as the
  // engine does.
  void Submit(Record record, const Deadline& deadline, UpsertCallback done) override {
    asked_deadline = deadline;
    UpsertOutcome outcome;
    try {
      MaybeFail();
      upserted.push_back(std::move(record));
      outcome.result = upsert_result;
    } catch (...) {
      outcome.error = std::current_exception();
    }
    answering_.emplace_back([done = std::move(done), outcome = std::move(outcome)]() mutable {
      done(std::move(outcome));
    });
  }
  std::vector<UpsertResult> BatchUpsert(std::span<const Record> records,
                                        const Deadline& deadline) override {
    asked_deadline = deadline;
    MaybeFail();
    std::vector<UpsertResult> out;
    for (const auto& record : records) {
      upserted.push_back(record);
      UpsertResult result = upsert_result;
      result.person_id = static_cast<std::int64_t>(upserted.size());
      if (record.identifiers.empty()) result.error = "no valid identifier";
      out.push_back(result);
    }
    return out;
  }
  std::vector<UpsertResult> BatchUpsert(std::span<const Record> records,
                                        const BatchReceipt& receipt,
                                        const Deadline& deadline) override {
    MaybeFail();
    receipts.push_back(receipt);
    return BatchUpsert(records, deadline);
  }
  std::optional<DeletedRecord> DeleteRecord(const std::string& source, const std::string& record_id,
                                            const Deadline& deadline,
                                            std::string_view actor) override {
    asked_deadline = deadline;
    asked_actor = actor;
    MaybeFail();
    asked_record = {source, record_id};
    return deletion;
  }
  std::optional<ErasedPerson> ForgetPerson(std::int64_t id, const Deadline& deadline,
                                           std::string_view actor) override {
    asked_deadline = deadline;
    asked_actor = actor;
    MaybeFail();
    asked_id = id;
    return erasure;
  }
  std::optional<PersonRemoval> Removal(std::int64_t id, const Deadline& deadline) override {
    asked_deadline = deadline;
    MaybeFail();
    asked_id = id;
    return removal;
  }
  SplitResult SplitPerson(std::int64_t id, std::vector<std::vector<RecordRef>>,
                          const Deadline& deadline, std::string_view actor) override {
    asked_deadline = deadline;
    asked_actor = actor;
    MaybeFail();
    asked_id = id;
    SplitResult split;
    split.person_id = id;
    split.part_ids = {id + 1};
    return split;
  }
  JudgeResult NeverMatch(std::int64_t a, std::int64_t, const Deadline& deadline,
                         std::string_view actor) override {
    asked_deadline = deadline;
    asked_actor = actor;
    MaybeFail();
    asked_id = a;
    return JudgeResult::kDone;
  }
  std::optional<ReconcileResult> AlwaysMatch(std::int64_t a, std::int64_t b,
                                             const Deadline& deadline,
                                             std::string_view actor) override {
    asked_deadline = deadline;
    asked_actor = actor;
    MaybeFail();
    asked_id = a;
    return ReconcileResult{a, {b}, 0};
  }
  std::vector<PersonEvent> GetPersonHistory(std::int64_t id, const Deadline& deadline) override {
    asked_deadline = deadline;
    MaybeFail();
    asked_id = id;
    return {};
  }
  void ForgetReceipts(std::int64_t job) override {
    MaybeFail();
    forgotten.push_back(job);
  }
  std::optional<Person> GetPerson(std::int64_t id, const Deadline& deadline) override {
    asked_deadline = deadline;
    MaybeFail();
    asked_id = id;
    return person;
  }
  std::variant<std::vector<Person>, Rejection> Lookup(const RawIdentifier& identifier,
                                                      std::string_view region,
                                                      const Deadline& deadline) override {
    asked_deadline = deadline;
    MaybeFail();
    asked_identifier = identifier;
    asked_region = std::string(region);
    return lookup_result;
  }
  StoreStats Stats() override {
    MaybeFail();
    return stats;
  }
  const Model& model() const override { return served; }
  std::vector<Change> ListChanges(std::int64_t after_position, std::size_t limit,
                                  const Deadline& deadline) override {
    asked_deadline = deadline;
    MaybeFail();
    asked_id = after_position;
    asked_limit = limit;
    return changes;
  }
  Explanation Explain(const Record& record, const Deadline& deadline) override {
    asked_deadline = deadline;
    MaybeFail();
    asked_explain = record;
    return explanation;
  }
  std::optional<PairExplanation> ExplainPair(std::int64_t a, std::int64_t b,
                                             const Deadline& deadline) override {
    asked_deadline = deadline;
    MaybeFail();
    asked_id = a;
    asked_other = b;
    return pair;
  }
  PossibleMatchPage ListPossibleMatches(const std::string& cursor, std::size_t limit,
                                        std::int64_t person_id, const Deadline& deadline) override {
    asked_deadline = deadline;
    MaybeFail();
    asked_cursor = cursor;
    asked_limit = limit;
    asked_id = person_id;
    return possible;
  }
  bool Healthy() override { return healthy; }
  int ConnectionsInUse() const override { return 3; }

 private:
  void MaybeFail() const {
    if (failure) std::rethrow_exception(failure);
  }

  std::vector<std::thread> answering_;  // joined by the destructor
};

}  // namespace idres::testing
