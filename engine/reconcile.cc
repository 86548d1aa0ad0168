// Reconcile: repairs of the identity graph (idres reconcile). Finding groups
// is a read-only scan; applying one takes the locks an upsert of its values
// would (advisory keys, then persons by id), so it can run while the service
// is live. Its keys are taken in rounds as the group grows
// (Engine::Impl::GrowReconcileGroup), so unlike an upsert it can deadlock;
// the database breaks that and the attempt is retried.
#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>
#include <optional>
#include <set>

#include "engine/detail/engine_impl.h"
#include "engine/detail/merge_helpers.h"
#include "engine/detail/variants.h"
#include "engine/detail/store.h"
#include "engine/engine.h"
#include "normalize/lock_key.h"

namespace idres {
namespace {

// Today's form of a stored value; the stored one when it no longer
// normalizes (it stays as it is rather than being dropped).
Identifier Renormalized(const Normalizer& n, const Identifier& stored, std::string_view region) {
  NormalizeResult r = n.Normalize(stored.type, stored.value, region);
  if (auto* id = std::get_if<Identifier>(&r)) return std::move(*id);
  return stored;
}

// Today's form of a record's stored values, sorted and unique.
std::vector<Identifier> RenormalizedAll(const Normalizer& n, const std::vector<Identifier>& stored,
                                        std::string_view region) {
  std::vector<Identifier> out;
  for (const Identifier& s : stored) out.push_back(Renormalized(n, s, region));
  detail::Dedup(out);
  return out;
}

// The values of each of `p`'s records; its values as one record for a
// person without any (written by hand past idres).
std::vector<std::vector<Identifier>> RecordsOf(const detail::StoredPerson& p) {
  if (p.record_values.empty() && !p.identifiers.empty()) return {p.identifiers};
  return p.record_values;
}

// Values looked up one by one: strong or exclusive types.
bool LookedUp(const Model& model, const Identifier& id) {
  const TypeModel* t = model.Find(id.type);
  return t != nullptr && (t->strong || t->exclusive);
}

// How many persons other than the one holding `ids` hold each of them.
ValueCounts OthersHolding(const std::vector<Identifier>& ids,
                          const std::map<Identifier, std::size_t>& holders) {
  ValueCounts counts;
  for (const Identifier& v : ids) {
    auto it = holders.find(v);
    counts[v] = it == holders.end() || it->second == 0 ? 0 : it->second - 1;
  }
  return counts;
}

// The reason a reconcile merge keeps (merges.reason): the group's reasons,
// bounded, so a store never keeps an unbounded text per merge.
std::string MergeReason(const ReconcileGroup& group) {
  constexpr std::size_t kMaxReason = 1000;
  std::string out = "reconcile";
  const char* separator = ": ";
  for (const std::string& r : group.reasons) {
    if (out.size() + r.size() + 2 > kMaxReason) return out + separator + "...";
    out += separator + r;
    separator = "; ";
  }
  return out;
}

// Disjoint sets of persons, each knowing its members.
class PersonSets {
 public:
  std::int64_t Root(std::int64_t p) {
    auto [it, added] = parent_.emplace(p, p);
    if (added) members_[p] = {p};
    if (it->second == p) return p;
    return it->second = Root(it->second);
  }
  const std::vector<std::int64_t>& Members(std::int64_t p) { return members_.at(Root(p)); }
  void Union(std::int64_t a, std::int64_t b) {
    const std::int64_t ra = Root(a), rb = Root(b);
    if (ra == rb) return;
    auto& into = members_[rb];
    auto& from = members_[ra];
    into.insert(into.end(), from.begin(), from.end());
    members_.erase(ra);
    parent_[ra] = rb;
  }

 private:
  std::map<std::int64_t, std::int64_t> parent_;
  std::map<std::int64_t, std::vector<std::int64_t>> members_;  // by root
};

}  // namespace

// The persons a group must take in, all keys locked: `live` and everyone
// its values reach. A person pulled in by a weak match brings values of its
// own (a phone that is someone else's once re-normalized), whose keys must
// be locked and whose holders must be merged too, or the rewrite of that
// value would collide with its holder's on every run. Round by round, each
// locking the keys (sorted) that the previous rounds did not, until no one
// new is reached; the set only grows and the store is finite. Later rounds
// may lock keys below ones held, so a deadlock with an upsert is possible:
// the database breaks it and the attempt is retried. Empty when the group's
// persons hold nothing.
std::set<std::int64_t> Engine::Impl::GrowReconcileGroup(detail::Tx& tx,
                                                        const std::set<std::int64_t>& live,
                                                        std::string_view region) {
  std::set<std::int64_t> everyone = live;
  std::set<std::int64_t> locked;
  const auto usable_key = [](std::int64_t) { return true; };
  while (true) {
    const std::vector<std::int64_t> members(everyone.begin(), everyone.end());
    std::vector<Identifier> ids;
    detail::Variants group;
    for (const auto& [id, p] : detail::ReadPersons(tx, members)) {
      for (const Identifier& s : p.identifiers) ids.push_back(Renormalized(normalizer, s, region));
      for (const auto& r : RecordsOf(p)) group.Add(planner, RenormalizedAll(normalizer, r, region));
    }
    if (ids.empty()) return {};
    // The keys an upsert of these values would lock, then a new statement
    // finds everyone else who holds them by now.
    detail::Dedup(ids);
    std::vector<std::int64_t> keys, match_keys = group.Keys();
    for (const Identifier& id : ids) {
      if (LookedUp(options.model, id)) keys.push_back(LockKey(id));
    }
    keys.insert(keys.end(), match_keys.begin(), match_keys.end());
    detail::Dedup(keys);
    std::erase_if(keys, [&](std::int64_t k) { return locked.contains(k); });
    if (!keys.empty()) LockKeys(tx, keys);
    locked.insert(keys.begin(), keys.end());
    const detail::CandidateRead read = detail::ReadCandidates(tx, ids, match_keys, options.model);
    const auto usable_value = [&](const Identifier& v) { return !matcher.Generic(v, read.counts); };
    std::size_t grew = 0;
    for (auto& [id, p] : detail::ReadPersons(tx, read.persons)) {
      // Shares an exclusive value: must join.
      const bool shares =
          std::any_of(p.identifiers.begin(), p.identifiers.end(), [&](const Identifier& v) {
            return options.model.Exclusive(v.type) && std::binary_search(ids.begin(), ids.end(), v);
          });
      // Strong evidence against anyone of the group (another passport, a
      // birth date of someone else) keeps it out, as it keeps an upsert from
      // merging two persons.
      const bool against = matcher.Conflict(ids, p.identifiers, ComparisonKind::kDocument) ||
                           matcher.Conflict(ids, p.identifiers, ComparisonKind::kBirthDate);
      if (against && !shares) continue;
      const detail::Variants theirs = detail::VariantsOf(planner, p);
      bool matches = shares;
      for (const detail::Variant& mine : group.list()) {
        if (matches) break;
        Candidate c{id, theirs.MetBy(mine, options.model, usable_key, usable_value), p.identifiers};
        matches = !c.records.empty() && matcher.Matches(matcher.Compare(mine.values, c, read.counts));
      }
      if (matches) grew += everyone.insert(id).second;
    }
    if (grew == 0) return everyone;
  }
}

std::vector<ReconcileGroup> Engine::FindReconcileGroups(std::string_view region) {
  std::vector<std::pair<std::int64_t, Identifier>> rows;
  std::map<std::int64_t, std::vector<std::vector<Identifier>>> records;
  std::set<std::pair<std::int64_t, std::int64_t>> never;  // a steward's judgements, both ways
  impl_->RunTx([&](detail::Tx& tx) {
    rows = detail::ReadAllIdentifiers(tx);
    records = detail::ReadAllRecordValues(tx);
    never.clear();
    for (const auto& row : tx.Exec(detail::kReadAllNever)) {
      never.insert({row[0].as<std::int64_t>(), row[1].as<std::int64_t>()});
    }
  });

  const Model& model = impl_->options.model;
  PersonSets sets;
  std::map<std::int64_t, std::vector<std::string>> reasons;  // by person, merged later
  std::map<std::int64_t, std::vector<Identifier>> normalized;
  for (const auto& [person, stored] : rows) {
    const Identifier id = Renormalized(impl_->normalizer, stored, region);
    sets.Root(person);
    if (id != stored) {
      reasons[person].push_back("stored " + stored.type + ":" + stored.value + " is " + id.value +
                                " today");
    }
    normalized[person].push_back(id);
  }
  // Who holds each value and each blocking key: the pairs to compare are
  // the persons an upsert of one would find as candidates of the other.
  std::map<Identifier, std::size_t> holders;
  std::map<Identifier, std::vector<std::int64_t>> by_value;
  std::map<std::int64_t, std::vector<std::int64_t>> by_key;
  std::map<std::int64_t, detail::Variants> variants;
  for (auto& [person, ids] : normalized) {
    detail::Dedup(ids);
    for (const Identifier& id : ids) {
      ++holders[id];
      if (LookedUp(model, id)) by_value[id].push_back(person);
    }
    detail::Variants& v = variants[person];
    if (records[person].empty()) records[person] = {ids};  // a person without records
    for (const auto& r : records[person]) {
      v.Add(impl_->planner, RenormalizedAll(impl_->normalizer, r, region));
    }
    for (std::int64_t key : v.Keys()) by_key[key].push_back(person);
  }
  std::set<std::pair<std::int64_t, std::int64_t>> pairs;
  const auto AddPairs = [&](const std::vector<std::int64_t>& persons, std::size_t cap) {
    if (persons.size() > cap) return;  // generic: brings no candidates
    for (std::size_t i = 0; i < persons.size(); ++i) {
      for (std::size_t j = i + 1; j < persons.size(); ++j) pairs.insert({persons[i], persons[j]});
    }
  };
  for (const auto& [id, persons] : by_value) {
    if (model.Exclusive(id.type)) {  // one person only: they must be one
      for (std::size_t i = 1; i < persons.size(); ++i) {
        if (sets.Root(persons[0]) == sets.Root(persons[i])) continue;
        sets.Union(persons[0], persons[i]);
        reasons[persons[i]].push_back("shares " + id.type + ":" + id.value);
      }
      continue;
    }
    AddPairs(persons, model.Find(id.type)->generic_cap);
  }
  for (const auto& [key, persons] : by_key) AddPairs(persons, model.key_cap);
  // Whether some person of a's set and some of b's hold strong evidence
  // against each other: an upsert never merges those, and neither does a
  // chain of matches (a matches b, b matches c, a and c conflict).
  const auto Conflicting = [&](std::int64_t a, std::int64_t b) {
    for (std::int64_t x : sets.Members(a)) {
      for (std::int64_t y : sets.Members(b)) {
        if (never.contains({x, y})) return true;
        if (impl_->matcher.Conflict(normalized[x], normalized[y], ComparisonKind::kDocument) ||
            impl_->matcher.Conflict(normalized[x], normalized[y], ComparisonKind::kBirthDate)) {
          return true;
        }
      }
    }
    return false;
  };
  // Person a against b as an upsert of each of a's records would compare
  // them: the best of a's records against b's records it meets.
  const auto Best = [&](std::int64_t a, std::int64_t b) {
    std::optional<Score> best;
    for (const detail::Variant& mine : variants[a].list()) {
      const ValueCounts counts = OthersHolding(mine.values, holders);
      Candidate c{b,
                  variants[b].MetBy(
                      mine, model, [](std::int64_t) { return true; },
                      [&](const Identifier& v) { return !impl_->matcher.Generic(v, counts); }),
                  normalized[b]};
      if (c.records.empty()) continue;
      Score s = impl_->matcher.Compare(mine.values, c, counts);
      const auto rank = [&](const Score& x) {
        return std::make_pair(impl_->matcher.Matches(x), x.total);
      };
      if (!best || rank(s) > rank(*best)) best = std::move(s);
    }
    return best;
  };
  for (const auto& [a, b] : pairs) {
    if (sets.Root(a) == sets.Root(b)) continue;
    const std::optional<Score> found = Best(a, b);
    if (!found || !impl_->matcher.Matches(*found)) continue;
    const Score& score = *found;
    if (Conflicting(a, b)) continue;
    sets.Union(a, b);
    char total[32];
    std::snprintf(total, sizeof total, "%.1f", score.total);
    reasons[b].push_back("matches person " + std::to_string(a) + " under the model (score " +
                         total + ")");
  }
  std::map<std::int64_t, ReconcileGroup> groups;  // by root
  for (const auto& [person, ids] : normalized) {
    ReconcileGroup& g = groups[sets.Root(person)];
    g.person_ids.push_back(person);
    auto& r = reasons[person];
    g.reasons.insert(g.reasons.end(), r.begin(), r.end());
  }
  std::vector<ReconcileGroup> out;
  for (auto& [root, g] : groups) {
    if (g.person_ids.size() < 2 && g.reasons.empty()) continue;
    g.region = std::string(region);
    out.push_back(std::move(g));
  }
  return out;
}

ReconcileResult Engine::Reconcile(const ReconcileGroup& group) {
  ReconcileResult result;
  impl_->RunTx([&](detail::Tx& tx) {
    result = ReconcileResult{};
    std::set<std::int64_t> live;
    for (std::int64_t id : group.person_ids)
      live.insert(detail::ResolveMerged(tx, id).value_or(id));
    const std::set<std::int64_t> everyone = impl_->GrowReconcileGroup(tx, live, group.region);
    if (everyone.empty()) return;
    const std::vector<std::int64_t> all(everyone.begin(), everyone.end());
    if (!impl_->seams.skip_locks && detail::LockPersons(tx, all).size() != all.size()) {
      throw detail::VanishedPersonError();
    }
    const auto persons = detail::ReadPersons(tx, all);  // the re-read
    if (persons.size() != all.size()) throw detail::VanishedPersonError();
    // Persons a steward keeps apart are never merged (the group is left as
    // it is; FindReconcileGroups does not make such groups).
    for (const auto& [id, p] : persons) {
      for (std::int64_t other : p.never) {
        if (!everyone.contains(other)) continue;
        result.survivor = all.front();
        return;
      }
    }

    result.survivor = all.front();
    result.merged_person_ids.assign(all.begin() + 1, all.end());
    std::vector<const detail::StoredPerson*> matched;
    std::set<Identifier> stored, today;
    for (const auto& [id, p] : persons) {
      matched.push_back(&p);
      for (const Identifier& s : p.identifiers) {
        stored.insert(s);
        today.insert(Renormalized(impl_->normalizer, s, group.region));
      }
    }
    std::vector<Identifier> stale, stale_today, fresh;
    for (const Identifier& s : stored) {
      if (today.contains(s)) continue;
      stale.push_back(s);
      stale_today.push_back(Renormalized(impl_->normalizer, s, group.region));
    }
    for (const Identifier& t : today) {
      if (!stored.contains(t)) fresh.push_back(t);
    }
    if (result.merged_person_ids.empty() && stale.empty() && fresh.empty()) return;
    const Traits traits = detail::MergedTraits(matched, {});
    if (!result.merged_person_ids.empty()) {
      detail::MergeInto(
          tx, result.survivor, result.merged_person_ids,
          std::vector<std::string>(result.merged_person_ids.size(), MergeReason(group)));
    }
    detail::DropStaleValues(tx, result.survivor, stale);
    // The records move with the merge (before this, in the same message).
    detail::DeferRenormalizeRecords(tx, result.survivor, stale, stale_today);
    detail::Variants variants;  // every record of the group, as it reads today
    for (const auto& [id, p] : persons) {
      for (const auto& r : RecordsOf(p)) {
        variants.Add(impl_->planner, RenormalizedAll(impl_->normalizer, r, group.region));
      }
    }
    detail::PersonWrites w;
    w.persons.push_back(result.survivor);
    w.AddTraits(result.survivor, traits);
    w.AddIdentifiers(result.survivor, detail::ToInsert(fresh, impl_->options.model));
    w.AddMatchKeys(result.survivor, variants.Keys());
    detail::DeferUpdates(tx, w);
    result.identifiers_rewritten = stale.size();
  });
  return result;
}

}  // namespace idres
