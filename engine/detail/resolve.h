// Resolve: steps 4 to 7 of the upsert (docs/design.md, "The upsert transaction")
// for records whose key locks the caller holds — the one path every record
// takes: a single Upsert is a batch of one, and a BatchUpsert chunk, an
// import batch or a group of queued upserts is the same call with more
// records. One candidate read for all of them, the persons found read (one
// round trip; those surely written row-locked first), the records decided in
// memory in order (engine/detail/batch_resolver.h), any other person the
// decision writes row-locked and re-read (decided again if it changed), then
// the writes and the COMMIT in one round trip (engine/detail/batch_writer.h).
// A new person costs two round trips with the key locks, an update three.
// Internal to engine/.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <stdexcept>
#include <vector>

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
  // Explain: decide, under the same locks, and write nothing (the
  // transaction ends without a write).
  bool dry_run = false;
};

// The reason recorded with a merge an upsert's record caused.
inline constexpr const char* kBridgeReason = "bridged by an upsert";

// How often vanished or changed persons are read again under the same key
// locks before the whole transaction is retried.
inline constexpr int kCandidateRounds = 4;

// Matched persons kept disappearing (merged away by transactions holding
// other keys) between the candidate read and the person lock: the caller
// runs the whole transaction again.
class VanishedPersonError : public std::runtime_error {
 public:
  VanishedPersonError() : std::runtime_error("matched persons vanished") {}
};

// A person a record of the chunk is withdrawn from needs a key the chunk
// does not hold (it gained a value since the keys were planned): the caller
// plans the chunk's keys again and runs it in a new transaction.
class KeysGrewError : public std::runtime_error {
 public:
  KeysGrewError() : std::runtime_error("a record's person changed while its keys were planned") {}
};

// The plan -> lock -> check loop of every call that learns its keys before
// it locks them (an upsert's chunk, a steward's action): runs `attempt`,
// which throws KeysGrewError when what it locked no longer covers what it
// found, and after each such failure `replan` and `attempt` again; after
// `max_retries` re-plans, ConflictError. Other errors pass through.
void Replanning(int max_retries, const std::function<void()>& attempt,
                const std::function<void()>& replan = {});

// Applies `records[i]` for each i of `todo`, in that order, inside `tx`,
// whose key locks cover every key of those records, and commits `tx` (with
// whatever the caller left pending). results[i] is each one's answer; a
// record refused on its own (its traits would grow a person past the cap)
// gets an error and writes nothing. `decided`, if set, runs once every
// result is known and before the writes are sent: what it queues (Tx::Defer)
// commits with them. `held`: the chunk's lock keys (sorted), which must
// cover every key of a person a record is withdrawn from. Throws
// VanishedPersonError, KeysGrewError, or the database's errors; then
// nothing was committed. With ctx.dry_run, nothing is written and `tx` is
// left open (`decided` is not called).
// Thread-safety: uses `tx` (one thread's) and const inputs only.
void ResolveAndCommit(Tx& tx, const std::vector<PreparedRecord>& records,
                      const std::vector<std::size_t>& todo, std::vector<UpsertResult>& results,
                      const UpsertContext& ctx, std::span<const std::int64_t> held,
                      const std::function<void()>& decided = {});

}  // namespace idres::detail
