#include "engine/detail/batch_writer.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>

#include "engine/detail/merge_helpers.h"
#include "engine/detail/pg_array.h"
#include "engine/detail/statements.h"
#include "engine/detail/store.h"
#include "engine/detail/traits_codec.h"
#include "engine/detail/upsert_tx.h"

namespace idres::detail {
namespace {

// Real ids for the provisional ones, in creation order (ascending, as the
// per-record path would have handed them out).
std::map<std::int64_t, std::int64_t> AllocateIds(Tx& tx, const BatchResolver& resolver) {
  std::vector<std::int64_t> provisional;
  for (const BatchPerson& p : resolver.persons()) {
    if (p.provisional()) provisional.push_back(p.now.id);
  }
  std::map<std::int64_t, std::int64_t> real;
  if (provisional.empty()) return real;
  std::vector<std::int64_t> ids;
  for (const auto& row :
       tx.Exec(kAllocatePersonIds, static_cast<std::int64_t>(provisional.size()))) {
    ids.push_back(row[0].as<std::int64_t>());
  }
  std::sort(ids.begin(), ids.end());
  for (std::size_t i = 0; i < provisional.size(); ++i) real[provisional[i]] = ids.at(i);
  return real;
}

// The rows of the one write statement (kWriteBatch's parameters).
struct BatchRows {
  std::vector<std::int64_t> new_persons, updated_persons;
  std::vector<std::int64_t> trait_owner;
  std::vector<std::string> trait_keys, trait_kinds, trait_values;
  std::vector<std::int64_t> id_person;
  std::vector<std::string> id_type, id_value;
  std::vector<bool> id_unique;
  std::vector<std::int64_t> key_key, key_person;
  std::vector<std::int64_t> merge_absorbed, merge_survivor;
};

void AddTraits(BatchRows& rows, std::int64_t owner, const Traits& traits) {
  for (const auto& [k, v] : traits) {
    const EncodedTrait e = EncodeTrait(v);
    rows.trait_owner.push_back(owner);
    rows.trait_keys.push_back(k);
    rows.trait_kinds.push_back(e.kind);
    rows.trait_values.push_back(e.text);
  }
}

}  // namespace

void WriteBatch(Tx& tx, const BatchResolver& resolver, const LockPlanner& planner,
                const MatchConfig& config, std::vector<UpsertResult*>& results) {
  const std::map<std::int64_t, std::int64_t> real = AllocateIds(tx, resolver);
  auto Real = [&](std::int64_t id) {
    auto it = real.find(id);
    return it == real.end() ? id : it->second;
  };

  BatchRows rows;
  // Stored persons merged away, by the person they ended in; and what each
  // survivor holds in the database once they moved to it.
  std::map<std::int64_t, std::vector<std::int64_t>> absorbed_by;
  std::map<std::int64_t, std::set<Identifier>> in_database;
  for (const BatchPerson& p : resolver.persons()) {
    const std::int64_t final_id = Real(resolver.FinalId(p.now.id));
    if (p.stored)
      in_database[final_id].insert(p.stored_identifiers.begin(), p.stored_identifiers.end());
    if (p.live) continue;
    if (p.stored) {
      absorbed_by[final_id].push_back(p.now.id);
    } else {
      rows.merge_absorbed.push_back(Real(p.now.id));
      rows.merge_survivor.push_back(final_id);
    }
  }
  for (const BatchPerson& p : resolver.persons()) {
    if (!p.live || !(p.traits_changed || p.identifiers_changed)) continue;
    const std::int64_t id = Real(p.now.id);
    (p.provisional() ? rows.new_persons : rows.updated_persons).push_back(id);
    AddTraits(rows, id, p.now.traits);
    if (!p.identifiers_changed) continue;
    const std::set<Identifier>& held = in_database[id];
    std::vector<Identifier> missing;
    for (const Identifier& v : p.now.identifiers) {
      if (!held.contains(v)) missing.push_back(v);
    }
    NewIdentifiers n = ToInsert(missing, config);
    rows.id_person.insert(rows.id_person.end(), n.types.size(), id);
    std::move(n.types.begin(), n.types.end(), std::back_inserter(rows.id_type));
    std::move(n.values.begin(), n.values.end(), std::back_inserter(rows.id_value));
    rows.id_unique.insert(rows.id_unique.end(), n.unique.begin(), n.unique.end());
    for (std::int64_t key : PersonMatchKeys(planner, p.now.identifiers)) {
      rows.key_key.push_back(key);
      rows.key_person.push_back(id);
    }
  }

  // New persons first: a stored person may be merged into one of them.
  // kWriteBatch inserts them, so the merges run after it; the identifiers
  // it inserts exclude what the merges move (in_database). All of it goes
  // with the COMMIT; an error in it fails the commit's round trip.
  tx.Defer(kWriteBatch, BigintArray(rows.new_persons), BigintArray(rows.trait_owner),
           TextArray(rows.trait_keys), TextArray(rows.trait_kinds), TextArray(rows.trait_values),
           BigintArray(rows.updated_persons), BigintArray(rows.id_person), TextArray(rows.id_type),
           TextArray(rows.id_value), BoolArray(rows.id_unique), BigintArray(rows.key_key),
           BigintArray(rows.key_person), BigintArray(rows.merge_absorbed),
           BigintArray(rows.merge_survivor), std::string(kBridgeReason));
  for (const auto& [survivor, absorbed] : absorbed_by) {
    MergeInto(tx, survivor, absorbed, kBridgeReason);
  }

  for (UpsertResult* r : results) {
    r->person_id = Real(r->person_id);
    for (std::int64_t& id : r->merged_person_ids) id = Real(id);
  }
}

}  // namespace idres::detail
