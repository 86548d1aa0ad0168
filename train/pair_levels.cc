#include "train/pair_levels.h"

#include <algorithm>

#include "matcher/comparisons.h"

namespace idres::train {

PairLevels::PairLevels(const RecordTable& table, const Model& model) : table_(table) {
  for (const std::string& type : table.types()) kinds_.push_back(model.Find(type)->comparison);
  const ValueDictionary& d = table.dictionary();
  self_.resize(d.size());
  for (std::uint32_t id = 0; id < d.size(); ++id) {
    self_[id] = Level(CompareValues(kinds_[d.type(id)], d.text(id), d.text(id)));
  }
}

std::uint8_t PairLevels::Level(std::size_t level) {
  return level == kNoEvidence ? kNotCompared : static_cast<std::uint8_t>(level);
}

std::uint8_t PairLevels::Compare(std::uint16_t type, std::uint32_t x, std::uint32_t y) const {
  if (x == y) return self_[x];
  const ValueDictionary& d = table_.dictionary();
  return Level(CompareValues(kinds_[type], d.text(x), d.text(y)));
}

void PairLevels::Levels(std::size_t a, std::size_t b, std::span<std::uint8_t> levels) const {
  std::fill(levels.begin(), levels.end(), kNotCompared);
  const std::span<const Value> x = table_.Values(a), y = table_.Values(b);
  // Both sorted by type: walk them side by side, one type's run at a time.
  std::size_t i = 0, j = 0;
  while (i < x.size() && j < y.size()) {
    if (x[i].type != y[j].type) {
      (x[i].type < y[j].type ? i : j)++;
      continue;
    }
    const std::uint16_t type = x[i].type;
    std::size_t i_end = i, j_end = j;
    while (i_end < x.size() && x[i_end].type == type) ++i_end;
    while (j_end < y.size() && y[j_end].type == type) ++j_end;
    std::uint8_t best = kNotCompared;
    for (std::size_t p = i; p < i_end && best != 0; ++p) {
      for (std::size_t q = j; q < j_end && best != 0; ++q) {
        best = std::min(best, Compare(type, x[p].id, y[q].id));
      }
    }
    levels[type] = best;
    i = i_end;
    j = j_end;
  }
}

}  // namespace idres::train
