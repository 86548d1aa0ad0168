#include "engine/detail/batch_writer.h"

#include <algorithm>
#include <map>
#include <set>

#include "engine/detail/merge_helpers.h"
#include "engine/detail/resolve.h"
#include "engine/detail/store.h"

namespace idres::detail {

namespace {

// Everything but the merges, which MergeInto sends itself.
struct Writes {
  PersonWrites created, updated;
  PersonWrites keys_only;  // stored persons that gained keys and nothing else
  RecordWrites stored_records;
  PersonLosses losses;
  std::vector<std::int64_t> emptied;
};

// The values and keys a stored person no longer holds after a withdrawn
// record: what the database has for it (`held`, merged persons' included)
// and is not in `p.now`; and its own stored keys not in `p.keys` (merges
// delete the absorbed persons' keys themselves).
void AddLosses(const BatchPerson& p, const std::set<Identifier>& held, PersonLosses& losses) {
  for (const Identifier& v : held) {
    if (std::binary_search(p.now.identifiers.begin(), p.now.identifiers.end(), v)) continue;
    losses.id_person.push_back(p.now.id);
    losses.id_type.push_back(v.type);
    losses.id_value.push_back(v.value);
  }
  for (std::int64_t k : p.stored_keys) {
    if (std::binary_search(p.keys.begin(), p.keys.end(), k)) continue;
    losses.key_key.push_back(k);
    losses.key_person.push_back(p.now.id);
  }
}

// The chunk's possible matches, as the chunk left the persons: each pair
// once by the persons its ids ended in, none within one person or with one
// removed.
void AddPossible(const BatchResolver& resolver, PossibleWrites& out) {
  std::map<std::pair<std::int64_t, std::int64_t>, double> best;
  for (const BatchResolver::Possible& p : resolver.possible()) {
    const std::int64_t a = resolver.FinalId(p.a), b = resolver.FinalId(p.b);
    if (a == b || resolver.Removed(a) || resolver.Removed(b)) continue;
    const auto key = std::minmax(a, b);
    auto [it, fresh] = best.emplace(key, p.score);
    if (!fresh) it->second = p.score;  // the later record's score, as the store keeps it
  }
  for (const auto& [pair, score] : best) out.Add(pair.first, pair.second, score);
}

// Stored persons merged away, by the person they ended in, with each one's
// reason and scores.
struct StoredMerges {
  std::map<std::int64_t, std::vector<std::int64_t>> absorbed_by;
  std::map<std::int64_t, std::vector<std::string>> reasons_by, scores_by;
};

// What the chunk did to each person's existence: creates (and the parts
// split off), persons emptied, merges; and what each survivor holds in the
// database once the stored persons merged into it moved there.
void AddPersonChanges(const BatchResolver& resolver, Writes& w, StoredMerges& merges,
                      std::map<std::int64_t, std::set<Identifier>>& in_database) {
  for (const BatchPerson& p : resolver.persons()) {
    if (p.provisional()) {
      w.created.persons.push_back(p.now.id);
      w.created.inserted.push_back(p.live);
      // The feed says which person it split off, as that person ended the
      // chunk: the merges are written before the creates, so a person the
      // chunk split and then merged away must not appear after its
      // 'merged' (one the chunk emptied gets no split row).
      if (p.split_from != 0 && !resolver.Removed(resolver.FinalId(p.split_from))) {
        w.created.split_from.push_back(resolver.FinalId(p.split_from));
        w.created.split_part.push_back(p.now.id);
      }
    }
    if (p.removed) {
      if (p.stored) w.emptied.push_back(p.now.id);
      continue;
    }
    const std::int64_t final_id = resolver.FinalId(p.now.id);
    if (p.stored) {
      in_database[final_id].insert(p.stored_identifiers.begin(), p.stored_identifiers.end());
    }
    if (p.live) continue;
    if (p.stored) {
      // A survivor is the oldest of its persons, so never one created here.
      merges.absorbed_by[final_id].push_back(p.now.id);
      merges.reasons_by[final_id].push_back(p.merge_reason);
      merges.scores_by[final_id].push_back(p.merge_scores);
    } else {
      w.created.merge_absorbed.push_back(p.now.id);
      w.created.merge_survivor.push_back(final_id);
      w.created.merge_reasons.push_back(p.merge_reason);
      w.created.merge_scores.push_back(p.merge_scores);
    }
  }
}

// What each live person gained or lost: records, traits, keys, and the
// identifiers the database does not hold yet (`in_database`).
void AddLiveWrites(const BatchResolver& resolver, const LockPlanner& planner,
                   std::map<std::int64_t, std::set<Identifier>>& in_database, Writes& w) {
  for (const BatchPerson& p : resolver.persons()) {
    if (!p.live) continue;
    const std::int64_t id = p.now.id;
    // Records new in the chunk, replaced, or moved to a part split off.
    RecordWrites& records = p.provisional() ? w.created.records : w.stored_records;
    for (const StoredRecord& r : p.records) {
      if (r.row == 0 || resolver.FinalId(r.person_id) != id) records.Add(id, r);
    }
    if (!(p.traits_changed || p.identifiers_changed)) {
      // Only new keys (a record saying known values in a new combination):
      // no change a consumer of the feed would see.
      if (p.keys_changed) w.keys_only.AddMatchKeys(id, p.keys);
      continue;
    }
    PersonWrites& pw = p.provisional() ? w.created : w.updated;
    if (!p.provisional()) pw.persons.push_back(id);
    pw.AddTraits(id, p.now.traits);
    if (p.keys_changed) pw.AddMatchKeys(id, p.keys);
    if (!p.identifiers_changed) continue;
    const std::set<Identifier>& held = in_database[id];
    std::vector<Identifier> missing;
    for (const Identifier& v : p.now.identifiers) {
      if (!held.contains(v)) missing.push_back(v);
    }
    pw.AddIdentifiers(id, ToInsert(missing, planner.model()));
    if (p.stored) AddLosses(p, held, w.losses);
  }
}

// The results' provisional ids as the ids the creates got (`real`).
void RenumberResults(const std::map<std::int64_t, std::int64_t>& real,
                     std::vector<UpsertResult*>& results) {
  auto Real = [&](std::int64_t id) {
    auto it = real.find(id);
    return it == real.end() ? id : it->second;
  };
  for (UpsertResult* r : results) {
    r->person_id = Real(r->person_id);
    for (std::int64_t& id : r->merged_person_ids) id = Real(id);
    for (std::int64_t& id : r->split_person_ids) id = Real(id);
    if (!r->explanation) continue;
    Explanation& e = *r->explanation;
    e.person_id = Real(e.person_id);
    for (std::int64_t& id : e.merged_person_ids) id = Real(id);
    for (CandidateScore& c : e.candidates) {
      c.person_id = Real(c.person_id);
      for (std::int64_t& id : c.never_with) id = Real(id);
    }
  }
}

}  // namespace

void WriteBatchAndCommit(Tx& tx, const BatchResolver& resolver, const LockPlanner& planner,
                         std::vector<UpsertResult*>& results) {
  Writes w;
  StoredMerges merges;
  std::map<std::int64_t, std::set<Identifier>> in_database;
  AddPersonChanges(resolver, w, merges, in_database);
  AddLiveWrites(resolver, planner, in_database, w);

  // The merges first: they move rows the database holds, and the identifiers
  // written after them exclude what they move (in_database). Then what
  // withdrawn records took away, before anything is inserted (a value that
  // moves to a part split off leaves first).
  for (const auto& [survivor, absorbed] : merges.absorbed_by) {
    MergeInto(tx, survivor, absorbed, merges.reasons_by[survivor], merges.scores_by[survivor]);
  }
  AddPossible(resolver, w.created.possible);
  for (const auto& [a, b] : resolver.judgements()) {
    w.created.never_a.push_back(a);  // a split always creates a part
    w.created.never_b.push_back(b);
  }
  DeferShrink(tx, w.losses);
  DeferDropRecords(tx, resolver.deleted_rows(), w.emptied);
  DeferUpdates(tx, w.updated);
  DeferAddMatchKeys(tx, w.keys_only);
  DeferRecordWrites(tx, w.stored_records);
  if (w.created.persons.empty()) {
    DeferPossibleMatches(tx, w.created.possible);
    tx.Commit();
    return;
  }
  RenumberResults(CreateAndCommit(tx, w.created), results);
}

}  // namespace idres::detail
