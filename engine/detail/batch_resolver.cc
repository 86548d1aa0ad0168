#include "engine/detail/batch_resolver.h"

#include <algorithm>
#include <iterator>

#include "engine/detail/explain_decision.h"
#include "engine/detail/merge_helpers.h"
#include "engine/detail/record_parts.h"
#include "engine/detail/resolve.h"

namespace idres::detail {
namespace {

void AddHolder(Holders& holders, std::size_t at) {
  const auto it = std::lower_bound(holders.begin(), holders.end(), at);
  if (it == holders.end() || *it != at) holders.insert(it, at);
}

void RemoveHolder(Holders& holders, std::size_t at) {
  const auto it = std::lower_bound(holders.begin(), holders.end(), at);
  if (it != holders.end() && *it == at) holders.erase(it);
}

// The blocking keys of `ids` when they are all of `record`'s values: those
// its plan made (a record's keys are not made twice); else null.
const std::vector<std::int64_t>* PlannedKeys(const PreparedRecord& record,
                                             const std::vector<Identifier>& ids) {
  return ids == record.identifiers ? &record.plan.match_keys : nullptr;
}

// The values of a stored person's one variant (VariantsOf's), or null when
// it has none or several.
const std::vector<Identifier>* OneVariant(const StoredPerson& p) {
  if (p.record_values.empty()) return p.identifiers.empty() ? nullptr : &p.identifiers;
  return p.record_values.size() == 1 ? &p.record_values.front() : nullptr;
}

// Which of the chunk's blocking keys each of the `persons` read holds, as
// the candidate read found them (`holders`: its keys that are not generic):
// (person, key) pairs, sorted.
std::vector<std::pair<std::int64_t, std::int64_t>> KeysHeld(
    const std::map<std::int64_t, StoredPerson>& persons, const KeyHolders& holders) {
  std::vector<std::int64_t> ids;  // ascending
  ids.reserve(persons.size());
  for (const auto& [id, p] : persons) ids.push_back(id);
  std::vector<std::pair<std::int64_t, std::int64_t>> held;
  for (const auto& [key, persons_of_key] : holders) {
    for (std::int64_t person : persons_of_key) {
      if (std::binary_search(ids.begin(), ids.end(), person)) held.emplace_back(person, key);
    }
  }
  std::sort(held.begin(), held.end());
  return held;
}

}  // namespace

BatchResolver::BatchResolver(const Matcher& matcher, const LockPlanner& planner,
                             std::map<std::int64_t, StoredPerson> stored, CandidateRead read,
                             std::size_t max_person_traits,
                             std::map<std::int64_t, std::vector<StoredRecord>> records,
                             NamedRecords named)
    : matcher_(matcher),
      planner_(planner),
      max_person_traits_(max_person_traits),
      counts_(std::move(read.counts)),
      generic_keys_(std::move(read.generic_keys)),
      named_(std::move(named)) {
  // Making every read person's blocking keys took a quarter of idres's CPU
  // late in an import, and most read persons are only compared
  // (BENCHMARKS.md, "Read persons' keys from the read"). A record of the chunk
  // meets a person of one variant through the chunk's keys it holds, which
  // the read found; the rest are made when the chunk changes the person.
  // A chunk that withdraws records compares variants with each other
  // (Split), so it makes them all.
  const std::vector<std::pair<std::int64_t, std::int64_t>> held =
      named_.empty() ? KeysHeld(stored, read.key_holders)
                     : std::vector<std::pair<std::int64_t, std::int64_t>>{};
  auto next_held = held.begin();
  for (auto& [id, p] : stored) {
    BatchPerson b;
    b.stored = true;
    b.stored_identifiers = p.identifiers;
    if (auto it = records.find(id); it != records.end()) b.records = std::move(it->second);
    std::vector<std::int64_t> chunk_keys;  // ascending
    for (; next_held != held.end() && next_held->first == id; ++next_held) {
      chunk_keys.push_back(next_held->second);
    }
    const std::vector<Identifier>* one = OneVariant(p);
    if (named_.empty() && one != nullptr) {
      b.variants.Add(planner_, *one, &chunk_keys);
      b.keys_partial = true;
    } else {
      b.variants = VariantsOf(planner_, p);
      b.stored_keys = b.variants.Keys();
    }
    b.now = std::move(p);
    persons_.push_back(std::move(b));
    by_id_[id] = persons_.size() - 1;
    Index(persons_.size() - 1);
  }
}

void BatchResolver::Index(std::size_t at, bool add) {
  BatchPerson& p = persons_[at];
  // Keys are computed once per change of a person's records; the writer
  // stores the same ones.
  if (add) p.keys = p.variants.Keys();
  for (const Identifier& id : p.now.identifiers) {
    if (add) {
      AddHolder(holders_[id], at);
    } else {
      RemoveHolder(holders_[id], at);
    }
  }
  for (std::int64_t key : p.keys) {
    if (add) {
      AddHolder(key_holders_[key], at);
    } else {
      RemoveHolder(key_holders_[key], at);
    }
  }
}

std::set<std::size_t> BatchResolver::Candidates(
    const PreparedRecord& record, std::span<const std::int64_t> key_candidates) const {
  std::set<std::size_t> found;
  for (const Identifier& id : record.plan.lookups) {
    auto it = holders_.find(id);
    if (it != holders_.end() && !matcher_.Generic(id, counts_)) {
      found.insert(it->second.begin(), it->second.end());
    }
  }
  // Through its blocking keys: the stored persons the engine chose and read
  // for it, as long as the chunk left their keys alone ...
  for (std::int64_t id : key_candidates) {
    const auto it = by_id_.find(id);
    if (it == by_id_.end()) continue;
    const BatchPerson& p = persons_[it->second];
    if (p.live && !p.keys_changed) found.insert(it->second);
  }
  // ... and the persons the chunk made or changed that hold one now.
  for (std::int64_t key : record.plan.match_keys) {
    auto it = key_holders_.find(key);
    if (it == key_holders_.end() || !KeyUsable(key)) continue;
    for (std::size_t at : it->second) {
      if (!persons_[at].stored || persons_[at].keys_changed) found.insert(at);
    }
  }
  return found;
}

bool BatchResolver::KeyUsable(std::int64_t key) const {
  if (generic_keys_.contains(key)) return false;
  const auto it = key_holders_.find(key);
  return it == key_holders_.end() || it->second.size() <= matcher_.model().key_cap;
}

Candidate BatchResolver::CandidateFor(std::size_t at, const PreparedRecord& record) const {
  const BatchPerson& p = persons_[at];
  Candidate c;
  c.person_id = p.now.id;
  c.records = p.variants.MetBy(
      record.plan, [this](std::int64_t k) { return KeyUsable(k); },
      [this](const Identifier& v) { return !matcher_.Generic(v, counts_); });
  c.identifiers = p.now.identifiers;
  return c;
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

void BatchResolver::Complete(std::size_t at) {
  BatchPerson& p = persons_[at];
  if (!p.keys_partial) return;
  Index(at, false);
  p.variants = VariantsOf(planner_, p.now);
  p.stored_keys = p.variants.Keys();
  p.keys_partial = false;
  Index(at);
}

std::vector<std::int64_t> BatchResolver::StoredWritten() const {
  std::vector<std::int64_t> out;
  for (const BatchPerson& p : persons_) {
    if (p.stored && (!p.live || p.traits_changed || p.identifiers_changed || p.keys_changed)) {
      out.push_back(p.now.id);
      if (!p.removed && !p.live) out.push_back(FinalId(p.now.id));
    }
    if (p.split_from != 0 && p.split_from < kFirstProvisionalId) out.push_back(p.split_from);
    if (!p.live) continue;
    // A record written to it: new, or moved from the person it is stored under.
    for (const StoredRecord& r : p.records) {
      if (r.row != 0 && FinalId(r.person_id) == p.now.id) continue;
      if (p.stored) out.push_back(p.now.id);
      if (r.row != 0) out.push_back(r.person_id);
    }
  }
  std::erase_if(out, [](std::int64_t id) { return id >= kFirstProvisionalId; });
  Dedup(out);
  return out;
}

std::int64_t BatchResolver::FinalId(std::int64_t id) const {
  const BatchPerson* p = &persons_[by_id_.at(id)];
  while (!p->live && !p->removed) p = &persons_[by_id_.at(p->merged_into)];
  return p->now.id;
}

std::int64_t BatchResolver::Create(const std::vector<Identifier>& ids, const Traits& traits,
                                   const std::vector<std::int64_t>* keys) {
  BatchPerson b;
  b.now.id = next_provisional_++;
  b.now.identifiers = ids;
  b.now.traits = traits;
  b.now.created_at = b.now.updated_at = kTouchedNow;
  b.traits_changed = b.identifiers_changed = b.keys_changed = true;
  if (!ids.empty()) b.variants.Add(planner_, ids, keys);
  persons_.push_back(std::move(b));
  by_id_[persons_.back().now.id] = persons_.size() - 1;
  Index(persons_.size() - 1);
  return persons_.back().now.id;
}

StoredRecord BatchResolver::NewRecord(const PreparedRecord& record,
                                      std::vector<Identifier> values) {
  StoredRecord r;
  r.source = record.source;
  r.record_id = record.record_id;
  r.values = std::move(values);
  r.traits = record.traits;
  // After every stored time, in the chunk's order.
  r.created_at = r.updated_at =
      kTouchedNow + std::chrono::microseconds(static_cast<std::int64_t>(++records_written_));
  return r;
}

void BatchResolver::Rebuild(std::size_t at, std::vector<StoredRecord> records) {
  Index(at, false);
  BatchPerson& p = persons_[at];
  p.records = std::move(records);
  std::vector<const StoredRecord*> all;
  for (const StoredRecord& r : p.records) all.push_back(&r);
  p.now.identifiers = UnionOfValues(all);
  p.now.traits = FoldTraits(all);
  p.now.updated_at = kTouchedNow;
  p.identifiers_changed = p.traits_changed = p.keys_changed = true;
  p.variants = Variants{};
  for (const StoredRecord* r : all) {
    if (!r->values.empty()) p.variants.Add(planner_, r->values);
  }
  for (const Identifier& v : p.now.identifiers) ++counts_[v];
  Index(at);
}

namespace {

const StoredRecord* Find(const std::vector<StoredRecord>& records,
                         const std::pair<std::string, std::string>& id) {
  for (const StoredRecord& s : records) {
    if (s.source == id.first && s.record_id == id.second) return &s;
  }
  return nullptr;
}

}  // namespace

std::optional<std::size_t> BatchResolver::Holding(
    const std::pair<std::string, std::string>& id) const {
  const auto named = named_.find(id);
  if (named == named_.end()) return std::nullopt;
  // The chunk re-read the record's person with all its records; a record
  // before this one may have merged it into another.
  const std::size_t at = by_id_.at(FinalId(named->second));
  if (Find(persons_[at].records, id) != nullptr) return at;
  // Or split it off (a replace or delete that took the bridge away, or a
  // steward's split), to a person made in this chunk.
  for (std::size_t i = 0; i < persons_.size(); ++i) {
    if (persons_[i].live && Find(persons_[i].records, id) != nullptr) return i;
  }
  return std::nullopt;  // withdrawn earlier: identities repeat across chunks only
}

bool BatchResolver::Withdraw(const PreparedRecord& record, UpsertResult& r,
                             std::optional<std::size_t>& emptied) {
  const auto holding = Holding({record.source, record.record_id});
  if (!holding) return false;
  const std::size_t at = *holding;
  const std::int64_t holder = persons_[at].now.id;
  undo_ = UndoWithdraw{at,      persons_[at],      persons_.size(),
                       counts_, next_provisional_, deleted_rows_.size()};
  std::vector<StoredRecord> rest = std::move(persons_[at].records);
  const auto it = std::find_if(rest.begin(), rest.end(), [&](const StoredRecord& s) {
    return s.source == record.source && s.record_id == record.record_id;
  });
  if (record.op == Operation::kDelete && it->row != 0) deleted_rows_.push_back(it->row);
  rest.erase(it);
  r.person_id = holder;
  Uncount(at);
  const std::vector<std::vector<std::size_t>> parts =
      HoldTogether(matcher_, planner_, rest, counts_, generic_keys_);
  if (parts.empty()) {
    Rebuild(at, {});
    if (record.op == Operation::kDelete) {
      Index(at, false);
      persons_[at].live = false;
      persons_[at].removed = true;
      r.person_removed = true;
    } else {
      emptied = at;
    }
    return true;
  }
  for (std::size_t k = 1; k < parts.size(); ++k) {
    std::vector<StoredRecord> part;
    for (std::size_t i : parts[k]) part.push_back(std::move(rest[i]));
    const std::int64_t id = Create({}, {});
    persons_.back().split_from = holder;
    Rebuild(by_id_.at(id), std::move(part));
    r.split_person_ids.push_back(id);
  }
  std::vector<StoredRecord> kept;
  for (std::size_t i : parts.front()) kept.push_back(std::move(rest[i]));
  Rebuild(at, std::move(kept));
  return true;
}

void BatchResolver::Uncount(std::size_t at) {
  for (const Identifier& v : persons_[at].now.identifiers) {
    if (auto c = counts_.find(v); c != counts_.end() && c->second > 0) --c->second;
  }
}

namespace {

// A delete's or a split's result when its records are not as it names them.
UpsertResult NotApplied(UpsertResult::NotApplied why, std::string reason) {
  UpsertResult r;
  r.not_applied = why;
  r.error = std::move(reason);
  return r;
}

}  // namespace

UpsertResult BatchResolver::Split(const PreparedRecord& record) {
  UpsertResult r;
  std::optional<std::int64_t> holder;
  std::map<RecordIdentity, std::size_t> group_of;
  for (std::size_t g = 0; g < record.split_groups.size(); ++g) {
    for (const RecordIdentity& id : record.split_groups[g]) {
      const auto holding = Holding(id);
      if (!holding) {
        return NotApplied(UpsertResult::NotApplied::kNoSuchRecord,
                          "no record '" + id.second + "' of source '" + id.first + "' is stored");
      }
      const std::int64_t h = persons_[*holding].now.id;
      if (holder && *holder != h) {
        return NotApplied(UpsertResult::NotApplied::kNotThePersons,
                          "the records belong to more than one person");
      }
      holder = h;
      group_of[id] = g;
    }
  }
  if (!by_id_.contains(record.split_person) || FinalId(record.split_person) != *holder) {
    return NotApplied(UpsertResult::NotApplied::kNotThePersons,
                      "the records are not person " + std::to_string(record.split_person) + "'s");
  }
  const std::size_t at = by_id_.at(*holder);
  const auto group = [&](const StoredRecord& s) {
    const auto g = group_of.find({s.source, s.record_id});
    return g == group_of.end() ? std::size_t{0} : g->second;
  };
  // A value only one person may hold cannot go to two parts.
  std::map<Identifier, std::size_t> exclusive;
  for (const StoredRecord& s : persons_[at].records) {
    for (const Identifier& v : s.values) {
      if (!matcher_.model().Exclusive(v.type)) continue;
      const auto [it, added] = exclusive.try_emplace(v, group(s));
      if (!added && it->second != group(s)) {
        return NotApplied(UpsertResult::NotApplied::kSharedExclusive,
                          "records of two groups hold " + v.type + " '" + v.value +
                              "', which only one person may hold");
      }
    }
  }
  std::vector<std::vector<StoredRecord>> parts(record.split_groups.size());
  for (StoredRecord& s : persons_[at].records) parts[group(s)].push_back(std::move(s));
  Uncount(at);
  std::vector<std::int64_t> ids = {*holder};
  for (std::size_t g = 1; g < parts.size(); ++g) {
    const std::int64_t id = Create({}, {});
    persons_.back().split_from = *holder;
    Rebuild(by_id_.at(id), std::move(parts[g]));
    ids.push_back(id);
    r.split_person_ids.push_back(id);
  }
  Rebuild(at, std::move(parts.front()));
  // The parts are kept apart, also from later records of this chunk.
  for (std::size_t i = 0; i < ids.size(); ++i) {
    for (std::size_t j = i + 1; j < ids.size(); ++j) {
      At(ids[i]).now.never.push_back(ids[j]);
      At(ids[j]).now.never.push_back(ids[i]);
      judgements_.push_back({ids[i], ids[j]});
    }
  }
  r.person_id = *holder;
  r.outcome = Outcome::kUpdated;
  return r;
}

UpsertResult BatchResolver::Apply(const PreparedRecord& record,
                                  std::span<const std::int64_t> key_candidates) {
  if (record.op == Operation::kSplit) return Split(record);
  UpsertResult r;
  r.source = record.source;
  r.record_id = record.record_id;
  r.rejected = record.rejected;
  std::optional<std::size_t> emptied;
  undo_.reset();
  const bool withdrawn = record.named && Withdraw(record, r, emptied);
  if (record.op == Operation::kDelete) {
    if (!withdrawn) {
      r.not_applied = UpsertResult::NotApplied::kNoSuchRecord;
      r.error = "no record '" + record.record_id + "' of source '" + record.source + "' is stored";
    }
    r.outcome = Outcome::kUpdated;
    return r;
  }
  UpsertResult decided = Decide(record, key_candidates, emptied);
  decided.source = r.source;
  decided.record_id = r.record_id;
  if (decided.ok()) {
    decided.split_person_ids = std::move(r.split_person_ids);
    if (SameAgain(record, decided)) {
      Undo();  // the record sent again as it is stored: nothing to write
      decided.outcome = Outcome::kUnchanged;
    }
    Review(record, decided);
  } else if (undo_) {
    Undo();  // a replace refused (the trait cap) changes nothing
  }
  return decided;
}

bool BatchResolver::SameAgain(const PreparedRecord& record, const UpsertResult& r) const {
  if (!undo_ || !r.merged_person_ids.empty() || !r.split_person_ids.empty() ||
      persons_.size() != undo_->persons || r.person_id != undo_->person.now.id) {
    return false;
  }
  const BatchPerson& now = persons_[undo_->at];
  const BatchPerson& before = undo_->person;
  if (now.now.identifiers != before.now.identifiers || now.now.traits != before.now.traits) {
    return false;
  }
  const auto stored = [&](const BatchPerson& p) -> const StoredRecord* {
    for (const StoredRecord& s : p.records) {
      if (s.source == record.source && s.record_id == record.record_id) return &s;
    }
    return nullptr;
  };
  const StoredRecord* a = stored(now);
  const StoredRecord* b = stored(before);
  return a != nullptr && b != nullptr && a->values == b->values && a->traits == b->traits;
}

void BatchResolver::Review(const PreparedRecord& record, UpsertResult& r) {
  const NeverFn never = [this](std::int64_t a, std::int64_t b) {
    return by_id_.contains(a) && by_id_.contains(b) && Never(a, b);
  };
  for (std::int64_t id : last_decision_.possible) {
    possible_.push_back({r.person_id, id, last_decision_.scores.at(id)});
  }
  if (record.explain) {
    r.explanation = ExplainDecision(record, last_decision_, r, matcher_, planner_, generic_keys_,
                                    counts_, never);
  }
}

void BatchResolver::Undo() {
  // The persons the withdrawal split off are the last ones created.
  for (std::size_t at = undo_->persons; at < persons_.size(); ++at) {
    Index(at, false);
    by_id_.erase(persons_[at].now.id);
  }
  persons_.resize(undo_->persons);
  Index(undo_->at, false);
  persons_[undo_->at] = std::move(undo_->person);
  Index(undo_->at);
  counts_ = std::move(undo_->counts);
  next_provisional_ = undo_->next_provisional;
  deleted_rows_.resize(undo_->deleted_rows);
  undo_.reset();
}

bool BatchResolver::Never(std::int64_t a, std::int64_t b) const {
  const auto Said = [&](std::int64_t x, std::int64_t y) {
    for (std::int64_t n : persons_[by_id_.at(x)].now.never) {
      if ((by_id_.contains(n) ? FinalId(n) : n) == y) return true;
    }
    return false;
  };
  return Said(a, b) || Said(b, a);
}

std::pair<std::string, std::string> BatchResolver::MergeReasonFor(
    const PreparedRecord& record, const std::vector<std::int64_t>& matches) const {
  std::string reason = std::string(kBridgeReason) + " of record '" + record.record_id +
                       "' of source '" + record.source + "':";
  std::vector<CandidateScore> scores;
  for (std::size_t i = 0; i < matches.size(); ++i) {
    const BatchPerson& p = persons_[by_id_.at(matches[i])];
    CandidateScore& c = scores.emplace_back();
    c.person_id = p.now.id;
    c.score =
        matcher_.Compare(record.identifiers, CandidateFor(by_id_.at(matches[i]), record), counts_);
    reason += (i ? "; person " : " person ") + std::to_string(p.now.id) + " " + ScoreText(c.score);
  }
  return {reason, EncodeScores(scores, matcher_.model())};
}

UpsertResult BatchResolver::Decide(const PreparedRecord& record,
                                   std::span<const std::int64_t> key_candidates,
                                   std::optional<std::size_t> emptied) {
  std::vector<Candidate> candidates;
  for (std::size_t at : Candidates(record, key_candidates)) {
    Candidate c = CandidateFor(at, record);
    if (!c.records.empty()) candidates.push_back(std::move(c));
  }
  // Persons a steward keeps apart are never merged: the matcher joins the
  // record to the best of them (docs/design.md, "Records, judgements and the
  // change feed").
  last_decision_ = matcher_.Decide(record.identifiers, candidates, counts_,
                                   [this](std::int64_t a, std::int64_t b) { return Never(a, b); });
  MatchDecision& d = last_decision_;

  UpsertResult r;
  r.rejected = record.rejected;
  r.generic = d.generic;
  const std::vector<Identifier> ids = OwnValues(record.identifiers, d, r.rejected);
  if (d.matches.empty() && !emptied) {
    Count({}, ids);
    r.person_id = Create(ids, record.traits, PlannedKeys(record, ids));
    r.outcome = Outcome::kCreated;
    persons_.back().records.push_back(NewRecord(record, ids));
    return r;
  }
  // A replaced record whose person it emptied goes back into that person,
  // with whomever it matches.
  std::vector<std::int64_t> matches = d.matches;
  if (emptied) {
    matches.push_back(persons_[*emptied].now.id);
    std::sort(matches.begin(), matches.end());
  }
  r.person_id = matches.front();
  r.score = d.scores.contains(r.person_id) ? d.scores.at(r.person_id) : 0.0;
  r.merged_person_ids.assign(matches.begin() + 1, matches.end());
  std::vector<const StoredPerson*> matched;
  for (std::int64_t id : matches) matched.push_back(&At(id).now);
  MergePlan plan = PlanMerge(matched, ids, record.traits);
  if (plan.unchanged) {
    r.outcome = Outcome::kUnchanged;
    AddUnchanged(record, ids, r.person_id);
    return r;
  }
  if (auto over = TraitsOverCap(matched, plan, max_person_traits_)) {
    UpsertResult refused;
    refused.error = std::move(over);
    refused.rejected = std::move(r.rejected);
    return refused;
  }
  Count(matched, plan.fresh);
  Absorb(record, matches);
  Update(record, ids, std::move(plan), r.person_id, !r.merged_person_ids.empty());
  r.outcome = r.merged_person_ids.empty() ? Outcome::kUpdated : Outcome::kMerged;
  return r;
}

void BatchResolver::AddUnchanged(const PreparedRecord& record, const std::vector<Identifier>& ids,
                                 std::int64_t person_id) {
  Complete(by_id_.at(person_id));
  BatchPerson& p = At(person_id);
  p.records.push_back(NewRecord(record, ids));
  // The same values in a combination no record said before: new keys, if
  // the combination makes any the person lacks (an email alone adds its
  // local part, which the person's first record keyed already).
  if (!ids.empty() && p.variants.Add(planner_, ids, PlannedKeys(record, ids)) &&
      p.variants.Keys() != p.keys) {
    Index(by_id_.at(person_id), false);
    Index(by_id_.at(person_id));
    p.keys_changed = true;
  }
}

void BatchResolver::Absorb(const PreparedRecord& record, const std::vector<std::int64_t>& matches) {
  const std::size_t survivor_at = by_id_.at(matches.front());
  for (std::int64_t id : matches) Complete(by_id_.at(id));
  const auto [reason, scores] = MergeReasonFor(record, matches);
  for (std::size_t i = 1; i < matches.size(); ++i) {
    BatchPerson& gone = At(matches[i]);
    gone.merge_reason = reason;
    gone.merge_scores = scores;
    gone.live = false;
    gone.merged_into = matches.front();
    Index(by_id_.at(matches[i]), false);
    persons_[survivor_at].variants.AddAll(gone.variants);
    auto& never = persons_[survivor_at].now.never;
    never.insert(never.end(), gone.now.never.begin(), gone.now.never.end());
    auto& into = persons_[survivor_at].records;
    std::move(gone.records.begin(), gone.records.end(), std::back_inserter(into));
    gone.records.clear();
  }
}

void BatchResolver::Update(const PreparedRecord& record, const std::vector<Identifier>& ids,
                           MergePlan plan, std::int64_t survivor_id, bool merging) {
  const std::size_t survivor_at = by_id_.at(survivor_id);
  Complete(survivor_at);
  BatchPerson& survivor = persons_[survivor_at];
  survivor.records.push_back(NewRecord(record, ids));
  const bool new_variant =
      !ids.empty() && survivor.variants.Add(planner_, ids, PlannedKeys(record, ids));
  if (merging || !plan.fresh.empty() || new_variant) {
    const std::vector<std::int64_t> keys_before = survivor.keys;
    Index(survivor_at, false);
    if (merging || !plan.fresh.empty()) {
      survivor.now.identifiers = std::move(plan.all);
      survivor.identifiers_changed = true;
    }
    Index(survivor_at);
    // Keys are written only when they changed: an update whose record adds
    // a strong value or an email alone usually adds no blocking key, and
    // rewriting all of a person's keys cost each such update a probe per key.
    if (merging || survivor.keys != keys_before) survivor.keys_changed = true;
  }
  survivor.now.traits = std::move(plan.traits);
  survivor.now.updated_at = kTouchedNow;
  survivor.traits_changed = true;
}

}  // namespace idres::detail
