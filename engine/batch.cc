// BatchUpsert: records in order.
#include "engine/engine.h"

namespace idres {

std::vector<UpsertResult> Engine::BatchUpsert(std::span<const Record> records) {
  // Interim: one transaction per record (correct, not yet batched).
  std::vector<UpsertResult> results;
  results.reserve(records.size());
  for (const Record& r : records) results.push_back(Upsert(r));
  return results;
}

}  // namespace idres
