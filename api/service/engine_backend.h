// EngineBackend: the IdentityBackend over a real idres::Engine. It only
// forwards; the engine owns the pool and the locking. Thread-safe as the
// engine is. The engine must outlive the backend.
#pragma once

#include "api/service/backend.h"
#include "engine/engine.h"

namespace idres::api {

class EngineBackend final : public IdentityBackend {
 public:
  explicit EngineBackend(Engine& engine) : engine_(engine) {}

  void Submit(Record record, const Deadline& deadline, UpsertCallback done) override {
    engine_.Submit(std::move(record), deadline, std::move(done));
  }
  std::vector<UpsertResult> BatchUpsert(std::span<const Record> records,
                                        const Deadline& deadline) override {
    return engine_.BatchUpsert(records, deadline);
  }
  std::vector<UpsertResult> BatchUpsert(std::span<const Record> records,
                                        const BatchReceipt& receipt,
                                        const Deadline& deadline) override {
    return engine_.BatchUpsert(records, receipt, deadline);
  }
  void ForgetReceipts(std::int64_t job) override { engine_.ForgetReceipts(job); }
  Explanation Explain(const Record& record, const Deadline& deadline) override {
    return engine_.Explain(record, deadline);
  }
  std::optional<PairExplanation> ExplainPair(std::int64_t a, std::int64_t b,
                                             const Deadline& deadline) override {
    return engine_.ExplainPair(a, b, deadline);
  }
  PossibleMatchPage ListPossibleMatches(const std::string& cursor, std::size_t limit,
                                        std::int64_t person_id, const Deadline& deadline) override {
    return engine_.ListPossibleMatches(cursor, limit, person_id, deadline);
  }
  std::optional<DeletedRecord> DeleteRecord(const std::string& source, const std::string& record_id,
                                            const Deadline& deadline,
                                            std::string_view actor) override {
    return engine_.DeleteRecord(source, record_id, deadline, actor);
  }
  std::optional<ErasedPerson> ForgetPerson(std::int64_t id, const Deadline& deadline,
                                           std::string_view actor) override {
    return engine_.ForgetPerson(id, deadline, actor);
  }
  std::optional<PersonRemoval> Removal(std::int64_t id, const Deadline& deadline) override {
    return engine_.Removal(id, deadline);
  }
  SplitResult SplitPerson(std::int64_t id, std::vector<std::vector<RecordRef>> groups,
                          const Deadline& deadline, std::string_view actor) override {
    return engine_.SplitPerson(id, std::move(groups), deadline, actor);
  }
  JudgeResult NeverMatch(std::int64_t a, std::int64_t b, const Deadline& deadline,
                         std::string_view actor) override {
    return engine_.NeverMatch(a, b, deadline, actor);
  }
  std::optional<ReconcileResult> AlwaysMatch(std::int64_t a, std::int64_t b,
                                             const Deadline& deadline,
                                             std::string_view actor) override {
    return engine_.AlwaysMatch(a, b, deadline, actor);
  }
  std::vector<PersonEvent> GetPersonHistory(std::int64_t id, const Deadline& deadline) override {
    return engine_.GetPersonHistory(id, deadline);
  }
  std::optional<Person> GetPerson(std::int64_t id, const Deadline& deadline) override {
    return engine_.GetPerson(id, deadline);
  }
  std::variant<std::vector<Person>, Rejection> Lookup(const RawIdentifier& identifier,
                                                      std::string_view region,
                                                      const Deadline& deadline) override {
    return engine_.Lookup(identifier, region, deadline);
  }
  StoreStats Stats() override { return engine_.Stats(); }
  const Model& model() const override { return engine_.options().model; }
  std::vector<Change> ListChanges(std::int64_t after_position, std::size_t limit,
                                  const Deadline& deadline) override {
    return engine_.ListChanges(after_position, limit, deadline);
  }
  std::optional<std::string> OverLimit(const Record& record) const override {
    return engine_.OverLimit(record);
  }
  bool Healthy() override {
    try {
      return engine_.Healthy();
    } catch (...) {
      return false;  // a health probe answers "down", it never fails
    }
  }
  int ConnectionsInUse() const override { return engine_.ConnectionsInUse(); }

 private:
  Engine& engine_;
};

}  // namespace idres::api
