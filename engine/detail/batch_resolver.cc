#include "engine/detail/batch_resolver.h"

#include "engine/detail/merge_helpers.h"

namespace idres::detail {

BatchResolver::BatchResolver(const Matcher& matcher, const LockPlanner& planner,
                             std::map<std::int64_t, StoredPerson> stored, CandidateRead read,
                             std::size_t max_person_traits)
    : matcher_(matcher),
      planner_(planner),
      max_person_traits_(max_person_traits),
      counts_(std::move(read.counts)),
      generic_keys_(std::move(read.generic_keys)) {
  for (auto& [id, p] : stored) {
    BatchPerson b;
    b.stored = true;
    b.stored_identifiers = p.identifiers;
    b.now = std::move(p);
    persons_.push_back(std::move(b));
    by_id_[id] = persons_.size() - 1;
    Index(persons_.size() - 1);
  }
}

void BatchResolver::Index(std::size_t at, bool add) {
  BatchPerson& p = persons_[at];
  // Keys are computed once per change of a person's values; the writer
  // stores the same ones.
  if (add) p.keys = PersonMatchKeys(planner_, p.now.identifiers);
  for (const Identifier& id : p.now.identifiers) {
    if (add) {
      holders_[id].insert(at);
    } else {
      holders_[id].erase(at);
    }
  }
  for (std::int64_t key : p.keys) {
    if (add) {
      key_holders_[key].insert(at);
    } else {
      key_holders_[key].erase(at);
    }
  }
}

std::set<std::size_t> BatchResolver::Candidates(const PreparedRecord& record) const {
  std::set<std::size_t> found;
  for (const Identifier& id : record.plan.lookups) {
    auto it = holders_.find(id);
    if (it != holders_.end() && !matcher_.Generic(id, counts_)) {
      found.insert(it->second.begin(), it->second.end());
    }
  }
  for (std::int64_t key : record.plan.match_keys) {
    auto it = key_holders_.find(key);
    if (it != key_holders_.end() && !generic_keys_.contains(key)) {
      found.insert(it->second.begin(), it->second.end());
    }
  }
  return found;
}

void BatchResolver::Count(const std::vector<const StoredPerson*>& matched,
                          const std::vector<Identifier>& fresh) {
  // A value several merged persons held is now held by one.
  std::map<Identifier, std::size_t> holding;
  for (const StoredPerson* p : matched) {
    for (const Identifier& v : p->identifiers) ++holding[v];
  }
  for (const auto& [v, n] : holding) {
    auto it = counts_.find(v);
    if (it != counts_.end() && n > 1) it->second -= std::min(it->second, n - 1);
  }
  for (const Identifier& v : fresh) ++counts_[v];
}

BatchPerson& BatchResolver::At(std::int64_t id) { return persons_[by_id_.at(id)]; }

std::int64_t BatchResolver::FinalId(std::int64_t id) const {
  const BatchPerson* p = &persons_[by_id_.at(id)];
  while (!p->live) p = &persons_[by_id_.at(p->merged_into)];
  return p->now.id;
}

std::int64_t BatchResolver::Create(const std::vector<Identifier>& ids, const Traits& traits) {
  BatchPerson b;
  b.now.id = next_provisional_++;
  b.now.identifiers = ids;
  b.now.traits = traits;
  b.now.created_at = b.now.updated_at = kTouchedNow;
  b.traits_changed = b.identifiers_changed = true;
  persons_.push_back(std::move(b));
  by_id_[persons_.back().now.id] = persons_.size() - 1;
  Index(persons_.size() - 1);
  return persons_.back().now.id;
}

UpsertResult BatchResolver::Apply(const PreparedRecord& record) {
  std::vector<Candidate> candidates;
  for (std::size_t at : Candidates(record))
    candidates.push_back({persons_[at].now.id, persons_[at].now.identifiers});
  const MatchDecision d = matcher_.Decide(record.identifiers, candidates, counts_);

  UpsertResult r;
  r.rejected = record.rejected;
  r.generic = d.generic;
  const std::vector<Identifier> ids = OwnValues(record.identifiers, d, r.rejected);
  if (d.matches.empty()) {
    Count({}, ids);
    r.person_id = Create(ids, record.traits);
    r.outcome = Outcome::kCreated;
    return r;
  }
  r.person_id = d.matches.front();
  r.score = d.survivor_score();
  r.merged_person_ids.assign(d.matches.begin() + 1, d.matches.end());
  std::vector<const StoredPerson*> matched;
  for (std::int64_t id : d.matches) matched.push_back(&At(id).now);
  MergePlan plan = PlanMerge(matched, ids, record.traits);
  if (plan.unchanged) {
    r.outcome = Outcome::kUnchanged;
    return r;
  }
  if (auto over = TraitsOverCap(matched, plan, max_person_traits_)) {
    UpsertResult refused;
    refused.error = std::move(over);
    refused.rejected = std::move(r.rejected);
    return refused;
  }
  Count(matched, plan.fresh);
  const std::size_t survivor_at = by_id_.at(r.person_id);
  for (std::int64_t id : r.merged_person_ids) {
    BatchPerson& gone = At(id);
    gone.live = false;
    gone.merged_into = r.person_id;
    Index(by_id_.at(id), false);
  }
  const bool merging = !r.merged_person_ids.empty();
  BatchPerson& survivor = persons_[survivor_at];
  if (merging || !plan.fresh.empty()) {
    survivor.now.identifiers = std::move(plan.all);
    survivor.identifiers_changed = true;
    Index(survivor_at);
  }
  survivor.now.traits = std::move(plan.traits);
  survivor.now.updated_at = kTouchedNow;
  survivor.traits_changed = true;
  r.outcome = merging ? Outcome::kMerged : Outcome::kUpdated;
  return r;
}

}  // namespace idres::detail
