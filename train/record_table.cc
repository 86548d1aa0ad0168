#include "train/record_table.h"

#include <algorithm>

#include "matcher/comparisons.h"

namespace idres::train {

RecordTable::RecordTable(const Model& model) {
  for (const auto& [name, type] : model.types) {
    types_.push_back(name);
    kinds_.push_back(type.comparison);
  }
  holding_.assign(types_.size(), 0);
}

bool RecordTable::Add(std::span<const Identifier> values) {
  // Identifiers sort by type, then value: dropping repeats needs one pass.
  std::vector<Identifier> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  const std::size_t before = values_.size();
  std::uint16_t last_type = UINT16_MAX;
  for (const Identifier& v : sorted) {
    const auto it = std::lower_bound(types_.begin(), types_.end(), v.type);
    if (it == types_.end() || *it != v.type) continue;
    const auto type = static_cast<std::uint16_t>(it - types_.begin());
    if (NoEvidence(kinds_[type], v.value)) continue;
    values_.push_back({type, dictionary_.Add(type, v.value)});
    if (type != last_type) ++holding_[type];
    last_type = type;
  }
  if (values_.size() == before) return false;
  std::sort(values_.begin() + static_cast<std::ptrdiff_t>(before), values_.end());
  starts_.push_back(values_.size());
  return true;
}

std::vector<Identifier> RecordTable::Identifiers(std::size_t record) const {
  std::vector<Identifier> out;
  for (const Value& v : Values(record)) {
    out.push_back({types_[v.type], std::string(dictionary_.text(v.id))});
  }
  return out;
}

}  // namespace idres::train
