// EngineBackend: the IdentityBackend over a real idres::Engine. It only
// forwards; the engine owns the pool and the locking. Thread-safe as the
// engine is. The engine must outlive the backend.
#pragma once

#include "api/backend.h"

namespace idres {
class Engine;
}

namespace idres::api {

class EngineBackend final : public IdentityBackend {
 public:
  explicit EngineBackend(Engine& engine) : engine_(engine) {}

  void Submit(Record record, const Deadline& deadline, UpsertCallback done) override;
  std::vector<UpsertResult> BatchUpsert(std::span<const Record> records,
                                        const Deadline& deadline) override;
  std::vector<UpsertResult> BatchUpsert(std::span<const Record> records,
                                        const BatchReceipt& receipt,
                                        const Deadline& deadline) override;
  void ForgetReceipts(std::int64_t job) override;
  std::optional<Person> GetPerson(std::int64_t id, const Deadline& deadline) override;
  std::variant<std::optional<Person>, Rejection> Lookup(const RawIdentifier& identifier,
                                                        std::string_view region,
                                                        const Deadline& deadline) override;
  StoreStats Stats() override;
  bool Healthy() override;
  int ConnectionsInUse() const override;

 private:
  Engine& engine_;
};

}  // namespace idres::api
