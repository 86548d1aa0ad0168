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
#include "engine/detail/store.h"
#include "engine/detail/variants.h"
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

// The values of a group's persons whose normal form changed: `stale` as
// stored, `stale_today` the same values as they normalize today, and
// `fresh` today's forms no person of the group stores yet.
struct Rewrites {
  std::vector<Identifier> stale, stale_today, fresh;
};

Rewrites RewritesOf(const Normalizer& normalizer,
                    const std::map<std::int64_t, detail::StoredPerson>& persons,
                    std::string_view region) {
  std::set<Identifier> stored, today;
  for (const auto& [id, p] : persons) {
    for (const Identifier& s : p.identifiers) {
      stored.insert(s);
      today.insert(Renormalized(normalizer, s, region));
    }
  }
  Rewrites out;
  for (const Identifier& s : stored) {
    if (today.contains(s)) continue;
    out.stale.push_back(s);
    out.stale_today.push_back(Renormalized(normalizer, s, region));
  }
  for (const Identifier& t : today) {
    if (!stored.contains(t)) out.fresh.push_back(t);
  }
  return out;
}

// Every record of a group's persons, as it reads today.
detail::Variants RecordsToday(const Normalizer& normalizer, const LockPlanner& planner,
                              const std::map<std::int64_t, detail::StoredPerson>& persons,
                              std::string_view region) {
  detail::Variants variants;
  for (const auto& [id, p] : persons) {
    for (const auto& r : RecordsOf(p))
      variants.Add(planner, RenormalizedAll(normalizer, r, region));
  }
  return variants;
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

// The scan behind FindReconcileGroups: every person's values and records as
// they normalize today, who holds each value and blocking key, and the sets
// of persons found to be one.
class GroupFinder {
 public:
  GroupFinder(const Normalizer& normalizer, const LockPlanner& planner, const Matcher& matcher,
              const Model& model, std::string_view region)
      : normalizer_(normalizer),
        planner_(planner),
        matcher_(matcher),
        model_(model),
        region_(region) {}

  // One snapshot of the store: values, records, a steward's judgements.
  void Read(detail::Tx& tx) {
    rows_ = detail::ReadAllIdentifiers(tx);
    records_ = detail::ReadAllRecordValues(tx);
    never_.clear();
    for (const auto& row : tx.Exec(detail::kReadAllNever)) {
      never_.insert({row[0].as<std::int64_t>(), row[1].as<std::int64_t>()});
    }
  }

  // Renormalizes every value (a changed one is a reason to rewrite its
  // person) and indexes who holds each value and each blocking key.
  void Index() {
    for (const auto& [person, stored] : rows_) {
      const Identifier id = Renormalized(normalizer_, stored, region_);
      sets_.Root(person);
      if (id != stored) {
        reasons_[person].push_back("stored " + stored.type + ":" + stored.value + " is " +
                                   id.value + " today");
      }
      normalized_[person].push_back(id);
    }
    for (auto& [person, ids] : normalized_) {
      detail::Dedup(ids);
      for (const Identifier& id : ids) {
        ++holders_[id];
        if (LookedUp(model_, id)) by_value_[id].push_back(person);
      }
      detail::Variants& v = variants_[person];
      if (records_[person].empty()) records_[person] = {ids};  // a person without records
      for (const auto& r : records_[person]) {
        v.Add(planner_, RenormalizedAll(normalizer_, r, region_));
      }
      for (std::int64_t key : v.Keys()) by_key_[key].push_back(person);
    }
  }

  // The pairs to compare: the persons an upsert of one would find as
  // candidates of the other. Holders of one exclusive value are joined at
  // once: they must be one.
  std::set<std::pair<std::int64_t, std::int64_t>> CandidatePairs() {
    std::set<std::pair<std::int64_t, std::int64_t>> pairs;
    const auto add = [&](const std::vector<std::int64_t>& persons, std::size_t cap) {
      if (persons.size() > cap) return;  // generic: brings no candidates
      for (std::size_t i = 0; i < persons.size(); ++i) {
        for (std::size_t j = i + 1; j < persons.size(); ++j) pairs.insert({persons[i], persons[j]});
      }
    };
    for (const auto& [id, persons] : by_value_) {
      if (!model_.Exclusive(id.type)) {
        add(persons, model_.Find(id.type)->generic_cap);
        continue;
      }
      for (std::size_t i = 1; i < persons.size(); ++i) {
        if (sets_.Root(persons[0]) == sets_.Root(persons[i])) continue;
        sets_.Union(persons[0], persons[i]);
        reasons_[persons[i]].push_back("shares " + id.type + ":" + id.value);
      }
    }
    for (const auto& [key, persons] : by_key_) add(persons, model_.key_cap);
    return pairs;
  }

  // Joins a's set and b's when a matches b and nothing holds them apart.
  void Compare(std::int64_t a, std::int64_t b) {
    if (sets_.Root(a) == sets_.Root(b)) return;
    const std::optional<Score> found = Best(a, b);
    if (!found || !matcher_.Matches(*found) || Conflicting(a, b)) return;
    sets_.Union(a, b);
    char total[32];
    std::snprintf(total, sizeof total, "%.1f", found->total);
    reasons_[b].push_back("matches person " + std::to_string(a) + " under the model (score " +
                          total + ")");
  }

  // The sets of more than one person, and the persons whose values changed.
  std::vector<ReconcileGroup> Groups() {
    std::map<std::int64_t, ReconcileGroup> groups;  // by root
    for (const auto& [person, ids] : normalized_) {
      ReconcileGroup& g = groups[sets_.Root(person)];
      g.person_ids.push_back(person);
      auto& r = reasons_[person];
      g.reasons.insert(g.reasons.end(), r.begin(), r.end());
    }
    std::vector<ReconcileGroup> out;
    for (auto& [root, g] : groups) {
      if (g.person_ids.size() < 2 && g.reasons.empty()) continue;
      g.region = std::string(region_);
      out.push_back(std::move(g));
    }
    return out;
  }

 private:
  // Whether some person of a's set and some of b's hold strong evidence
  // against each other: an upsert never merges those, and neither does a
  // chain of matches (a matches b, b matches c, a and c conflict).
  bool Conflicting(std::int64_t a, std::int64_t b) {
    for (std::int64_t x : sets_.Members(a)) {
      for (std::int64_t y : sets_.Members(b)) {
        if (never_.contains({x, y})) return true;
        if (matcher_.Conflict(normalized_[x], normalized_[y], ComparisonKind::kDocument) ||
            matcher_.Conflict(normalized_[x], normalized_[y], ComparisonKind::kBirthDate)) {
          return true;
        }
      }
    }
    return false;
  }

  // Person a against b as an upsert of each of a's records would compare
  // them: the best of a's records against b's records it meets.
  std::optional<Score> Best(std::int64_t a, std::int64_t b) {
    std::optional<Score> best;
    const auto rank = [&](const Score& x) { return std::make_pair(matcher_.Matches(x), x.total); };
    for (const detail::Variant& mine : variants_[a].list()) {
      const ValueCounts counts = OthersHolding(mine.values, holders_);
      Candidate c{b,
                  variants_[b].MetBy(
                      mine, model_, [](std::int64_t) { return true; },
                      [&](const Identifier& v) { return !matcher_.Generic(v, counts); }),
                  normalized_[b]};
      if (c.records.empty()) continue;
      Score s = matcher_.Compare(mine.values, c, counts);
      if (!best || rank(s) > rank(*best)) best = std::move(s);
    }
    return best;
  }

  const Normalizer& normalizer_;
  const LockPlanner& planner_;
  const Matcher& matcher_;
  const Model& model_;
  const std::string_view region_;
  std::vector<std::pair<std::int64_t, Identifier>> rows_;
  std::map<std::int64_t, std::vector<std::vector<Identifier>>> records_;
  std::set<std::pair<std::int64_t, std::int64_t>> never_;  // a steward's judgements, both ways
  PersonSets sets_;
  std::map<std::int64_t, std::vector<std::string>> reasons_;  // by person, merged later
  std::map<std::int64_t, std::vector<Identifier>> normalized_;
  std::map<Identifier, std::size_t> holders_;
  std::map<Identifier, std::vector<std::int64_t>> by_value_;
  std::map<std::int64_t, std::vector<std::int64_t>> by_key_;
  std::map<std::int64_t, detail::Variants> variants_;
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
// the database breaks it and the attempt is retried. A person a steward
// keeps apart from one already in is not taken in. Empty when the group's
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
      // A steward keeps it apart from someone of the group: never taken in
      // (judgements are stored both ways).
      if (std::any_of(p.never.begin(), p.never.end(),
                      [&](std::int64_t other) { return everyone.contains(other); })) {
        continue;
      }
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
        matches =
            !c.records.empty() && matcher.Matches(matcher.Compare(mine.values, c, read.counts));
      }
      if (matches) grew += everyone.insert(id).second;
    }
    if (grew == 0) return everyone;
  }
}

std::vector<ReconcileGroup> Engine::FindReconcileGroups(std::string_view region) {
  GroupFinder finder(impl_->normalizer, impl_->planner, impl_->matcher, impl_->options.model,
                     region);
  impl_->RunTx([&](detail::Tx& tx) { finder.Read(tx); });
  finder.Index();
  for (const auto& [a, b] : finder.CandidatePairs()) finder.Compare(a, b);
  return finder.Groups();
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
    const auto [stale, stale_today, fresh] = RewritesOf(impl_->normalizer, persons, group.region);
    if (result.merged_person_ids.empty() && stale.empty() && fresh.empty()) return;
    std::vector<const detail::StoredPerson*> matched;
    for (const auto& [id, p] : persons) matched.push_back(&p);
    const Traits traits = detail::MergedTraits(matched, {});
    if (!result.merged_person_ids.empty()) {
      detail::MergeInto(
          tx, result.survivor, result.merged_person_ids,
          std::vector<std::string>(result.merged_person_ids.size(), MergeReason(group)));
    }
    detail::DropStaleValues(tx, result.survivor, stale);
    // The records move with the merge (before this, in the same message).
    detail::DeferRenormalizeRecords(tx, result.survivor, stale, stale_today);
    detail::PersonWrites w;
    w.persons.push_back(result.survivor);
    w.AddTraits(result.survivor, traits);
    w.AddIdentifiers(result.survivor, detail::ToInsert(fresh, impl_->options.model));
    w.AddMatchKeys(result.survivor,
                   RecordsToday(impl_->normalizer, impl_->planner, persons, group.region).Keys());
    detail::DeferUpdates(tx, w);
    result.identifiers_rewritten = stale.size();
  });
  return result;
}

}  // namespace idres
