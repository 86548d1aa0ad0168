#include "engine/detail/upsert_tx.h"

#include "engine/detail/merge_helpers.h"
#include "engine/detail/store.h"

namespace idres::detail {
namespace {

UpsertResult Create(Tx& tx, const std::vector<Identifier>& ids, const Traits& traits,
                    const UpsertContext& ctx) {
  UpsertResult r;
  r.person_id = InsertPersonAndCommit(tx, ToInsert(ids, ctx.matcher.config()),
                                      PersonMatchKeys(ctx.planner, ids), traits);
  r.outcome = Outcome::kCreated;
  return r;
}

// Step 6 and 7 with the matched persons locked and re-read.
UpsertResult UpdateOrMerge(Tx& tx, const std::vector<Identifier>& ids, const Traits& traits,
                           const MatchDecision& d,
                           const std::map<std::int64_t, StoredPerson>& persons,
                           const UpsertContext& ctx) {
  UpsertResult r;
  r.person_id = d.matches.front();
  r.score = d.survivor_score();
  r.merged_person_ids.assign(d.matches.begin() + 1, d.matches.end());
  std::vector<const StoredPerson*> matched;
  for (std::int64_t id : d.matches) matched.push_back(&persons.at(id));
  const MergePlan plan = PlanMerge(matched, ids, traits);
  if (plan.unchanged) {
    r.outcome = Outcome::kUnchanged;
    return r;
  }
  if (auto over = TraitsOverCap(matched, plan, ctx.max_person_traits)) {
    UpsertResult refused;  // nothing written: the transaction commits no change
    refused.error = std::move(over);
    return refused;
  }
  const bool merging = !r.merged_person_ids.empty();
  if (merging) MergeInto(tx, r.person_id, r.merged_person_ids, kBridgeReason);
  std::vector<std::int64_t> keys;
  if (merging || !plan.fresh.empty()) keys = PersonMatchKeys(ctx.planner, plan.all);
  WritePerson(tx, r.person_id, ToInsert(plan.fresh, ctx.matcher.config()), keys, plan.traits);
  r.outcome = merging ? Outcome::kMerged : Outcome::kUpdated;
  return r;
}

}  // namespace

UpsertResult ApplyRecord(Tx& tx, const PreparedRecord& record, const UpsertContext& ctx) {
  for (int round = 0; round < kCandidateRounds; ++round) {
    const std::vector<Candidate> candidates = ReadCandidates(tx, record.plan);
    const MatchDecision first = ctx.matcher.Decide(record.identifiers, candidates);

    // A unique value held by a person the record does not match stays there.
    std::vector<Rejection> rejected = record.rejected;
    const std::vector<Identifier> ids = OwnValues(record.identifiers, first, rejected);
    UpsertResult result;
    if (first.matches.empty()) {
      result = Create(tx, ids, record.traits, ctx);
    } else {
      // Lock, then re-read: merging on the earlier read would write stale
      // data over a concurrent commit (the lost update). One round trip: the
      // re-read is a statement of its own, after the row locks, so it sees
      // every person as the lock left it, and misses one merged away.
      if (!ctx.skip_locks) LockPersonsWithNext(tx, first.matches);
      const auto persons = ReadPersons(tx, first.matches);
      if (persons.size() != first.matches.size()) continue;
      std::vector<Candidate> reread;
      for (const auto& [id, p] : persons) reread.push_back(Candidate{id, p.identifiers});
      const MatchDecision d = ctx.matcher.Decide(record.identifiers, reread);
      if (d.matches.empty()) continue;
      result = UpdateOrMerge(tx, ids, record.traits, d, persons, ctx);
    }
    result.rejected = std::move(rejected);
    return result;
  }
  throw VanishedPersonError();
}

}  // namespace idres::detail
