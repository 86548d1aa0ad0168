#include "engine/detail/batch_writer.h"

#include <map>
#include <set>

#include "engine/detail/merge_helpers.h"
#include "engine/detail/resolve.h"
#include "engine/detail/store.h"

namespace idres::detail {

void WriteBatchAndCommit(Tx& tx, const BatchResolver& resolver, const LockPlanner& planner,
                         std::vector<UpsertResult*>& results) {
  PersonWrites created, updated;
  created.merge_reason = kBridgeReason;
  // Stored persons merged away, by the person they ended in; and what each
  // survivor holds in the database once they moved to it.
  std::map<std::int64_t, std::vector<std::int64_t>> absorbed_by;
  std::map<std::int64_t, std::set<Identifier>> in_database;
  for (const BatchPerson& p : resolver.persons()) {
    if (p.provisional()) {
      created.persons.push_back(p.now.id);
      created.inserted.push_back(p.live);
    }
    const std::int64_t final_id = resolver.FinalId(p.now.id);
    if (p.stored) {
      in_database[final_id].insert(p.stored_identifiers.begin(), p.stored_identifiers.end());
    }
    if (p.live) continue;
    if (p.stored) {
      // A survivor is the oldest of its persons, so never one created here.
      absorbed_by[final_id].push_back(p.now.id);
    } else {
      created.merge_absorbed.push_back(p.now.id);
      created.merge_survivor.push_back(final_id);
    }
  }
  for (const BatchPerson& p : resolver.persons()) {
    if (!p.live || !(p.traits_changed || p.identifiers_changed)) continue;
    PersonWrites& w = p.provisional() ? created : updated;
    const std::int64_t id = p.now.id;
    if (!p.provisional()) w.persons.push_back(id);
    w.AddTraits(id, p.now.traits);
    if (!p.identifiers_changed) continue;
    const std::set<Identifier>& held = in_database[id];
    std::vector<Identifier> missing;
    for (const Identifier& v : p.now.identifiers) {
      if (!held.contains(v)) missing.push_back(v);
    }
    w.AddIdentifiers(id, ToInsert(missing, planner.model()));
    w.AddMatchKeys(id, p.keys);
  }

  // The merges first: they move rows the database holds, and the identifiers
  // written after them exclude what they move (in_database).
  for (const auto& [survivor, absorbed] : absorbed_by) {
    MergeInto(tx, survivor, absorbed, kBridgeReason);
  }
  DeferUpdates(tx, updated);
  if (created.persons.empty()) {
    tx.Commit();
    return;
  }
  const std::map<std::int64_t, std::int64_t> real = CreateAndCommit(tx, created);
  auto Real = [&](std::int64_t id) {
    auto it = real.find(id);
    return it == real.end() ? id : it->second;
  };
  for (UpsertResult* r : results) {
    r->person_id = Real(r->person_id);
    for (std::int64_t& id : r->merged_person_ids) id = Real(id);
  }
}

}  // namespace idres::detail
