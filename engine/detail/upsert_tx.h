// ApplyRecord: steps 4 to 7 of the upsert transaction for one record whose
// key locks the caller already holds (README.md, "The upsert transaction"):
// read candidates, score them, lock and re-read the matches, then create,
// update or merge on top of what was re-read. Used by Upsert (BatchUpsert
// resolves whole chunks: engine/batch.cc). A creation commits the
// transaction together with its insert, in one round trip; an update or
// merge leaves its writes deferred (Tx::Defer) for the caller's Commit().
// Internal to engine/.
#pragma once

#include <stdexcept>

#include "engine/detail/prepared_record.h"
#include "engine/detail/tx.h"
#include "engine/record.h"
#include "matcher/lock_plan.h"
#include "matcher/matcher.h"

namespace idres::detail {

struct UpsertContext {
  const Matcher& matcher;
  const LockPlanner& planner;
  bool skip_locks;                // the unsafe baseline: no person locks either
  std::size_t max_person_traits;  // EngineOptions::max_person_traits
};

// The reason recorded with a merge an upsert's record caused.
inline constexpr const char* kBridgeReason = "bridged by an upsert";

// How often a vanished match is re-read under the same key locks before the
// whole transaction is retried.
inline constexpr int kCandidateRounds = 4;

// Matched persons kept disappearing (merged away by transactions holding
// other keys) between the candidate read and the person lock: the caller
// runs the whole transaction again.
class VanishedPersonError : public std::runtime_error {
 public:
  VanishedPersonError() : std::runtime_error("matched persons vanished") {}
};

// Thread-safety: uses `tx` (one thread's) and const inputs only.
UpsertResult ApplyRecord(Tx& tx, const PreparedRecord& record, const UpsertContext& ctx);

}  // namespace idres::detail
