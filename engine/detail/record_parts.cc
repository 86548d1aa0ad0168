#include "engine/detail/record_parts.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>

#include "engine/detail/merge_helpers.h"
#include "engine/detail/prepared_record.h"
#include "engine/detail/variants.h"

namespace idres::detail {
namespace {

// One part while the records are replayed.
struct Part {
  std::vector<std::size_t> records;
  std::vector<Identifier> values;  // sorted, unique
  Variants variants;               // of its records
  bool live = true;
};

// What the matcher sees of part `p` (id `id`) for a record planned as
// `plan`: the variants it meets through a key or strong value that is not
// generic.
Candidate PartCandidate(const Part& p, std::int64_t id, const LockPlan& plan,
                        const Matcher& matcher, const ValueCounts& counts,
                        const std::set<std::int64_t>& generic_keys) {
  Candidate c;
  c.person_id = id;
  c.records = p.variants.MetBy(
      plan, [&](std::int64_t k) { return !generic_keys.contains(k); },
      [&](const Identifier& v) { return !matcher.Generic(v, counts); });
  c.identifiers = p.values;
  return c;
}

// Joins into one the live parts that hold records of one bond.
void JoinBonds(std::vector<Part>& parts, std::span<const StoredRecord> records) {
  std::vector<std::size_t> root(parts.size());
  std::iota(root.begin(), root.end(), std::size_t{0});
  const auto find = [&](std::size_t p) {
    while (root[p] != p) p = root[p] = root[root[p]];
    return p;
  };
  std::map<std::int64_t, std::size_t> part_of_bond;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    if (!parts[p].live) continue;
    for (std::size_t i : parts[p].records) {
      if (records[i].bond == 0) continue;
      const auto [it, first] = part_of_bond.try_emplace(records[i].bond, p);
      if (first) continue;
      const std::size_t a = find(p), b = find(it->second);
      root[std::max(a, b)] = std::min(a, b);
    }
  }
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const std::size_t r = find(p);
    if (r == p || !parts[p].live) continue;
    parts[r].records.insert(parts[r].records.end(), parts[p].records.begin(),
                            parts[p].records.end());
    parts[p] = Part{};
    parts[p].live = false;
  }
}

}  // namespace

std::vector<std::vector<std::size_t>> HoldTogether(const Matcher& matcher,
                                                   const LockPlanner& planner,
                                                   std::span<const StoredRecord> records,
                                                   const ValueCounts& counts,
                                                   const std::set<std::int64_t>& generic_keys) {
  std::vector<Part> parts;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const StoredRecord& r = records[i];
    if (r.values.empty()) {
      if (parts.empty()) parts.push_back({});
      parts.front().records.push_back(i);
      continue;
    }
    const LockPlan plan = planner.Plan(r.values);
    std::vector<Candidate> candidates;
    for (std::size_t p = 0; p < parts.size(); ++p) {
      if (!parts[p].live) continue;
      Candidate c = PartCandidate(parts[p], static_cast<std::int64_t>(p) + 1, plan, matcher, counts,
                                  generic_keys);
      if (!c.records.empty()) candidates.push_back(std::move(c));
    }
    const MatchDecision d = matcher.Decide(r.values, candidates, counts);
    std::size_t into = parts.size();
    if (d.matches.empty()) {
      parts.push_back({});
    } else {
      into = static_cast<std::size_t>(d.matches.front() - 1);
      for (auto it = d.matches.begin() + 1; it != d.matches.end(); ++it) {
        Part& gone = parts[static_cast<std::size_t>(*it - 1)];
        Part& keep = parts[into];
        keep.records.insert(keep.records.end(), gone.records.begin(), gone.records.end());
        keep.values.insert(keep.values.end(), gone.values.begin(), gone.values.end());
        keep.variants.AddAll(gone.variants);
        gone = Part{};
        gone.live = false;
      }
    }
    Part& part = parts[into];
    part.records.push_back(i);
    part.values.insert(part.values.end(), r.values.begin(), r.values.end());
    Dedup(part.values);
    part.variants.Add(planner, r.values);
  }
  JoinBonds(parts, records);
  std::vector<std::vector<std::size_t>> out;
  for (Part& p : parts) {
    if (!p.live) continue;
    std::sort(p.records.begin(), p.records.end());
    out.push_back(std::move(p.records));
  }
  // Records come oldest first, so ordering the parts by their first record
  // puts the oldest record's part first.
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Identifier> UnionOfValues(std::span<const StoredRecord* const> records) {
  std::vector<Identifier> out;
  for (const StoredRecord* r : records) out.insert(out.end(), r->values.begin(), r->values.end());
  Dedup(out);
  return out;
}

Traits FoldTraits(std::span<const StoredRecord* const> records) {
  std::vector<const StoredRecord*> order(records.begin(), records.end());
  std::sort(order.begin(), order.end(), [](const StoredRecord* a, const StoredRecord* b) {
    return std::tie(a->updated_at, a->row) < std::tie(b->updated_at, b->row);
  });
  Traits out;
  for (const StoredRecord* r : order) {
    for (const auto& [k, v] : r->traits) out[k] = v;
  }
  return out;
}

}  // namespace idres::detail
