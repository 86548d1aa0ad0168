// Reconcile: repairs of the identity graph (idres reconcile). Finding groups
// is a read-only scan; applying one takes the locks an upsert of its values
// would (advisory keys, then persons by id), so it can run while the service
// is live. Its keys are taken in rounds as the group grows
// (Engine::Impl::GrowReconcileGroup), so unlike an upsert it can deadlock;
// the database breaks that and the attempt is retried.
#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "engine/detail/engine_impl.h"
#include "engine/detail/merge_helpers.h"
#include "engine/detail/store.h"
#include "engine/engine.h"
#include "matcher/weak_sets.h"
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

// Values that make two persons one on their own: strong or unique types.
bool Decisive(const MatchConfig& config, const Identifier& id) {
  const TypeRule* rule = config.Find(id.type);
  return rule != nullptr && (rule->unique || IsStrong(config, id.type));
}

class PersonSets {
 public:
  std::int64_t Root(std::int64_t p) {
    auto [it, added] = parent_.emplace(p, p);
    if (it->second == p) return p;
    return it->second = Root(it->second);
  }
  void Union(std::int64_t a, std::int64_t b) { parent_[Root(a)] = Root(b); }

 private:
  std::map<std::int64_t, std::int64_t> parent_;
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
  while (true) {
    const std::vector<std::int64_t> members(everyone.begin(), everyone.end());
    std::vector<Identifier> ids;
    for (const auto& [id, p] : detail::ReadPersons(tx, members)) {
      for (const Identifier& s : p.identifiers) ids.push_back(Renormalized(normalizer, s, region));
    }
    if (ids.empty()) return {};
    // The keys an upsert of these values would lock, then a new statement
    // finds everyone else who holds them by now.
    LockPlan plan;
    for (const Identifier& id : ids) {
      if (Decisive(options.match, id)) plan.lookups.push_back(id);
    }
    plan.match_keys = detail::PersonMatchKeys(planner, ids);
    std::vector<std::int64_t> keys;
    for (const Identifier& id : plan.lookups) keys.push_back(LockKey(id));
    keys.insert(keys.end(), plan.match_keys.begin(), plan.match_keys.end());
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    std::erase_if(keys, [&](std::int64_t k) { return locked.contains(k); });
    if (!keys.empty()) LockKeys(tx, keys);
    locked.insert(keys.begin(), keys.end());
    const std::vector<Candidate> candidates = detail::ReadCandidates(tx, plan);
    const std::set<Identifier> decisive(plan.lookups.begin(), plan.lookups.end());
    std::size_t grew = 0;
    for (const Candidate& c : candidates) {  // shares a strong or unique value
      const bool shares = std::any_of(c.identifiers.begin(), c.identifiers.end(),
                                      [&](const Identifier& id) { return decisive.contains(id); });
      if (shares) grew += everyone.insert(c.person_id).second;
    }
    for (std::int64_t id : matcher.Decide(ids, candidates).matches) {
      grew += everyone.insert(id).second;
    }
    if (grew == 0) return everyone;
  }
}

std::vector<ReconcileGroup> Engine::FindReconcileGroups(std::string_view region) {
  std::vector<std::pair<std::int64_t, Identifier>> rows;
  impl_->RunTx([&](detail::Tx& tx) { rows = detail::ReadAllIdentifiers(tx); });

  const MatchConfig& config = impl_->options.match;
  PersonSets sets;
  std::map<std::int64_t, std::vector<std::string>> reasons;  // by person, merged later
  std::map<Identifier, std::int64_t> first_holder;
  std::map<std::int64_t, std::int64_t> first_key_holder;
  std::map<std::int64_t, std::vector<Identifier>> normalized;
  for (const auto& [person, stored] : rows) {
    const Identifier id = Renormalized(impl_->normalizer, stored, region);
    sets.Root(person);
    if (id != stored) {
      reasons[person].push_back("stored " + stored.type + ":" + stored.value + " is " + id.value +
                                " today");
    }
    normalized[person].push_back(id);
    if (!Decisive(config, id)) continue;
    auto [it, added] = first_holder.emplace(id, person);
    if (!added && sets.Root(it->second) != sets.Root(person)) {
      sets.Union(it->second, person);
      reasons[person].push_back("shares " + id.type + ":" + id.value);
    }
  }
  for (const auto& [person, ids] : normalized) {
    for (std::int64_t key : detail::PersonMatchKeys(impl_->planner, ids)) {
      auto [it, added] = first_key_holder.emplace(key, person);
      if (!added && sets.Root(it->second) != sets.Root(person)) {
        sets.Union(it->second, person);
        reasons[person].push_back("weak identifiers reach the threshold together");
      }
    }
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
    std::vector<Identifier> stale, fresh;
    for (const Identifier& s : stored) {
      if (!today.contains(s)) stale.push_back(s);
    }
    for (const Identifier& t : today) {
      if (!stored.contains(t)) fresh.push_back(t);
    }
    if (result.merged_person_ids.empty() && stale.empty() && fresh.empty()) return;
    const Traits traits = detail::MergedTraits(matched, {});
    if (!result.merged_person_ids.empty()) {
      detail::MergeInto(tx, result.survivor, result.merged_person_ids, "reconcile");
    }
    detail::DropStaleValues(tx, result.survivor, stale);
    const std::vector<Identifier> all_today(today.begin(), today.end());
    detail::PersonWrites w;
    w.persons.push_back(result.survivor);
    w.AddTraits(result.survivor, traits);
    w.AddIdentifiers(result.survivor, detail::ToInsert(fresh, impl_->options.match));
    w.AddMatchKeys(result.survivor, detail::PersonMatchKeys(impl_->planner, all_today));
    detail::DeferUpdates(tx, w);
    result.identifiers_rewritten = stale.size();
  });
  return result;
}

}  // namespace idres
