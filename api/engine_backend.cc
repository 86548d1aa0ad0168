#include "api/engine_backend.h"

#include "engine/engine.h"

namespace idres::api {

void EngineBackend::Submit(Record record, const Deadline& deadline, UpsertCallback done) {
  engine_.Submit(std::move(record), deadline, std::move(done));
}

std::vector<UpsertResult> EngineBackend::BatchUpsert(std::span<const Record> records,
                                                     const Deadline& deadline) {
  return engine_.BatchUpsert(records, deadline);
}

std::vector<UpsertResult> EngineBackend::BatchUpsert(std::span<const Record> records,
                                                     const BatchReceipt& receipt,
                                                     const Deadline& deadline) {
  return engine_.BatchUpsert(records, receipt, deadline);
}

void EngineBackend::ForgetReceipts(std::int64_t job) { engine_.ForgetReceipts(job); }

std::optional<Person> EngineBackend::GetPerson(std::int64_t id, const Deadline& deadline) {
  return engine_.GetPerson(id, deadline);
}

std::variant<std::optional<Person>, Rejection> EngineBackend::Lookup(
    const RawIdentifier& identifier, std::string_view region, const Deadline& deadline) {
  return engine_.Lookup(identifier, region, deadline);
}

StoreStats EngineBackend::Stats() { return engine_.Stats(); }

bool EngineBackend::Healthy() {
  try {
    return engine_.Healthy();
  } catch (...) {
    return false;  // a health probe answers "down", it never fails
  }
}

int EngineBackend::ConnectionsInUse() const { return engine_.ConnectionsInUse(); }

}  // namespace idres::api
