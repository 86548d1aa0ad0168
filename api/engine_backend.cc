#include "api/engine_backend.h"

#include "engine/engine.h"

namespace idres::api {

UpsertResult EngineBackend::Upsert(const Record& record) { return engine_.Upsert(record); }

std::vector<UpsertResult> EngineBackend::BatchUpsert(std::span<const Record> records) {
  return engine_.BatchUpsert(records);
}

std::vector<UpsertResult> EngineBackend::BatchUpsert(std::span<const Record> records,
                                                     const BatchReceipt& receipt) {
  return engine_.BatchUpsert(records, receipt);
}

void EngineBackend::ForgetReceipts(std::int64_t job) { engine_.ForgetReceipts(job); }

std::optional<Person> EngineBackend::GetPerson(std::int64_t id) { return engine_.GetPerson(id); }

std::variant<std::optional<Person>, Rejection> EngineBackend::Lookup(
    const RawIdentifier& identifier, std::string_view region) {
  return engine_.Lookup(identifier, region);
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
