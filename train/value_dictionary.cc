#include "train/value_dictionary.h"

#include <functional>

namespace idres::train {
namespace {

std::size_t Hash(std::uint16_t type, std::string_view text) {
  return std::hash<std::string_view>{}(text)*31 + type;
}

}  // namespace

std::size_t ValueDictionary::Slot(std::uint16_t type, std::string_view text) const {
  const std::size_t mask = table_.size() - 1;
  std::size_t i = Hash(type, text) & mask;
  while (table_[i] != 0) {
    const std::uint32_t id = table_[i] - 1;
    if (types_[id] == type && this->text(id) == text) return i;
    i = (i + 1) & mask;
  }
  return i;
}

void ValueDictionary::Grow() {
  std::vector<std::uint32_t> old = std::move(table_);
  table_.assign(old.empty() ? 1024 : old.size() * 2, 0);
  for (std::uint32_t entry : old) {
    if (entry != 0) table_[Slot(types_[entry - 1], text(entry - 1))] = entry;
  }
}

std::uint32_t ValueDictionary::Add(std::uint16_t type, std::string_view text) {
  // Kept at most 70% full, so a probe ends soon.
  if ((types_.size() + 1) * 10 > table_.size() * 7) Grow();
  const std::size_t slot = Slot(type, text);
  if (table_[slot] != 0) {
    ++holders_[table_[slot] - 1];
    return table_[slot] - 1;
  }
  const auto id = static_cast<std::uint32_t>(types_.size());
  arena_.append(text);
  starts_.push_back(arena_.size());
  types_.push_back(type);
  holders_.push_back(1);
  table_[slot] = id + 1;
  return id;
}

}  // namespace idres::train
