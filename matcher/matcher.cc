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
// `b_at` the pair.
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

}  // namespace

Matcher::Matcher(Model model) : model_(std::move(model)) {}

bool Matcher::Generic(const Identifier& value, const ValueCounts& counts) const {
  const TypeModel* t = model_.Find(value.type);
  return t != nullptr && !t->exclusive && CountOf(value, counts) > t->generic_cap;
}

Score Matcher::Compare(std::span<const Identifier> record, const Candidate& candidate,
                       const ValueCounts& counts) const {
  std::vector<Identifier> usable;
  for (const Identifier& v : record) {
    if (!Generic(v, counts)) usable.push_back(v);
  }
  const ByType mine = GroupByType(usable), theirs = GroupByType(candidate.identifiers);
  Score s;
  std::map<std::string, std::size_t> best_of_group;  // group -> index into comparisons
  for (const auto& [type, values] : mine) {
    const TypeModel* t = model_.Find(type);
    auto other = theirs.find(type);
    if (t == nullptr || other == theirs.end()) continue;
    const Identifier *a = nullptr, *b = nullptr;
    const std::size_t level = BestLevel(t->comparison, values, other->second, &a, &b);
    Comparison c{type, t->levels[level].name, t->levels[level].weight(), 0, a->value, b->value};
    if (level == 0) {
      // Term frequency: a value held by k persons is k times likelier to be
      // shared by chance than one held by this person alone.
      const std::size_t k = std::max<std::size_t>(1, CountOf(*a, counts));
      c.tf_adjustment = std::log2(static_cast<double>(k));
      c.weight -= c.tf_adjustment;
      if (t->strong) s.strong_exact = true;
    }
    const std::string group = t->group.empty() ? type : t->group;
    s.comparisons.push_back(std::move(c));
    auto [it, fresh] = best_of_group.emplace(group, s.comparisons.size() - 1);
    if (!fresh) {
      Comparison& held = s.comparisons[it->second];
      Comparison& now = s.comparisons.back();
      if (now.weight > held.weight) {
        held.counted = false;
        it->second = s.comparisons.size() - 1;
      } else {
        now.counted = false;
      }
    }
  }
  for (const auto& [group, at] : best_of_group) {
    s.total += s.comparisons[at].weight;
    if (s.comparisons[at].weight < 0) s.against = true;
  }
  return s;
}

bool Matcher::Conflict(const Candidate& a, const Candidate& b) const {
  const ByType x = GroupByType(a.identifiers), y = GroupByType(b.identifiers);
  for (const auto& [type, values] : x) {
    const TypeModel* t = model_.Find(type);
    auto other = y.find(type);
    if (t == nullptr || other == y.end()) continue;
    const bool checked =
        t->comparison == ComparisonKind::kDocument || t->comparison == ComparisonKind::kBirthDate;
    const Identifier *p = nullptr, *q = nullptr;
    if (checked &&
        BestLevel(t->comparison, values, other->second, &p, &q) + 1 == t->levels.size()) {
      return true;
    }
  }
  return false;
}

MatchDecision Matcher::Decide(std::span<const Identifier> record,
                              std::span<const Candidate> candidates,
                              const ValueCounts& counts) const {
  // One candidate per person, even if the caller's rows repeat a person.
  std::map<std::int64_t, Candidate> persons;
  for (const Candidate& c : candidates) {
    Candidate& merged = persons[c.person_id];
    merged.person_id = c.person_id;
    merged.identifiers.insert(merged.identifiers.end(), c.identifiers.begin(), c.identifiers.end());
  }
  MatchDecision d;
  for (const Identifier& v : record) {
    if (Generic(v, counts)) d.generic.push_back(v);
  }
  for (const auto& [id, candidate] : persons) {
    Score s = Compare(record, candidate, counts);
    d.scores[id] = s.total;
    if (Matches(s)) d.matches.push_back(id);
    d.details.emplace(id, std::move(s));
  }
  for (std::size_t i = 0; i < d.matches.size() && !d.conflict; ++i) {
    for (std::size_t j = i + 1; j < d.matches.size() && !d.conflict; ++j) {
      d.conflict = Conflict(persons.at(d.matches[i]), persons.at(d.matches[j]));
    }
  }
  if (d.conflict) {
    // The best total; a tie goes to the oldest (matches are ascending).
    std::int64_t best = d.matches.front();
    for (std::int64_t id : d.matches) {
      if (d.scores.at(id) > d.scores.at(best)) best = id;
    }
    d.matches = {best};
  }
  // Exclusive values held by a person the record does not match.
  std::set<Identifier> seen;
  for (const Identifier& id : record) {
    if (!model_.Exclusive(id.type) || !seen.insert(id).second) continue;
    for (const auto& [pid, candidate] : persons) {
      if (std::binary_search(d.matches.begin(), d.matches.end(), pid)) continue;
      if (std::find(candidate.identifiers.begin(), candidate.identifiers.end(), id) !=
          candidate.identifiers.end()) {
        d.held_elsewhere.push_back(id);
        break;
      }
    }
  }
  return d;
}

}  // namespace idres
