#include "engine/detail/upsert_tx.h"

#include <algorithm>
#include <set>

#include "engine/detail/merge_helpers.h"
#include "engine/detail/store.h"

namespace idres::detail {
namespace {

// How often a vanished match is re-read under the same key locks before the
// whole transaction is retried.
constexpr int kCandidateRounds = 4;

UpsertResult Create(Tx& tx, const std::vector<Identifier>& ids, const Traits& traits,
                    const UpsertContext& ctx) {
  UpsertResult r;
  r.person_id = InsertPerson(tx, ToInsert(ids, ctx.matcher.config()),
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
  std::set<Identifier> held;
  for (std::int64_t id : d.matches) {
    const StoredPerson& p = persons.at(id);
    matched.push_back(&p);
    held.insert(p.identifiers.begin(), p.identifiers.end());
  }
  std::vector<Identifier> fresh;
  for (const Identifier& id : ids) {
    if (!held.contains(id)) fresh.push_back(id);
  }
  const Traits merged = MergedTraits(matched, traits);
  const bool merging = !r.merged_person_ids.empty();
  if (!merging && fresh.empty() && merged == persons.at(r.person_id).traits) {
    r.outcome = Outcome::kUnchanged;
    return r;
  }
  if (merging) MergeInto(tx, r.person_id, r.merged_person_ids, "bridged by an upsert");
  std::vector<std::int64_t> keys;
  if (merging || !fresh.empty()) {
    std::vector<Identifier> all(held.begin(), held.end());
    all.insert(all.end(), fresh.begin(), fresh.end());
    keys = PersonMatchKeys(ctx.planner, all);
  }
  WritePerson(tx, r.person_id, ToInsert(fresh, ctx.matcher.config()), keys, merged);
  r.outcome = merging ? Outcome::kMerged : Outcome::kUpdated;
  return r;
}

}  // namespace

UpsertResult ApplyRecord(Tx& tx, const PreparedRecord& record, const UpsertContext& ctx) {
  for (int round = 0; round < kCandidateRounds; ++round) {
    const std::vector<Candidate> candidates = ReadCandidates(tx, record.plan);
    const MatchDecision first = ctx.matcher.Decide(record.identifiers, candidates);

    // A unique value held by a person the record does not match stays there.
    std::vector<Identifier> ids;
    std::vector<Rejection> rejected = record.rejected;
    for (const Identifier& id : record.identifiers) {
      if (std::find(first.held_elsewhere.begin(), first.held_elsewhere.end(), id) !=
          first.held_elsewhere.end()) {
        rejected.push_back({id.type, id.value, "belongs to another person"});
      } else {
        ids.push_back(id);
      }
    }

    UpsertResult result;
    if (first.matches.empty()) {
      result = Create(tx, ids, record.traits, ctx);
    } else {
      // Lock, then re-read: merging on the earlier read would write stale
      // data over a concurrent commit (the lost update).
      if (!ctx.skip_locks && LockPersons(tx, first.matches).size() != first.matches.size()) {
        continue;
      }
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
