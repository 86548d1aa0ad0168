#include "matcher/matcher.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "matcher/comparisons.h"

namespace idres {
namespace {

using ByType = std::map<std::string, std::vector<const Identifier*>, std::less<>>;

ByType GroupByType(std::span<const Identifier> ids) {
  ByType out;
  for (const Identifier& id : ids) out[id.type].push_back(&id);
  return out;
}

// The best level (lowest index) any pair of `a` x `b` reaches; `a_at` and
// `b_at` the pair. kNoEvidence when no pair is evidence either way.
std::size_t BestLevel(ComparisonKind kind, const std::vector<const Identifier*>& a,
                      const std::vector<const Identifier*>& b, const Identifier** a_at,
                      const Identifier** b_at) {
  std::size_t best = SIZE_MAX;
  for (const Identifier* x : a) {
    for (const Identifier* y : b) {
      const std::size_t level = CompareValues(kind, x->value, y->value);
      if (level < best) {
        best = level;
        *a_at = x;
        *b_at = y;
      }
      if (best == 0) return 0;
    }
  }
  return best;
}

std::size_t CountOf(const Identifier& v, const ValueCounts& counts) {
  auto it = counts.find(v);
  return it == counts.end() ? 0 : it->second;
}

// The entities (person, organization) the types of `ids` say the record
// is; empty when none says. A record that names a person is a person, also
// when it names an organization too: that is where the person works (a CRM
// contact and its company).
std::set<std::string> Entities(const Model& model, std::span<const Identifier> ids) {
  std::set<std::string> out;
  for (const Identifier& id : ids) {
    const TypeModel* t = model.Find(id.type);
    if (t != nullptr && !t->entity.empty()) out.insert(t->entity);
  }
  if (out.size() > 1 && out.contains("person")) return {"person"};
  return out;
}

// A group weighs against a match when its total is below this: odds of at
// least 2:1 against. A birth date a few weeks apart (weeks_apart, -0.3) is
// the one level above it: a slip of the calendar, which does not undo a
// shared email or phone.
constexpr double kAgainst = -1.0;

// Group totals: per group its best positive weight plus its worst negative
// one; the comparisons that make neither are not counted.
void SumGroups(const Model& model, Score& s) {
  struct Extremes {
    std::optional<std::size_t> best, worst;
  };
  std::map<std::string, Extremes> groups;
  for (std::size_t i = 0; i < s.comparisons.size(); ++i) {
    const Comparison& c = s.comparisons[i];
    const TypeModel* t = model.Find(c.type);
    const std::string group = t->group.empty() ? c.type : t->group;
    Extremes& e = groups[group];
    if (c.weight >= 0 && (!e.best || c.weight > s.comparisons[*e.best].weight)) e.best = i;
    if (c.weight < 0 && (!e.worst || c.weight < s.comparisons[*e.worst].weight)) e.worst = i;
  }
  for (Comparison& c : s.comparisons) c.counted = false;
  for (const auto& [group, e] : groups) {
    double total = 0;
    for (const auto& at : {e.best, e.worst}) {
      if (!at) continue;
      s.comparisons[*at].counted = true;
      total += s.comparisons[*at].weight;
    }
    s.total += total;
    if (total < kAgainst) s.against = true;
  }
}

}  // namespace

Matcher::Matcher(Model model) : model_(std::move(model)) {}

bool Matcher::Generic(const Identifier& value, const ValueCounts& counts) const {
  const TypeModel* t = model_.Find(value.type);
  return t != nullptr && !t->exclusive && CountOf(value, counts) > t->generic_cap;
}

Score Matcher::Compare(std::span<const Identifier> record, std::span<const Identifier> other,
                       const ValueCounts& counts) const {
  Score s;
  const std::set<std::string> mine_are = Entities(model_, record),
                              theirs_are = Entities(model_, other);
  s.other_entity = !mine_are.empty() && !theirs_are.empty() && mine_are != theirs_are;
  std::vector<Identifier> usable;
  for (const Identifier& v : record) {
    if (!Generic(v, counts)) usable.push_back(v);
  }
  const ByType mine = GroupByType(usable), theirs = GroupByType(other);
  for (const auto& [type, values] : mine) {
    const TypeModel* t = model_.Find(type);
    auto found = theirs.find(type);
    if (t == nullptr || found == theirs.end()) continue;
    const Identifier *a = nullptr, *b = nullptr;
    const std::size_t level = BestLevel(t->comparison, values, found->second, &a, &b);
    if (level == kNoEvidence) continue;
    Comparison c{type, t->levels[level].name, t->levels[level].weight(), 0, a->value, b->value};
    if (level == 0) {
      // Term frequency: a value held by k persons is k times likelier to be
      // shared by chance than one held by this person alone.
      const std::size_t k = std::max<std::size_t>(1, CountOf(*a, counts));
      c.tf_adjustment = std::log2(static_cast<double>(k));
      c.weight -= c.tf_adjustment;
      if (t->strong) s.strong_exact = true;
    }
    s.comparisons.push_back(std::move(c));
  }
  SumGroups(model_, s);
  return s;
}

Score Matcher::Compare(std::span<const Identifier> record, const Candidate& candidate,
                       const ValueCounts& counts) const {
  Score best;
  bool any = false;
  for (std::size_t i = 0; i < candidate.records.size(); ++i) {
    Score s = Compare(record, candidate.records[i], counts);
    s.record = i;
    // The record that makes the match, else the highest total.
    const auto rank = [&](const Score& x) { return std::make_pair(Matches(x), x.total); };
    if (!any || rank(s) > rank(best)) best = std::move(s);
    any = true;
  }
  return best;
}

bool Matcher::Conflict(std::span<const Identifier> a, std::span<const Identifier> b,
                       ComparisonKind kind) const {
  const ByType x = GroupByType(a), y = GroupByType(b);
  for (const auto& [type, values] : x) {
    const TypeModel* t = model_.Find(type);
    auto other = y.find(type);
    if (t == nullptr || other == y.end() || t->comparison != kind) continue;
    // "different", or a level after it (a birth date of another generation).
    const auto& names = LevelNames(t->comparison);
    const auto different = static_cast<std::size_t>(
        std::find(names.begin(), names.end(), "different") - names.begin());
    const Identifier *p = nullptr, *q = nullptr;
    const std::size_t level = BestLevel(t->comparison, values, other->second, &p, &q);
    if (level != kNoEvidence && level >= different) return true;
  }
  return false;
}

// Whether `record`, holding a birth date, stands by its match with
// `matched` (the record its score names) across the two matched records'
// disagreeing dates: it agrees with that record's date, or it matched that
// record despite disagreeing with its date and shares a strong value with it
// exactly (an email, a phone, a document): one of the two dates is a slip
// that the record's own evidence outweighs. A record without a date takes
// no side, so it never vouches: a name and a town alone do not join two
// namesakes born years apart.
bool Matcher::Vouches(std::span<const Identifier> record, std::span<const Identifier> matched,
                      const Score& score) const {
  return !Conflict(record, matched, ComparisonKind::kBirthDate) || score.strong_exact;
}

bool Matcher::Conflict(std::span<const Identifier> record, const Candidate& a, const Score& a_score,
                       const Candidate& b, const Score& b_score) const {
  // Documents: any two of the persons'. Birth dates: those of the two
  // records the record matched, as the persons' other records may hold a
  // date in error that the evidence already outweighed.
  if (Conflict(a.identifiers, b.identifiers, ComparisonKind::kDocument)) return true;
  if (a.records.empty() || b.records.empty()) return false;
  const auto& x = a.records[a_score.record];
  const auto& y = b.records[b_score.record];
  if (!Conflict(x, y, ComparisonKind::kBirthDate)) return false;
  // A placeholder date is none.
  const bool dated = std::any_of(record.begin(), record.end(), [&](const Identifier& v) {
    const TypeModel* t = model_.Find(v.type);
    return t != nullptr && t->comparison == ComparisonKind::kBirthDate &&
           !NoEvidence(t->comparison, v.value);
  });
  return !dated || !Vouches(record, x, a_score) || !Vouches(record, y, b_score);
}

// Term frequency counts the persons holding a value as so many people. The
// persons a record matches are the record's own person, its records split
// over more than one (records decided in the order they arrived, before a
// record that joins them): so, against the other candidates, each matched
// person holding a value is not another holder of it. `Sam Ray` held by
// persons 1 and 2, the record matching person 1, meets person 2 with the
// name held by one person, not two. A generic value stays generic.
ValueCounts Matcher::ValuesOfOthers(std::span<const Identifier> record,
                                    const std::map<std::int64_t, const Candidate*>& by_id,
                                    const std::vector<std::int64_t>& matches,
                                    const ValueCounts& counts) const {
  ValueCounts out = counts;
  for (const Identifier& v : record) {
    const std::size_t k = CountOf(v, counts);
    if (k <= 1 || Generic(v, counts)) continue;
    std::size_t own = 0;
    for (std::int64_t id : matches) {
      const auto& values = by_id.at(id)->identifiers;
      if (std::binary_search(values.begin(), values.end(), v)) ++own;
    }
    out[v] = std::max<std::size_t>(1, k - std::min(own, k));
  }
  return out;
}

void Matcher::JoinBest(std::span<const Identifier> record,
                       const std::map<std::int64_t, const Candidate*>& by_id,
                       MatchDecision& d) const {
  // The best total; a tie goes to the oldest (matches are ascending).
  std::int64_t best = d.matches.front();
  for (std::int64_t id : d.matches) {
    if (d.scores.at(id) > d.scores.at(best)) best = id;
  }
  std::set<Identifier> held;
  for (std::int64_t other : d.matches) {
    if (other == best) continue;
    const auto& values = by_id.at(other)->identifiers;
    for (const Identifier& v : record) {
      if (model_.Exclusive(v.type) && std::binary_search(values.begin(), values.end(), v)) {
        held.insert(v);
      }
    }
  }
  d.held_elsewhere.insert(d.held_elsewhere.end(), held.begin(), held.end());
  d.matches = {best};
  d.conflict = true;
}

MatchDecision Matcher::Decide(std::span<const Identifier> record,
                              std::span<const Candidate> candidates, const ValueCounts& counts,
                              const ApartFn& apart) const {
  std::map<std::int64_t, const Candidate*> by_id;
  for (const Candidate& c : candidates) by_id[c.person_id] = &c;
  MatchDecision d;
  for (const Identifier& v : record) {
    if (Generic(v, counts)) d.generic.push_back(v);
  }
  for (const auto& [id, candidate] : by_id) {
    Score s = Compare(record, *candidate, counts);
    d.scores[id] = s.total;
    if (Matches(s)) d.matches.push_back(id);
    d.details.emplace(id, std::move(s));
  }
  // The record is the person it matches: against the other candidates, a
  // value held by a matched person is one holder fewer (ValuesOfOthers),
  // and a candidate that now matches too is compared again with the rest.
  // Only a candidate holding such a value can score otherwise.
  for (bool grew = !d.matches.empty(); grew;) {
    grew = false;
    const ValueCounts others = ValuesOfOthers(record, by_id, d.matches, counts);
    std::vector<Identifier> fewer;
    for (const auto& [value, k] : others) {
      if (k != CountOf(value, counts)) fewer.push_back(value);
    }
    if (fewer.empty()) break;  // nothing recounted
    for (const auto& [id, candidate] : by_id) {
      if (std::binary_search(d.matches.begin(), d.matches.end(), id)) continue;
      const auto& values = candidate->identifiers;
      if (std::none_of(fewer.begin(), fewer.end(), [&](const Identifier& v) {
            return std::binary_search(values.begin(), values.end(), v);
          })) {
        continue;
      }
      Score s = Compare(record, *candidate, others);
      d.scores[id] = s.total;
      if (Matches(s)) {
        d.matches.insert(std::upper_bound(d.matches.begin(), d.matches.end(), id), id);
        grew = true;
      }
      d.details.insert_or_assign(id, std::move(s));
    }
  }
  // Matches that may not be one: a steward's word first, then the evidence.
  bool steward = false, evidence = false;
  for (std::size_t i = 0; i < d.matches.size(); ++i) {
    for (std::size_t j = i + 1; j < d.matches.size(); ++j) {
      const std::int64_t a = d.matches[i], b = d.matches[j];
      steward = steward || (apart && apart(a, b));
      evidence = evidence ||
                 Conflict(record, *by_id.at(a), d.details.at(a), *by_id.at(b), d.details.at(b));
    }
  }
  if (steward || evidence) {
    JoinBest(record, by_id, d);
    d.kept_apart = steward;
  }
  // Exclusive values held by a person the record does not match.
  std::set<Identifier> seen(d.held_elsewhere.begin(), d.held_elsewhere.end());
  for (const Identifier& id : record) {
    if (!model_.Exclusive(id.type) || seen.contains(id)) continue;
    for (const auto& [pid, candidate] : by_id) {
      if (std::binary_search(d.matches.begin(), d.matches.end(), pid)) continue;
      const auto& values = candidate->identifiers;
      if (std::binary_search(values.begin(), values.end(), id)) {
        d.held_elsewhere.push_back(id);
        seen.insert(id);
        break;
      }
    }
  }
  const std::optional<std::int64_t> joined = d.survivor();
  for (const auto& [id, total] : d.scores) {
    if (std::binary_search(d.matches.begin(), d.matches.end(), id)) continue;
    if (total < model_.review_threshold) continue;
    if (joined && apart && apart(*joined, id)) continue;
    d.possible.push_back(id);
  }
  return d;
}

}  // namespace idres
